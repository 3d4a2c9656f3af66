/// Compares when a live stream's frames arrive with the rate the stream declares, to notice one
/// that is not live at all: a file or a pipe from a file delivers its frames as fast as they are
/// read, so frames stamped on arrival are squeezed into a fraction of their real time, and every
/// flight in them looks like impossible physics.
///
/// The judgement cannot flap: frames are counted from ``settlingFrames`` on (a camera or ffmpeg
/// may hand over a burst of buffered frames at the start), and once ``judgedFrames`` intervals
/// have been seen, the stream is judged too fast the first time its frames arrived in less than
/// ``fastFraction`` of the time the declared rate gives them. That is said once, and never
/// taken back.
public struct ArrivalPace: Sendable {
    /// Frames at the start left out of the judgement.
    public static let settlingFrames: Int64 = 5
    /// Frame intervals seen (after the settling frames) before the stream is judged.
    public static let judgedFrames: Int64 = 30
    /// A stream whose frames arrive in less than this fraction of their declared time is too fast.
    public static let fastFraction = 0.5

    /// What was found: `frames` intervals arrived within `arrivalSeconds`, where the declared rate
    /// gives them `declaredSeconds`.
    public struct TooFast: Sendable, Equatable {
        public var frames: Int64
        public var arrivalSeconds: Double
        public var declaredSeconds: Double
    }

    let rate: FrameRate
    /// The arrival time (microseconds) of the first judged frame.
    private var start: Int64?
    private var said = false

    /// Watches a stream declared at `rate`.
    public init(rate: FrameRate) { self.rate = rate }

    /// Takes frame `index`'s arrival, in microseconds after the first frame's; returns the finding
    /// the first time the stream is judged too fast, `nil` otherwise (and ever after).
    public mutating func arrived(frame index: Int64, atMicroseconds time: Int64) -> TooFast? {
        guard !said, index >= Self.settlingFrames, rate.numerator > 0, rate.denominator > 0 else { return nil }
        guard let start else {
            self.start = time
            return nil
        }
        let frames = index - Self.settlingFrames
        guard frames >= Self.judgedFrames else { return nil }
        let declared = Double(frames) * Double(rate.denominator) / Double(rate.numerator)
        let arrival = Double(time - start) / 1_000_000
        guard arrival < Self.fastFraction * declared else { return nil }
        said = true
        return TooFast(frames: frames, arrivalSeconds: arrival, declaredSeconds: declared)
    }
}
