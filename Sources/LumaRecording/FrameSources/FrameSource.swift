import LumaFormat

/// Something frames can be recorded from: a Y4M stream, a video through ffmpeg, a folder of
/// images, or a synthetic scene. Sources describe themselves first (size, time base), then deliver
/// frames with their timestamps.
public protocol FrameSource {
    /// Human-readable name for messages (file name, `stdin`, …).
    var name: String { get }
    /// What the recording's header keeps of the stream, known before its first frame: the frame
    /// size, the ticks per second of the timestamps `nextFrame` returns, the nominal frame rate,
    /// and descriptive strings about the source.
    var header: RecordingHeader { get }
    /// Frames expected, if known (for the progress bar).
    var expectedFrameCount: Int? { get }
    /// What the input has that a recording does not keep ("colour", "the audio stream"), said once.
    var leftOut: [String] { get }

    /// Fills `pixels` with the next frame and returns its timestamp in ticks, or `nil` at the end.
    mutating func nextFrame(into pixels: UnsafeMutableBufferPointer<UInt8>) throws -> Int64?

    /// Called once after the last frame (e.g. to check a subprocess exited cleanly).
    mutating func finish() throws
}

extension FrameSource {
    public mutating func finish() throws {}
    public var leftOut: [String] { [] }
}

/// A frame rate given by the user (`30`, `29.97`, `30000/1001`), as an exact fraction so
/// timestamps stay exact.
public struct FrameRate: Equatable, Sendable {
    public var numerator: Int
    public var denominator: Int

    public init?(parsing text: String) {
        if let slash = text.firstIndex(of: "/") {
            guard let n = Int(text[..<slash]), let d = Int(text[text.index(after: slash)...]), n > 0, d > 0, n <= 1_000_000_000, d <= 1_000_000_000 else { return nil }
            numerator = n
            denominator = d
        } else if let n = Int(text), n > 0, n <= 1_000_000 {
            numerator = n
            denominator = 1
        } else if let v = Double(text), v.isFinite, v > 0, v <= 1_000_000 {
            numerator = Int((v * 1000).rounded())
            denominator = 1000
            guard numerator > 0 else { return nil }
        } else {
            return nil
        }
    }

    public init(numerator: Int, denominator: Int) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// Timescale and ticks per frame for evenly spaced frames at this rate.
    public var timescale: Int64 { Int64(numerator) }
    public var ticksPerFrame: Int64 { Int64(denominator) }
}
