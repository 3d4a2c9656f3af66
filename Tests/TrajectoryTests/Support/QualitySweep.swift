import Foundation
import LumaSynth
import TrajectoryAnalyzer

/// The synthetic quality sweep: many `synth` scenes with fixed seeds, scored against their truth.
///
/// Each seed picks, in rotation, a frame size (400×225 to 640×360, so ball radii run from 2 to 16
/// pixels), a noise level (σ 1, 2, 4 or 7.3 grey levels: the faintest balls, 22 grey levels from
/// their background, are then 3× the noise) and a kind (every fifth scene is `mixed`: balls in front
/// of moving textured objects, a flickering lamp, a drifting shadow and exposure drift; every fifth
/// from the third is `crowded`: each ball with its soft shadow on the wall and the hand that throws it).
enum QualitySweep {
    static let sizes = [(400, 225), (480, 270), (560, 315), (640, 360)]
    static let noises = [1.0, 2.0, 4.0, 7.3]

    static func settings(seed: UInt64, frames: Int = 150) -> (kind: SceneKind, settings: SceneSettings) {
        let size = sizes[Int(seed % 4)]
        let noise = noises[Int((seed / 4) % 4)]
        let kind: SceneKind = seed % 5 == 4 ? .mixed : seed % 5 == 2 ? .crowded : .balls
        return (kind, SceneSettings(width: size.0, height: size.1, framesPerSecond: 30, frameCount: frames, seed: seed, noise: noise))
    }

    /// Seeds of `1...count` whose scenes are not `crowded`: the plain throws the floors guard.
    static func uncrowdedSeeds(_ count: UInt64) -> [UInt64] { (1...count).filter { settings(seed: $0).kind != .crowded } }

    /// Runs and scores `seeds`; returns the total, the totals of the `crowded` scenes and of the
    /// others, and one table row per scene.
    static func run(seeds: [UInt64], configuration: TrajectoryConfiguration = .measured,
                    matcher: TruthMatcher = TruthMatcher())
        throws -> (total: TruthMatcher.Score, crowded: TruthMatcher.Score, uncrowded: TruthMatcher.Score, table: String) {
        var total = TruthMatcher.Score(), crowded = TruthMatcher.Score(), uncrowded = TruthMatcher.Score()
        var lines = ["seed  kind    size     noise  segments found  traj correct  median px"]
        for seed in seeds {
            let (kind, settings) = Self.settings(seed: seed)
            let scene = try SyntheticScene(kind: kind, settings: settings)
            let run = try TrajectoryRunner.run(scene, configuration: configuration)
            let s = matcher.score(run.ends, truth: scene.truth)
            total = total + s
            if kind == .crowded { crowded = crowded + s } else { uncrowded = uncrowded + s }
            lines.append([
                pad("\(seed)", 6), pad(kind.rawValue, 8), pad("\(settings.width)x\(settings.height)", 9),
                pad(fixed(settings.noise, 1), 7), pad("\(s.segments)", 9), pad("\(s.found)", 6), pad("\(s.trajectories)", 5),
                pad("\(s.correct)", 8), fixed(s.medianError, 2),
            ].joined() + (s.missed.isEmpty ? "" : "  missed: " + s.missed.joined(separator: ", "))
                + (s.wrong.isEmpty ? "" : "  wrong: " + s.wrong.joined(separator: ", ")))
        }
        lines.append("total: \(total)")
        lines.append("balls and mixed: \(uncrowded)")
        lines.append("crowded: \(crowded)")
        lines.append("end reasons (truth → reported): " + total.reasons.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        return (total, crowded, uncrowded, lines.joined(separator: "\n"))
    }

    private static func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s + " " : s + String(repeating: " ", count: n - s.count) }
}

extension TrajectoryConfiguration {
    /// The default configuration in `design`.
    static func design(_ design: Design) -> TrajectoryConfiguration {
        var c = TrajectoryConfiguration()
        c.design = design
        return c
    }

    /// The default configuration, in the design `TRAJECTORY_DESIGN` names if it is set (for the
    /// measurements: `TRAJECTORY_DESIGN=window scripts/trajectory-quality`).
    static var measured: TrajectoryConfiguration {
        var c = TrajectoryConfiguration()
        if let name = ProcessInfo.processInfo.environment["TRAJECTORY_DESIGN"], let design = Design(rawValue: name) { c.design = design }
        return c
    }
}
