import Foundation
import LumaSynth
import LumaTruth
import Testing
import TrajectoryAnalyzer

/// Quality floors that run with every `swift test`: a fixed handful of the sweep's scenes of plain
/// throws (`balls` and `mixed`; the `crowded` ones are measured, not yet floored: see
/// `TrajectoryQualityTests`), so a change that costs throws or adds false ones fails a test, not
/// only the README's table.
@Suite("Trajectory quality floors (8 synthetic scenes, every run)")
struct TrajectoryQualityFloorTests {
    @Test("8 fixed synthetic scenes: recall, precision and point error at least today's")
    func floors() throws {
        let seeds = QualitySweep.uncrowdedSeeds(10)
        try #require(seeds == [1, 3, 4, 5, 6, 8, 9, 10])
        let result = try QualitySweep.run(seeds: seeds)
        // Measured 2026-11-25 on these 8 scenes: 68 of 69 throws found, 68 of 68 trajectories
        // correct, median point error 0.15 px. Floors: at most two throws lost or false, 0.2 px.
        #expect(result.total.recall >= 0.97, "\(result.table)")
        #expect(result.total.precision >= 0.97, "\(result.table)")
        #expect(result.total.medianError <= 0.2, "\(result.table)")
        print("trajectory floors: \(result.total)")
    }
}

/// The quality measurements of the trajectory analyzer: the synthetic sweep and the real clips,
/// scored against their truth. They print tables rather than pass or fail, take minutes, and want a
/// release build, so they run only when asked:
///
///     scripts/trajectory-quality            # = TRAJECTORY_QUALITY=1 swift test -c release --filter TrajectoryQuality
///
/// `TRAJECTORY_SEEDS=N` sets the number of synthetic scenes (default 50).
@Suite("Trajectory quality (measurement; run with scripts/trajectory-quality)",
       .enabled(if: ProcessInfo.processInfo.environment["TRAJECTORY_QUALITY"] != nil, "set TRAJECTORY_QUALITY=1 (scripts/trajectory-quality)"))
struct TrajectoryQualityTests {
    @Test("synthetic sweep: recall, precision and point error over fixed seeds, at least today's figures")
    func syntheticSweep() throws {
        let n = UInt64(ProcessInfo.processInfo.environment["TRAJECTORY_SEEDS"] ?? "50") ?? 50
        let result = try QualitySweep.run(seeds: Array(1...n))
        print(result.table)
        // Floors on the 40 scenes of plain throws (`balls` and `mixed`): the figures measured
        // 2026-11-25 (recall 0.943, precision 0.995, median 0.17 px, README table) less a small
        // margin, so a regression fails here, not only in a table. The 10 `crowded` scenes (added
        // 2026-11-25, every fifth from seed 2; 3 of 78 throws found) are measured, not floored.
        guard n == 50 else { return }
        #expect(result.uncrowded.recall >= 0.93, "\(result.uncrowded)")
        #expect(result.uncrowded.precision >= 0.98, "\(result.uncrowded)")
        #expect(result.uncrowded.medianError <= 0.25, "\(result.uncrowded)")
    }

    @Test("real clips: throws in the truth, trajectories found, matched, point error")
    func realClips() throws {
        let truthFolder = RealClip.truthFolder
        let data = try #require(RealClip.sharedData, "../shared/data is not beside the package")
        // Throws of at least `trajectoryLength` (10) frames are counted, as in the sweep: shorter ones
        // (a drop off the rim, a short bounce pass) cannot be reported at the default settings.
        var lines = ["clip                         frames  throws  found  trajectories  correct  median px  p90 px  (shorter throws)"]
        let names = try FileManager.default.contentsOfDirectory(atPath: truthFolder).filter { $0.hasSuffix(".truth.json") }.sorted()
        for name in names {
            let clip = String(name.dropLast(".truth.json".count))
            let truth = try JSONDecoder().decode(GroundTruth.self, from: Data(contentsOf: URL(fileURLWithPath: truthFolder + "/" + name)))
            let run = try RealClip.run(folder: data + "/" + clip)
            let score = TruthMatcher(minimumVisible: 10).score(run.ends, truth: truth)
            let shorter = truth.ballSegments.filter { $0.points.count < 10 }.count
            let sorted = score.errors.sorted()
            let p90 = sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, sorted.count * 9 / 10)]
            lines.append([pad(clip, 29), pad("\(truth.frames)", 8), pad("\(score.segments)", 8), pad("\(score.found)", 7),
                          pad("\(score.trajectories)", 14), pad("\(score.correct)", 9), pad(fixed(score.medianError, 2), 11),
                          pad(fixed(p90, 2), 8), "(\(shorter))"].joined()
                         + (score.missed.isEmpty ? "" : "\n    missed: " + score.missed.joined(separator: ", "))
                         + (score.wrong.isEmpty ? "" : "\n    not in the truth: " + score.wrong.joined(separator: ", ")))
        }
        print(lines.joined(separator: "\n"))
    }

    private func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s + " " : s + String(repeating: " ", count: n - s.count) }
}
