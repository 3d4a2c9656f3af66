import LumaBase
/// The real times of exported frames, for formats that cannot carry them.
///
/// A Y4M stream has one constant rate, so a variable-frame-rate recording exported as Y4M plays at
/// the wrong pace. Its frames' own times are written beside it in forms other tools read:
/// mkvmerge's "timestamp format v2" (`mkvmerge -o timed.mkv --timestamps 0:clip.timestamps.txt
/// clip.mkv`) for a stream, and an ffmpeg concat script (`ffmpeg -safe 0 -f concat -i frames.ffconcat
/// -fps_mode passthrough …`) for a folder of images.
public struct FrameTimes: Sendable {
    public var timestamps: [Timestamp]

    public init(_ timestamps: [Timestamp]) {
        self.timestamps = timestamps
    }

    /// The most, in seconds, that a constant-rate stream at `numerator/denominator` frames per
    /// second starting at the first frame puts any frame away from its real time.
    public func deviation(fromRateNumerator numerator: Int, denominator: Int) -> Double {
        guard let first = timestamps.first, numerator > 0, denominator > 0 else { return 0 }
        var worst = 0.0
        for (i, t) in timestamps.enumerated() {
            let real = Double(t.ticks - first.ticks) / Double(t.timescale)
            let constant = Double(i) * Double(denominator) / Double(numerator)
            worst = max(worst, abs(real - constant))
        }
        return worst
    }

    /// Whether a constant-rate stream at this rate keeps every frame within half a frame interval
    /// of its real time.
    public func isConstant(rateNumerator numerator: Int, denominator: Int) -> Bool {
        numerator > 0 && denominator > 0 && deviation(fromRateNumerator: numerator, denominator: denominator) <= 0.5 * Double(denominator) / Double(numerator)
    }

    /// Seconds from the first frame to the last.
    public var span: Double {
        guard let first = timestamps.first, let last = timestamps.last else { return 0 }
        return Double(last.ticks - first.ticks) / Double(first.timescale)
    }

    /// mkvmerge's "timestamp format v2": a header line, then each frame's time in milliseconds
    /// (three decimals: microseconds), one per line.
    public func mkvmergeTimestamps() -> String {
        var text = "# timestamp format v2\n"
        for t in timestamps { text += Self.milliseconds(t) + "\n" }
        return text
    }

    /// An ffmpeg concat script that shows each of `files` (one per frame, in order) for the time up
    /// to the next frame; the last keeps the interval before it. Time starts at 0 at the first frame.
    ///
    /// Each file is opened at a microsecond time base (`option framerate 1000000`): at the image
    /// demuxer's default of 1/25 s ffmpeg would round every time to 40 ms. Options in a script need
    /// `ffmpeg -safe 0 -f concat -i frames.ffconcat`.
    public func ffconcat(files: [String]) -> String {
        precondition(files.count == timestamps.count, "one file per frame")
        var text = "ffconcat version 1.0\n"
        for (i, file) in files.enumerated() {
            let next = i + 1 < timestamps.count ? timestamps[i + 1].ticks : nil
            let previous = i > 0 ? timestamps[i - 1].ticks : nil
            let interval = next.map { $0 - timestamps[i].ticks } ?? previous.map { timestamps[i].ticks - $0 } ?? timestamps[i].timescale / 30
            text += "file '\(file)'\noption framerate 1000000\nduration \(Timestamp(ticks: interval, timescale: timestamps[i].timescale).fixedDecimalSeconds(6))\n"
        }
        return text
    }

    /// `1.977654 s` as `1977.654`, from the exact decimal seconds (no floating point).
    static func milliseconds(_ t: Timestamp) -> String {
        let seconds = t.fixedDecimalSeconds(6)
        let negative = seconds.hasPrefix("-")
        let digits = seconds.drop { $0 == "-" }
        let parts = digits.split(separator: ".")
        let whole = String(parts[0]) + parts[1].prefix(3)
        let trimmed = whole.drop { $0 == "0" }
        return (negative ? "-" : "") + (trimmed.isEmpty ? "0" : String(trimmed)) + "." + parts[1].suffix(3)
    }
}
