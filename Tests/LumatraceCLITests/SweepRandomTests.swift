import Foundation
import LumaAnalysis
import LumaEngine
import LumaRegression
import LumaTestSupport
import Testing
import TrajectoryAnalyzer

/// `sweep --random N --seed S`: N distinct settings drawn from the grid's lists and ranges by a
/// seeded, version-stable generator, each accepted by the analyzer's rules.
@Suite("Sweep: settings drawn at random")
struct SweepRandomTests {
    let trajectory = AnalyzerDescriptor(TrajectoryAnalyzer.self)

    func drawn(_ texts: [String], count: Int, seed: UInt64, fixed: [(key: String, value: String)] = []) throws -> SweepGrid {
        try SweepGrid(name: "trajectory", analyzer: trajectory, grid: texts, fixed: fixed, random: SweepSampling(count: count, seed: seed))
    }

    static let texts = ["trajectory.trajectoryLength=6:40", "trajectory.objectMinimumNormalizedRadius=0.002:0.02", "trajectory.minimumConfidence=0,0.5,1"]

    @Test("a list's value is one of the list; a range FROM:TO gives a number in it, whole for an integer option, in fixed decimals")
    func valuesComeFromTheAxes() throws {
        let g = try drawn(Self.texts, count: 40, seed: 7)
        #expect(g.settings.count == 40 && g.settings.first?.id == "s01" && g.settings.last?.id == "s40")
        for setting in g.settings {
            let values = setting.values.map(\.value)
            #expect(setting.values.map(\.key) == ["trajectoryLength", "objectMinimumNormalizedRadius", "minimumConfidence"])
            let length = try #require(Int(values[0]))
            #expect((6...40).contains(length))
            let radius = try #require(Double(values[1]))
            #expect(radius >= 0.002 && radius <= 0.02)
            #expect(!values[1].contains("e") && (values[1].split(separator: ".").last?.count ?? 0) <= 6, "\(values[1])")
            #expect(["0", "0.5", "1"].contains(values[2]))
        }
        #expect(Set(g.settings.map { $0.values.map(\.value) }).count == 40, "no setting is drawn twice")
        #expect(Set(g.settings.map { $0.values[0].value }).count > 10, "the integer range is spread, not stuck")
    }

    @Test("the same seed draws the same settings; another seed, other settings")
    func seeded() throws {
        let a = try drawn(Self.texts, count: 12, seed: 7), b = try drawn(Self.texts, count: 12, seed: 7)
        #expect(a.settings == b.settings)
        #expect(try drawn(Self.texts, count: 12, seed: 8).settings != a.settings)
        // Version-stable: SplitMix64 written out; the first draw of seed 7, computed by a separate Python SplitMix64.
        #expect(a.settings[0].values.map(\.value) == ["9", "0.015294", "1"])
    }

    @Test("N above the distinct settings a finite grid holds is refused with its size; every distinct setting can be drawn")
    func finiteSpace() throws {
        let texts = ["trajectory.trajectoryLength=8:10", "trajectory.minimumConfidence=0,1"]
        #expect(throws: SweepError.sampleSpaceTooSmall(count: 7, space: 6)) { try drawn(texts, count: 7, seed: 1) }
        let all = try drawn(texts, count: 6, seed: 1)
        #expect(Set(all.settings.map { $0.values.map(\.value) }) == Set(["8", "9", "10"].flatMap { l in ["0", "1"].map { [l, $0] } }))
        #expect(throws: SweepError.badSampleCount(count: 0, limit: SweepGrid.maximumSettings)) { try drawn(texts, count: 0, seed: 1) }
    }

    @Test("a drawn setting the analyzer's rules refuse is drawn again; if none is accepted, the sampling is refused with the analyzer's words")
    func analyzerRules() throws {
        // Minimum radii above the fixed maximum 0.01 are refused by the analyzer: every kept one is below it.
        let g = try drawn(["trajectory.objectMinimumNormalizedRadius=0.002:0.02"], count: 20, seed: 3, fixed: [("objectMaximumNormalizedRadius", "0.01")])
        #expect(g.settings.allSatisfy { Double($0.values[0].value)! < 0.01 })
        let refused = #expect(throws: SweepError.self) {
            try drawn(["trajectory.objectMinimumNormalizedRadius=0.05:0.09"], count: 3, seed: 3, fixed: [("objectMaximumNormalizedRadius", "0.01")])
        }
        guard case .samplingExhausted(let found, 3, _, let refusal)? = refused else { Issue.record("\(String(describing: refused))"); return }
        #expect(found == 0 && refusal?.option == "trajectory.objectMaximumNormalizedRadius", "\(String(describing: refusal))")
        #expect(refusal?.description.contains("objectMinimumNormalizedRadius") == true, "\(String(describing: refusal))")
    }

    @Test("a range FROM:TO is refused when FROM is not below TO, or not whole for an integer option")
    func badRanges() throws {
        #expect(throws: SweepError.self) { try drawn(["trajectory.trajectoryLength=10:8"], count: 1, seed: 1) }
        #expect(throws: SweepError.self) { try drawn(["trajectory.trajectoryLength=8.5:10"], count: 1, seed: 1) }
        #expect(throws: SweepError.self) { try drawn(["trajectory.objectMinimumNormalizedRadius=a:0.1"], count: 1, seed: 1) }
    }

    @Test("sweep --random N --seed S writes the same bytes twice, names the draw, and other seeds sweep other settings")
    func command() throws {
        try withScratchFolder("sweep-random") { dir in
            let corpus = try SweepCommandTests.corpus(in: dir)
            let args = ["sweep", corpus, "--grid", "trajectory.trajectoryLength=8:15", "--grid", "trajectory.objectMinimumNormalizedRadius=0.004:0.012", "--random", "3"]
            for (out, seed) in [("a", "5"), ("b", "5"), ("c", "6")] {
                let run = try CLI.run(args + ["--seed", seed, "-o", "\(dir)/\(out)", "--jobs", out == "b" ? "1" : "2"])
                #expect(run.status == 0, "\(run.stderr)")
            }
            for file in ["sweep.txt", "sweep.json", "sweep.csv"] {
                #expect(SweepCommandTests.contents("\(dir)/a/\(file)") == SweepCommandTests.contents("\(dir)/b/\(file)"), "\(file)")
            }
            let text = String(decoding: try #require(SweepCommandTests.contents("\(dir)/a/sweep.txt")), as: UTF8.self)
            #expect(text.contains("drawn at random: --random 3 --seed 5"))
            #expect(SweepCommandTests.contents("\(dir)/a/sweep.csv") != SweepCommandTests.contents("\(dir)/c/sweep.csv"))
            let lone = try CLI.run(["sweep", corpus, "--grid", "trajectory.trajectoryLength=8,9", "--seed", "1", "-o", "\(dir)/d"])
            #expect(lone.status != 0 && lone.stderr.contains("--random"), "\(lone.stderr)")
        }
    }
}
