
/// Numbers as text for people: tables and messages (event logs use `JSONValue`'s format).
public enum DecimalText {
    /// `value` rounded to `decimals` decimals, always with that many: `0.850`, `-3.2`, `12`.
    ///
    /// Total: every `Double` prints without trapping. Not-a-number and infinities print as `nan`,
    /// `inf` and `-inf`; a value too large for the integer arithmetic (over 9·10^15 once scaled)
    /// prints in Swift's shortest round-trip form (`1e+300`), which is the same on every machine.
    public static func fixed(_ value: Double, _ decimals: Int = 2) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        return FixedDecimal.text(value, decimals: decimals, below: 9e15) ?? "\(value)"
    }
}
