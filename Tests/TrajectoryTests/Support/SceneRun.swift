import LumaAnalysis
import LumaBase
import LumaEngine
import LumaSynth
import TrajectoryAnalyzer

/// What the trajectory analyzer said about one recording, decoded.
struct TrajectoryRun {
    /// Every event in order: the frame it was emitted at, its kind, and its payload.
    var events: [(frame: Int, kind: String, payload: JSONValue)]
    var width: Int
    var height: Int

    var observations: [(frame: Int, observation: TrajectoryObservation)] {
        events.filter { $0.kind == "trajectory" }.map { ($0.frame, try! $0.payload.decode(TrajectoryObservation.self)) }
    }

    var ends: [TrajectoryEnd] {
        events.filter { $0.kind == "trajectory.end" }.map { try! $0.payload.decode(TrajectoryEnd.self) }
    }
}

/// Runs the analyzer straight on frames, without a recording file: the fast path for tests that
/// look at what was found, not at how logs are written (the replay tests cover that).
enum TrajectoryRunner {
    /// Runs `configuration` over `frameCount` frames that `render` draws (`width × height`, at
    /// `framesPerSecond`).
    static func run(width: Int, height: Int, frameCount: Int, framesPerSecond: Int = 30,
                    configuration: TrajectoryConfiguration = TrajectoryConfiguration(),
                    regionOfInterest: NormalizedRect = .full, digest: String = "test",
                    render: (Int, UnsafeMutableBufferPointer<UInt8>) -> Void) throws -> TrajectoryRun {
        let stream = StreamInfo(width: width, height: height, timescale: Int64(framesPerSecond),
                                nominalFrameRate: Double(framesPerSecond), frameCount: frameCount, recordingDigest: digest)
        var analyzer = try TrajectoryAnalyzer(configuration: configuration,
                                              context: AnalyzerContext(stream: stream, regionOfInterest: regionOfInterest))
        var pixels = [UInt8](repeating: 0, count: width * height)
        var events: [(frame: Int, kind: String, payload: JSONValue)] = []
        for i in 0..<frameCount {
            pixels.withUnsafeMutableBufferPointer { render(i, $0) }
            var sink = EventSink()
            try pixels.withUnsafeBufferPointer { p in
                let frame = Frame(index: i, timestamp: Timestamp(ticks: Int64(i), timescale: Int64(framesPerSecond)),
                                  width: width, height: height, pixels: p)
                try analyzer.analyze(frame, into: &sink)
            }
            events += sink.events.map { (i, $0.kind, $0.payload) }
        }
        var sink = EventSink()
        try analyzer.finish(into: &sink)
        events += sink.events.map { (max(frameCount - 1, 0), $0.kind, $0.payload) }
        return TrajectoryRun(events: events, width: width, height: height)
    }

    /// Runs the analyzer over a synthetic scene.
    static func run(_ scene: SyntheticScene, configuration: TrajectoryConfiguration = TrajectoryConfiguration(),
                    regionOfInterest: NormalizedRect = .full) throws -> TrajectoryRun {
        let s = scene.settings
        return try run(width: s.width, height: s.height, frameCount: s.frameCount, framesPerSecond: s.framesPerSecond,
                       configuration: configuration, regionOfInterest: regionOfInterest, digest: "synth-\(s.seed)") { i, buffer in
            scene.render(frame: i, into: buffer)
        }
    }
}

extension TrajectoryConfiguration {
    /// The defaults with some options changed, for tests: `.with { $0.trajectoryLength = 6 }`.
    static func with(_ change: (inout TrajectoryConfiguration) -> Void) -> TrajectoryConfiguration {
        var c = TrajectoryConfiguration()
        change(&c)
        return c
    }
}
