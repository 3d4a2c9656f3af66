import LumaFormat

/// When each frame of a recording was taken, in seconds from its first frame: from the frames'
/// own timestamps (the chunks' frame tables), so a live or variable-rate recording is drawn at its
/// real pace. A frame in no readable chunk is placed at the nominal rate from the readable frame
/// before it (or, before the first, back from the first). It holds one time per readable frame,
/// never one per frame an index merely claims.
public struct FrameClock: Sendable {
    /// Runs of consecutive readable frames: the first frame's index and each one's seconds.
    private let runs: [(first: Int, seconds: [Double])]
    private let interval: Double
    /// Frames in the recording.
    public let frameCount: Int

    /// The clock of `reader`'s frames; throws only when the frame tables cannot be read at all.
    public init(_ reader: RecordingReader) throws(LumaFormatError) {
        let timescale = Double(max(reader.header.timescale, 1))
        interval = reader.header.nominalFrameRate > 0 ? 1 / reader.header.nominalFrameRate : 1.0 / 30
        frameCount = reader.frameCount
        var runs: [(first: Int, seconds: [Double])] = []
        var origin: (ticks: Int64, frame: Int)?
        for entry in reader.chunks {
            guard let ticks = try reader.frameTicks(of: entry), let first = ticks.first else { continue }
            let o = origin ?? (first, entry.firstFrame)
            origin = o
            // Seconds from the first readable frame, shifted so frame 0 is at 0 when it is not that frame.
            let shift = Double(o.frame) * interval
            runs.append((entry.firstFrame, ticks.map { Double($0 - o.ticks) / timescale + shift }))
        }
        self.runs = runs
    }

    /// The time of `frame`; a frame outside the recording is placed at the nearest end.
    public func time(_ frame: Int) -> Double {
        let frame = min(max(frame, 0), max(frameCount - 1, 0))
        var lo = 0, hi = runs.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if runs[mid].first <= frame { lo = mid + 1 } else { hi = mid }
        }
        guard lo > 0 else { return runs.first.map { $0.seconds[0] - Double($0.first - frame) * interval } ?? Double(frame) * interval }
        let run = runs[lo - 1]
        let k = frame - run.first
        return k < run.seconds.count ? run.seconds[k] : run.seconds[run.seconds.count - 1] + Double(k - run.seconds.count + 1) * interval
    }

    /// Seconds from the first frame to the last.
    public var span: Double { frameCount > 0 ? time(frameCount - 1) : 0 }
}
