/// Numbers as decimal text with a fixed number of decimals, computed with integers, so the same
/// number prints the same bytes on every machine (C's `printf` and Foundation's formatters round
/// and print differently from one platform to the next).
///
/// Every fixed-decimal text Lumatrace writes goes through here: event logs (six decimals, through
/// `JSONValue`), recording time (`Timestamp`), truth files, scene notes, and the numbers in tables
/// and messages (`DecimalText`). Rounding is half away from zero, and zero never prints a sign:
/// `-0.0000001` to six decimals is `0.000000`.
public enum FixedDecimal {
    /// `value × 10^decimals` rounded half away from zero: the number counted in units of its last
    /// decimal (`1.2345` to 2 decimals is 123). `nil` when `value` is not finite, or when that count
    /// is `limit` or more in magnitude; a limit of at most 2^53 (9·10^15) keeps every count exact,
    /// and at most 9.2·10^18 is what an `Int64` holds.
    public static func units(_ value: Double, decimals: Int, below limit: Double) -> Int64? {
        precondition((0...18).contains(decimals) && limit <= 9.2e18, "0...18 decimals; a limit an Int64 holds")
        guard value.isFinite else { return nil }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (value * scale).rounded(.toNearestOrAwayFromZero)
        guard abs(scaled) < limit else { return nil }
        return Int64(scaled)
    }

    /// `value` rounded half away from zero to `decimals` decimals: `text(2.345, decimals: 2)` is
    /// `2.35`, `text(-3.25, decimals: 1)` is `-3.3`, `text(12, decimals: 0)` is `12`. `nil` where
    /// ``units(_:decimals:below:)`` is: the caller decides what a non-finite or huge value prints as.
    public static func text(_ value: Double, decimals: Int, below limit: Double, trimmingZeros: Bool = false) -> String? {
        units(value, decimals: decimals, below: limit).map { text(units: $0, decimals: decimals, trimmingZeros: trimmingZeros) }
    }

    /// The number `units × 10^−decimals` as text: 1234 units to 2 decimals is `12.34`, −5 is `-0.05`.
    public static func text(units: Int64, decimals: Int, trimmingZeros: Bool = false) -> String {
        precondition((0...18).contains(decimals), "0...18 decimals")
        var scale: UInt64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let magnitude = units.magnitude
        return text(negative: units < 0, whole: magnitude / scale, fraction: magnitude % scale, decimals: decimals,
                    trimmingZeros: trimmingZeros)
    }

    /// A number given as its sign, whole part and the first `decimals` digits of its fraction (as
    /// an integer below 10^decimals): `-12.05` is (negative, 12, 5, 2 decimals). The fraction is
    /// padded with leading zeros to `decimals` digits; with no decimals there is no point. With
    /// `trimmingZeros` the fraction's trailing zeros are left out, and the point with them when
    /// nothing is left: `12`, `0.5`, `-0.000001` (the shortest text of the rounded number).
    public static func text(negative: Bool, whole: UInt64, fraction: UInt64, decimals: Int, trimmingZeros: Bool = false) -> String {
        precondition((0...18).contains(decimals), "0...18 decimals")
        precondition(decimals == 0 || fraction < power(decimals), "the fraction has at most `decimals` digits")
        // Every log number goes through here: its bytes are written once, not built from pieces.
        // At most a sign, 20 whole digits, a point and 18 decimals.
        return String(unsafeUninitializedCapacity: 40) { bytes in
            var end = 0
            if negative && (whole != 0 || fraction != 0) { bytes[end] = UInt8(ascii: "-"); end += 1 }
            end = writeDigits(whole, minimumCount: 1, into: bytes, at: end)
            guard decimals > 0, !(trimmingZeros && fraction == 0) else { return end }
            var (fraction, count) = (fraction, decimals)
            if trimmingZeros { while fraction % 10 == 0 { fraction /= 10; count -= 1 } }
            bytes[end] = UInt8(ascii: ".")
            return writeDigits(fraction, minimumCount: count, into: bytes, at: end + 1)
        }
    }

    /// 10^n.
    private static func power(_ n: Int) -> UInt64 {
        var p: UInt64 = 1
        for _ in 0..<n { p *= 10 }
        return p
    }

    /// Writes `value` in decimal at `start`, padded with leading zeros to `minimumCount` digits;
    /// returns where the digits end.
    private static func writeDigits(_ value: UInt64, minimumCount: Int, into bytes: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        var count = 1
        var rest = value / 10
        while rest > 0 { count += 1; rest /= 10 }
        count = max(count, minimumCount)
        var value = value
        for index in stride(from: start + count - 1, through: start, by: -1) {
            bytes[index] = UInt8(ascii: "0") + UInt8(value % 10)
            value /= 10
        }
        return start + count
    }
}
