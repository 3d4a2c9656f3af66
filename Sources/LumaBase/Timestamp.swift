/// A point in recording time: an integer number of `ticks`, each 1/`timescale` of a second.
///
/// Like `CMTime`, it is exact: no floating point is involved in storing, comparing or ordering
/// timestamps, so replays never depend on rounding. Lumatrace never reads a clock; all time is
/// recording time.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var ticks: Int64
    public var timescale: Int64

    public init(ticks: Int64, timescale: Int64) {
        precondition(timescale > 0, "timescale must be positive")
        self.ticks = ticks
        self.timescale = timescale
    }

    /// Seconds as a `Double`, for arithmetic in analyzers. Use ``fixedDecimalSeconds(_:)`` for output.
    public var seconds: Double { Double(ticks) / Double(timescale) }

    /// The time in seconds with exactly `decimals` digits after the point, rounded half away from
    /// zero, computed with integers only, so the same timestamp always prints the same way.
    public func fixedDecimalSeconds(_ decimals: Int = 6) -> String {
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let negative = ticks < 0
        let magnitude = ticks.magnitude
        // Split before multiplying so that large tick counts cannot overflow.
        let whole = magnitude / UInt64(timescale)
        let rest = magnitude % UInt64(timescale)
        var fraction = (rest * UInt64(scale) * 2 + UInt64(timescale)) / (2 * UInt64(timescale))
        var wholePart = whole
        if fraction >= UInt64(scale) { wholePart += 1; fraction -= UInt64(scale) }
        return FixedDecimal.text(negative: negative, whole: wholePart, fraction: fraction, decimals: decimals)
    }

    public static func < (a: Timestamp, b: Timestamp) -> Bool {
        if a.timescale == b.timescale { return a.ticks < b.ticks }
        return a.ticks.multipliedFullWidth(by: b.timescale) < b.ticks.multipliedFullWidth(by: a.timescale)
    }

    public var description: String { fixedDecimalSeconds() + " s" }
}

extension Timestamp {
    /// The largest tick count, positive or negative, a recording may hold: 2^61, about 73 years at
    /// nanosecond ticks. Readers refuse timestamps beyond it where they enter (chunk fields, the
    /// index), so the difference of any two timestamps, or one plus a spacing, never overflows.
    public static let maximumTicks: Int64 = 1 << 61
}

extension Int64 {
    /// `ticks` in `timescale` for a time given in seconds, rounded to the nearest tick, or `nil`
    /// when the time is not finite or lies beyond ``Timestamp/maximumTicks`` (`1e300` seconds).
    /// Use it for times that come from outside: flags, files.
    public static func ticks(exactlyForSeconds seconds: Double, timescale: Int64) -> Int64? {
        let ticks = (seconds * Double(timescale)).rounded()
        guard ticks.isFinite, abs(ticks) <= Double(Timestamp.maximumTicks) else { return nil }
        return Int64(ticks)
    }

    /// `ticks` in `timescale` for a time given in seconds, rounded to the nearest tick and clamped
    /// to ±``Timestamp/maximumTicks`` (NaN gives 0), so no value can trap.
    public static func ticks(forSeconds seconds: Double, timescale: Int64) -> Int64 {
        if let ticks = ticks(exactlyForSeconds: seconds, timescale: timescale) { return ticks }
        let scaled = seconds * Double(timescale)
        return scaled.isNaN ? 0 : (scaled < 0 ? -Timestamp.maximumTicks : Timestamp.maximumTicks)
    }
}
