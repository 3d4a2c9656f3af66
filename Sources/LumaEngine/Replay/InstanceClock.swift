/// Each analyzer instance's own analysis time in a replay, when asked for
/// (``ReplayOptions/instanceClock``): a clock around that instance's `analyze` and `finish` calls
/// only, so instances running side by side are each charged their own time, not the replay's.
///
/// Times are wall-clock readings: they differ from run to run and never go into a log. The replay
/// writes the readings once, on its own thread, when its analysis finishes; read them after the
/// replay has returned.
public final class InstanceClock: @unchecked Sendable {
    /// One instance's time over a replay.
    public struct Reading: Sendable, Equatable, Codable {
        /// Seconds spent in the instance's `analyze` and `finish` calls.
        public var seconds: Double
        /// The frames it analyzed (fewer than the replay's with a `frameAnalysisSpacing`).
        public var frames: Int

        public init(seconds: Double = 0, frames: Int = 0) {
            self.seconds = seconds
            self.frames = frames
        }

        /// Milliseconds per analyzed frame; 0 for none.
        public var millisecondsPerFrame: Double { frames == 0 ? 0 : seconds * 1000 / Double(frames) }

        /// The two readings together (the same instance over two replays).
        public static func + (a: Reading, b: Reading) -> Reading {
            Reading(seconds: a.seconds + b.seconds, frames: a.frames + b.frames)
        }
    }

    private var readings: [String: Reading] = [:]

    public init() {}

    /// The time of instance `name` (its log name), added over every replay this clock timed;
    /// `nil` for an instance it never timed.
    public func reading(_ name: String) -> Reading? { readings[name] }

    /// Seconds from `start` to now.
    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let d = ContinuousClock.now - start
        return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    /// Adds `reading` to instance `name`'s.
    func add(_ reading: Reading, to name: String) { readings[name] = (readings[name] ?? Reading()) + reading }
}
