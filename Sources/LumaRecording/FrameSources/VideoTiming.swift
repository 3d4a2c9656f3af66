import LumaAnalysis

/// When each frame of a video was taken, from ffprobe's list of frames: the container's
/// timestamps (a frame without one gets the previous frame's interval), or evenly spaced frames
/// when the rate is given (`--fps`).
struct VideoTiming {
    /// Ticks per second of ``timestamps``.
    let timescale: Int64
    /// Each listed frame's time, in ticks, strictly increasing.
    let timestamps: [Int64]
    /// The nominal rate, `0/0` when the container states none.
    let rateNumerator: Int
    let rateDenominator: Int
    /// Frames that had no timestamp and were given one.
    let extrapolated: Int
    /// How the times were found, for the recording's metadata.
    let description: String

    /// The timing of `frames` (ffprobe's frame entries) of `stream`; `fps` overrides the container's.
    init(frames: [JSONValue], stream: JSONValue, fps: FrameRate?, path: String) throws {
        let timeBase = FrameRate(parsing: stream["time_base"]?.stringValue ?? "") ?? FrameRate(numerator: 1, denominator: 90000)
        let averageRate = FrameRate(parsing: stream["avg_frame_rate"]?.stringValue ?? "") ?? FrameRate(parsing: stream["r_frame_rate"]?.stringValue ?? "")
        if let fps {
            // Container timing overridden: evenly spaced frames.
            timescale = fps.timescale
            timestamps = (0..<frames.count).map { Int64($0) * fps.ticksPerFrame }
            rateNumerator = fps.numerator
            rateDenominator = fps.denominator
            extrapolated = 0
            description = "evenly spaced at \(fps.numerator)/\(fps.denominator) fps"
        } else {
            // time_base is num/den seconds per tick; ticks in 1/den with num folded into each value.
            let scale = Int64(timeBase.denominator)
            timescale = scale
            let known: [Int64?] = frames.map { f in
                (f["best_effort_timestamp"]?.intValue ?? f["pts"]?.intValue ?? f["pkt_dts"]?.intValue).map { Int64($0) * Int64(timeBase.numerator) }
            }
            let nominalTicks = averageRate.map { Int64((Double(scale) * Double($0.denominator) / Double($0.numerator)).rounded()) } ?? 1
            (timestamps, extrapolated) = try Self.containerTimestamps(known, nominalTicks: nominalTicks, timescale: scale, path: path)
            rateNumerator = averageRate?.numerator ?? 0
            rateDenominator = averageRate?.denominator ?? 0
            description = "container timestamps (time base \(timeBase.numerator)/\(timeBase.denominator))"
        }
    }

    /// The frames' times from the ones the container gives (`nil` where a frame has none, e.g. one
    /// flushed from the decoder at the end): a missing one is the previous frame's time plus the
    /// previous interval (or the next known time less the nominal interval, at the start). Also
    /// how many were missing.
    private static func containerTimestamps(_ known: [Int64?], nominalTicks: Int64, timescale: Int64,
                                            path: String) throws -> (timestamps: [Int64], filled: Int) {
        var ts: [Int64] = []
        ts.reserveCapacity(known.count)
        var filled = 0
        for (i, value) in known.enumerated() {
            let ticks: Int64
            if let value {
                ticks = value
            } else {
                filled += 1
                if let last = ts.last {
                    ticks = last + max(1, ts.count >= 2 ? last - ts[ts.count - 2] : nominalTicks)
                } else if let next = known.dropFirst(i + 1).compactMap({ $0 }).first {
                    ticks = next - max(1, nominalTicks)
                } else {
                    throw RecordingInputError.noTimestamps(path)
                }
            }
            if let last = ts.last, ticks <= last {
                throw RecordingInputError.timestampNotIncreasing(path: path, frame: i, ticks: ticks, timescale: timescale, previous: last)
            }
            ts.append(ticks)
        }
        return (ts, filled)
    }
}
