import Foundation
import LumaAnalysis
import LumaBase
import LumaSynth
import LumaTruth
import LumaTestSupport
import Testing
@testable import TrajectoryAnalyzer

/// Quality floors that run with every `swift test`: a fixed handful of the sweep's scenes, plain
/// throws (`balls` and `mixed`) and `crowded` ones (each ball with its shadow and the hand that
/// throws it), so a change that costs throws or adds false ones fails a test, not only the
/// README's table. These are the `tracking` design's (version 2's) floors, the figures the
/// default `window` design is to reach; its own floors are in ``TrajectoryDesignTests``.
@Suite("Trajectory quality floors, tracking design (10 synthetic scenes, every run)")
struct TrajectoryQualityFloorTests {
    @Test("8 fixed scenes of plain throws: recall, precision and point error at least today's")
    func plainThrows() throws {
        let seeds = QualitySweep.uncrowdedSeeds(10)
        try #require(seeds == [1, 3, 4, 5, 6, 8, 9, 10])
        let result = try QualitySweep.run(seeds: seeds, configuration: .design(.tracking))
        // Measured 2026-11-26 (analyzer version 2) on these 8 scenes: 64 of 69 throws found, 65
        // of 65 trajectories correct, median point error 0.15 px (version 1: 68 of 69, 68 of 68,
        // 0.15 px). The disc search costs four throws here and gains 64 crowded ones in the sweep:
        // a trade made knowingly, with the issue that asks for both still open. Floors: at most
        // one more throw lost, two false, 0.2 px.
        #expect(result.total.recall >= 0.91, "\(result.table)")
        #expect(result.total.precision >= 0.97, "\(result.table)")
        #expect(result.total.medianError <= 0.2, "\(result.table)")
        TestFigures.record(result.table, named: "trajectory-floors-plain.txt")
    }

    @Test("2 fixed crowded scenes: the ball is followed, not its shadow or the hand")
    func crowdedThrows() throws {
        let seeds = (1...10 as ClosedRange<UInt64>).filter { QualitySweep.settings(seed: $0).kind == .crowded }
        try #require(seeds == [2, 7])
        let result = try QualitySweep.run(seeds: seeds, configuration: .design(.tracking))
        // Measured 2026-11-26 (version 2): 14 of 16 throws found, 14 of 14 trajectories correct,
        // median point error 0.10 px (version 1 found none of them). Floors: at most two more lost, one false.
        #expect(result.total.recall >= 0.75, "\(result.table)")
        #expect(result.total.precision >= 0.93, "\(result.table)")
        #expect(result.total.medianError <= 0.2, "\(result.table)")
        TestFigures.record(result.table, named: "trajectory-floors-crowded.txt")
    }
}

/// The quality measurements of the trajectory analyzer: the synthetic sweep and the real clips,
/// scored against their truth. They print tables rather than pass or fail, take minutes, and want a
/// release build, so they run only when asked:
///
///     scripts/trajectory-quality            # = TRAJECTORY_QUALITY=1 swift test -c release --filter TrajectoryQuality
///
@Suite("Trajectory quality (measurement; run with scripts/trajectory-quality)",
       .enabled(if: ProcessInfo.processInfo.environment["TRAJECTORY_QUALITY"] != nil, "set TRAJECTORY_QUALITY=1 (scripts/trajectory-quality)"))
struct TrajectoryQualityTests {
    @Test("synthetic sweep: recall, precision and point error over 50 fixed scenes, at least today's figures")
    func syntheticSweep() throws {
        let seeds = Array(1...50 as ClosedRange<UInt64>)
        let result = try QualitySweep.run(seeds: seeds)
        TestFigures.record(result.table, named: "sweep.txt")
        var stages = StageFigures()
        for seed in seeds where QualitySweep.settings(seed: seed).kind == .crowded {
            let scene = try SyntheticScene(kind: .crowded, settings: QualitySweep.settings(seed: seed).settings)
            let s = scene.settings
            stages = stages + (try StageFigures.measure(truth: scene.truth, width: s.width, height: s.height, frameCount: s.frameCount,
                                                        framesPerSecond: Double(s.framesPerSecond)) { i, buffer in scene.render(frame: i, into: buffer) })
        }
        TestFigures.record("stages, crowded scenes: \(stages)", named: "sweep-stages.txt")
        // Floors: the figures measured 2026-11-26 (analyzer version 2, README table) less a small
        // margin, so a regression fails here, not only in a table. Plain throws (`balls` and
        // `mixed`, 40 scenes): recall 0.924, precision 0.997, median 0.16 px (version 1: 0.943,
        // 0.995, 0.17). `crowded` (10 scenes): 0.859, 0.958, 0.12 px (version 1: 0.038, 0.041).
        // The floors are the tracking design's; the window design's are in TrajectoryDesignTests.
        if TrajectoryConfiguration.measured.design == .tracking {
            #expect(result.uncrowded.recall >= 0.91, "\(result.uncrowded)")
            #expect(result.uncrowded.precision >= 0.98, "\(result.uncrowded)")
            #expect(result.uncrowded.medianError <= 0.25, "\(result.uncrowded)")
            #expect(result.crowded.recall >= 0.83, "\(result.crowded)")
            #expect(result.crowded.precision >= 0.93, "\(result.crowded)")
            #expect(result.crowded.medianError <= 0.2, "\(result.crowded)")
        }
    }

    @Test("real clips: throws in the truth, trajectories found, matched, point error")
    func realClips() throws {
        let truthFolder = RealClip.truthFolder
        let data = try RealClip.corpus()
        // Throws of at least `trajectoryLength` (10) frames are counted, as in the sweep: shorter ones
        // (a drop off the rim, a short bounce pass) cannot be reported at the default settings.
        var lines = ["clip                         frames  throws  found  trajectories  correct  median px  p90 px  (shorter throws)"]
        var stageLines = ["stages (the detector's, against the truth):"]
        let names = try FileManager.default.contentsOfDirectory(atPath: truthFolder).filter { $0.hasSuffix(".truth.json") }.sorted()
        for name in names {
            let clip = String(name.dropLast(".truth.json".count))
            let truth = try JSONDecoder().decode(GroundTruth.self, from: Data(contentsOf: URL(fileURLWithPath: truthFolder + "/" + name)))
            let run = try RealClip.run(folder: data + "/" + clip)
            let stages = try RealClip.decode(folder: data + "/" + clip) { c, render in
                try CandidateFigures.measure(truth: truth, width: c.width, height: c.height, frameCount: c.frameCount, render: render)
            }
            stageLines.append("\(clip): \(stages)")
            let score = TruthMatcher(minimumVisible: 10).score(run.ends, truth: truth)
            let shorter = truth.ballSegments.filter { $0.points.count < 10 }.count
            let sorted = score.errors.sorted()
            let p90 = sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, sorted.count * 9 / 10)]
            lines.append([pad(clip, 29), pad("\(truth.frames)", 8), pad("\(score.segments)", 8), pad("\(score.found)", 7),
                          pad("\(score.trajectories)", 14), pad("\(score.correct)", 9), pad(fixed(score.medianError, 2), 11),
                          pad(fixed(p90, 2), 8), "(\(shorter))"].joined()
                         + "\n    \(score)"
                         + (score.missed.isEmpty ? "" : "\n    missed: " + score.missed.joined(separator: ", "))
                         + (score.wrong.isEmpty ? "" : "\n    not in the truth: " + score.wrong.joined(separator: ", ")))
        }
        TestFigures.record(lines.joined(separator: "\n"), named: "real-clips.txt")
        TestFigures.record(stageLines.joined(separator: "\n"), named: "real-clips-stages.txt")
    }

    private func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s + " " : s + String(repeating: " ", count: n - s.count) }
}

/// The candidate stage alone on the real clips: recall of in-flight balls among each frame's best
/// candidates (`scripts/trajectory-quality`).
@Suite("Trajectory candidates on real clips (measurement; run with scripts/trajectory-quality)",
       .enabled(if: ProcessInfo.processInfo.environment["TRAJECTORY_QUALITY"] != nil, "set TRAJECTORY_QUALITY=1 (scripts/trajectory-quality)"))
struct TrajectoryCandidateTests {
    @Test("real clips: recall at 1, 5 and 10 candidates per frame")
    func realClips() throws {
        let data = try RealClip.corpus()
        let names = try FileManager.default.contentsOfDirectory(atPath: RealClip.truthFolder).filter { $0.hasSuffix(".truth.json") }.sorted()
        for name in names {
            let clip = String(name.dropLast(".truth.json".count))
            let truth = try JSONDecoder().decode(GroundTruth.self, from: Data(contentsOf: URL(fileURLWithPath: RealClip.truthFolder + "/" + name)))
            let configuration = TrajectoryConfiguration()
            let figures = try RealClip.decode(folder: data + "/" + clip) { c, render in
                try CandidateFigures.measure(truth: truth, width: c.width, height: c.height, frameCount: c.frameCount,
                                             configuration: configuration, render: render)
            }
            TestFigures.record("\(clip): \(figures)", named: "candidates-\(clip).txt")
        }
    }
}

/// How fast the analyzer runs on real clips with people moving, frames in memory, one thread: a
/// probe for development (the benchmark, `Benchmarks/run trajectory`, is the measurement).
@Suite("Trajectory speed probe (run with TRAJECTORY_SPEED=1)",
       .enabled(if: ProcessInfo.processInfo.environment["TRAJECTORY_SPEED"] != nil, "set TRAJECTORY_SPEED=1"))
struct TrajectorySpeedProbe {
    @Test("court and juggling at 720p and 1080p: frames per second of analyze")
    func realClips() throws {
        let data = try RealClip.corpus()
        for (clip, sizes) in [("basketball-court-shots", [(1280, 720), (1920, 1080)]), ("juggling-3ball-cascade", [(720, 1280), (1080, 1920)])] {
            for size in sizes {
                let (frames, count, fps) = try RealClip.decode(folder: data + "/" + clip, scaledTo: size) { c, render in
                    var all = [UInt8](repeating: 0, count: c.width * c.height * c.frameCount)
                    for i in 0..<c.frameCount {
                        try all.withUnsafeMutableBufferPointer { try render(i, UnsafeMutableBufferPointer(rebasing: $0[(i * c.width * c.height)..<((i + 1) * c.width * c.height)])) }
                    }
                    return (all, c.frameCount, c.framesPerSecond)
                }
                var best = Double.infinity
                for _ in 0..<3 {
                    let stream = StreamInfo(width: size.0, height: size.1, timescale: 1000, nominalFrameRate: fps, frameCount: count, identity: "probe")
                    var analyzer = try TrajectoryAnalyzer(configuration: .measured, context: AnalyzerContext(stream: stream))
                    let n = size.0 * size.1
                    let start = ContinuousClock.now
                    let loops = Int(ProcessInfo.processInfo.environment["TRAJECTORY_SPEED_LOOPS"] ?? "1") ?? 1
                    try frames.withUnsafeBufferPointer { all in
                        for k in 0..<(count * loops) {
                            let i = k % count
                            var sink = EventSink()
                            let frame = Frame(index: k, timestamp: Timestamp(ticks: Int64((Double(k) * 1000 / fps).rounded()), timescale: 1000),
                                              width: size.0, height: size.1, pixels: UnsafeBufferPointer(rebasing: all[(i * n)..<((i + 1) * n)]))
                            try analyzer.analyze(frame, into: &sink)
                        }
                        var sink = EventSink()
                        try analyzer.finish(into: &sink)
                    }
                    let elapsed = ContinuousClock.now - start
                    best = min(best, (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18) / Double(loops))
                }
                TestFigures.record("speed \(clip) \(size.0)x\(size.1): \(count) frames, \(fixed(Double(count) / best, 0)) frames/s (best of 3)",
                               named: "speed-\(clip)-\(size.0)x\(size.1).txt")
            }
        }
    }
}

@Suite("Trajectory candidates on synthetic scenes (measurement)",
       .enabled(if: ProcessInfo.processInfo.environment["TRAJECTORY_QUALITY"] != nil, "set TRAJECTORY_QUALITY=1 (scripts/trajectory-quality)"))
struct TrajectorySyntheticCandidateTests {
    @Test("synthetic scenes: recall at 1, 5 and 10 candidates per frame")
    func scenes() throws {
        for seed in 1...10 as ClosedRange<UInt64> {
            let (kind, settings) = QualitySweep.settings(seed: seed)
            let scene = try SyntheticScene(kind: kind, settings: settings)
            let figures = try CandidateFigures.measure(truth: scene.truth, width: settings.width, height: settings.height,
                                                       frameCount: settings.frameCount) { i, buffer in scene.render(frame: i, into: buffer) }
            TestFigures.record("seed \(seed) \(kind) \(settings.width)x\(settings.height) noise \(settings.noise): \(figures)", named: "candidates-seed-\(seed).txt")
        }
    }
}

/// Where the window design loses each throw of one shared clip (`TRAJECTORY_FLIGHTS=juggling-3ball-cascade
/// swift test --filter FlightDiagnosis`): the candidates, the flights that cover it, their confidence.
@Suite("Trajectory flights against truth (diagnosis; TRAJECTORY_FLIGHTS=clip)",
       .enabled(if: ProcessInfo.processInfo.environment["TRAJECTORY_FLIGHTS"] != nil, "set TRAJECTORY_FLIGHTS to a shared clip's name"))
struct FlightDiagnosis {
    @Test("each throw: candidates, the flights on it, their confidence")
    func clip() throws {
        let clip = ProcessInfo.processInfo.environment["TRAJECTORY_FLIGHTS"]!
        if clip.hasPrefix("seed:"), let seed = UInt64(clip.dropFirst(5)) {
            let (kind, settings) = QualitySweep.settings(seed: seed)
            let scene = try SyntheticScene(kind: kind, settings: settings)
            let figures = try FlightFigures.measure(truth: scene.truth, width: settings.width, height: settings.height, frameCount: settings.frameCount,
                                                    framesPerSecond: Double(settings.framesPerSecond)) { i, buffer in scene.render(frame: i, into: buffer) }
            TestFigures.record("\(figures)", named: "flights-\(clip).txt")
            return
        }
        let data = try RealClip.corpus()
        let truth = try JSONDecoder().decode(GroundTruth.self, from: Data(contentsOf: URL(fileURLWithPath: RealClip.truthFolder + "/" + clip + ".truth.json")))
        let figures = try RealClip.decode(folder: data + "/" + clip) { c, render in
            try FlightFigures.measure(truth: truth, width: c.width, height: c.height, frameCount: c.frameCount, framesPerSecond: c.framesPerSecond, render: render)
        }
        TestFigures.record("\(figures)", named: "flights-\(clip).txt")
    }
}
