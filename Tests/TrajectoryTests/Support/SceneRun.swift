import AnalyzerHarness
import LumaAnalysis
import LumaSynth
import TrajectoryAnalyzer

/// What the trajectory analyzer said about one recording, decoded.
struct TrajectoryRun {
    /// Every event in log order: the frame it is logged at, its kind, and its payload.
    var events: [HarnessEvent]
    var width: Int
    var height: Int

    var observations: [(frame: Int, observation: TrajectoryObservation)] {
        events.filter { $0.kind == "trajectory" }.map { ($0.frame, try! $0.decode(TrajectoryObservation.self)) }
    }

    var ends: [TrajectoryEnd] {
        events.filter { $0.kind == "trajectory.end" }.map { try! $0.decode(TrajectoryEnd.self) }
    }
}

/// Runs the analyzer through `AnalyzerHarness` (the real replay engine) on frames drawn on demand,
/// so the tests see exactly what `lumatrace replay` would log.
enum TrajectoryRunner {
    /// Runs `configuration` over `frameCount` frames that `render` draws (`width × height`, at
    /// `framesPerSecond`).
    static func run(width: Int, height: Int, frameCount: Int, framesPerSecond: Int = 30,
                    configuration: TrajectoryConfiguration = TrajectoryConfiguration(),
                    regionOfInterest: NormalizedRect = .full,
                    render: (Int, UnsafeMutableBufferPointer<UInt8>) throws -> Void) throws -> TrajectoryRun {
        let harness = AnalyzerHarness(TrajectoryAnalyzer.self, configuration: configuration, regionOfInterest: regionOfInterest,
                                      framesPerSecond: framesPerSecond)
        let events = try harness.run(width: width, height: height, frameCount: frameCount, draw: render)
        return TrajectoryRun(events: events, width: width, height: height)
    }

    /// Runs the analyzer over a synthetic scene.
    static func run(_ scene: SyntheticScene, configuration: TrajectoryConfiguration = TrajectoryConfiguration(),
                    regionOfInterest: NormalizedRect = .full) throws -> TrajectoryRun {
        let s = scene.settings
        return try run(width: s.width, height: s.height, frameCount: s.frameCount, framesPerSecond: s.framesPerSecond,
                       configuration: configuration, regionOfInterest: regionOfInterest) { i, buffer in
            scene.render(frame: i, into: buffer)
        }
    }
}
