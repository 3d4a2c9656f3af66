import LumaFormat

/// When each frame of a recording was taken, in seconds from its first frame: from the frames'
/// own timestamps (the chunks' frame tables), so a live or variable-rate recording is drawn at its
/// real pace. A frame in no readable chunk is placed at the nominal rate after the frame before it.
public struct FrameClock: Sendable {
    /// Seconds from the first frame, by frame index.
    public let seconds: [Double]

    /// The clock of `reader`'s frames.
    public init(_ reader: RecordingReader) throws(LumaFormatError) {
        let ticks = try reader.frameTicks()
        let timescale = Double(max(reader.header.timescale, 1))
        let interval = reader.header.nominalFrameRate > 0 ? 1 / reader.header.nominalFrameRate : 1.0 / 30
        let origin = ticks.lazy.compactMap { $0 }.first ?? 0
        var seconds: [Double] = []
        seconds.reserveCapacity(ticks.count)
        for t in ticks {
            seconds.append(t.map { Double($0 - origin) / timescale } ?? (seconds.last.map { $0 + interval } ?? 0))
        }
        self.init(seconds: seconds)
    }

    /// A clock with the given times (seconds from the first frame, by frame index).
    public init(seconds: [Double]) {
        self.seconds = seconds
    }

    /// The time of `frame`; a frame outside the recording is placed at the nearest end.
    public func time(_ frame: Int) -> Double {
        guard !seconds.isEmpty else { return 0 }
        return seconds[min(max(frame, 0), seconds.count - 1)]
    }

    /// Seconds from the first frame to the last.
    public var span: Double { seconds.last ?? 0 }
}
