/// Numbers as text for people: tables and messages (event logs use ``JSONValue``'s format).
public enum DecimalText {
    /// `value` rounded to `decimals` decimals, always with that many: `0.850`, `-3.2`, `12`.
    public static func fixed(_ value: Double, _ decimals: Int = 2) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let n = (value * scale).rounded()
        let whole = Int(abs(n) / scale)
        var fraction = String(Int(abs(n).truncatingRemainder(dividingBy: scale)))
        while fraction.count < decimals { fraction = "0" + fraction }
        return (n < 0 && n != 0 ? "-" : "") + "\(whole)" + (decimals > 0 ? "." + fraction : "")
    }
}
