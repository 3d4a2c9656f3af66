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
        var digits = String(fraction)
        while digits.count < decimals { digits = "0" + digits }
        let sign = negative && (wholePart != 0 || fraction != 0) ? "-" : ""
        return decimals == 0 ? "\(sign)\(wholePart)" : "\(sign)\(wholePart).\(digits)"
    }

    public static func < (a: Timestamp, b: Timestamp) -> Bool {
        if a.timescale == b.timescale { return a.ticks < b.ticks }
        return a.ticks.multipliedFullWidth(by: b.timescale) < b.ticks.multipliedFullWidth(by: a.timescale)
    }

    public var description: String { fixedDecimalSeconds() + " s" }
}

extension Int64 {
    /// `ticks` in `timescale` for a time given in seconds, rounded to the nearest tick.
    public static func ticks(forSeconds seconds: Double, timescale: Int64) -> Int64 {
        Int64((seconds * Double(timescale)).rounded())
    }
}
