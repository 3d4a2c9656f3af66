import DifferencingAnalyzer
import ExternalAnalyzer
import Foundation
import LumaAnalysis
import LumaEngine
import LumaRegression
import LumaTestSupport
import RectanglesAnalyzer
import Testing
import TrackingAnalyzer
import TrajectoryAnalyzer

/// `--best BY` for every analyzer `score` scores: trajectories by F1, recall or precision, tracks
/// by success AUC or P@20px; an analyzer whose events are only counted has no best, and a
/// measure it is not scored by is refused, naming what it is scored by.
@Suite("Sweep: the best by what the analyzer is scored by")
struct SweepBestTests {
    typealias Measure = SweepResult.Measure

    @Test("each analyzer ranks by what score gives for its events; the default is the first; a measure it lacks is refused by name")
    func measuresByAnalyzer() throws {
        let trajectory = AnalyzerDescriptor(TrajectoryAnalyzer.self), tracking = AnalyzerDescriptor(TrackingAnalyzer.self)
        let differencing = AnalyzerDescriptor(DifferencingAnalyzer.self), rectangles = AnalyzerDescriptor(RectanglesAnalyzer.self)
        #expect(Measure.available(for: trajectory) == [.f1, .recall, .precision])
        #expect(Measure.available(for: tracking) == [.successAUC, .precision20])
        #expect(Measure.available(for: differencing) == [] && Measure.available(for: rectangles) == [])
        #expect(try Measure.chosen(nil, for: trajectory) == .f1 && Measure.chosen(.recall, for: trajectory) == .recall)
        #expect(try Measure.chosen(nil, for: tracking) == .successAUC && Measure.chosen(.precision20, for: tracking) == .precision20)
        #expect(try Measure.chosen(nil, for: differencing) == nil)

        let notTracked = #expect(throws: SweepError.self) { try Measure.chosen(.successAUC, for: trajectory) }
        #expect(notTracked == .notMeasured(measure: "success-auc", analyzer: "trajectory", measures: ["f1", "recall", "precision"]))
        #expect(notTracked?.description == "best by success-auc: the trajectory analyzer is scored by f1, recall, precision; rank by one of those")
        #expect(throws: SweepError.notMeasured(measure: "f1", analyzer: "tracking", measures: ["success-auc", "precision20"])) {
            try Measure.chosen(.f1, for: tracking)
        }
        let counted = #expect(throws: SweepError.self) { try Measure.chosen(.f1, for: differencing) }
        #expect(counted?.description.contains("the differencing analyzer's events are only counted") == true, "\(String(describing: counted))")
        #expect(throws: SweepError.self) { try Measure.chosen(.precision20, for: rectangles) }
    }

    @Test("an external analyzer, whose kinds only its program knows, ranks by what its events were scored as: boxes by success AUC, paths by F1")
    func externalRanksByItsEvents() throws {
        let external = AnalyzerDescriptor(ExternalAnalyzer.self)
        let boxes = [SweepScore(events: 3, tracking: .init(frames: 10, successAUC: 0.5, precision20: 0.4, losses: 0))]
        let paths = [SweepScore(events: 3, trajectories: .init(segments: 1, found: 1, reported: 1, correct: 1, pointErrors: [1]))]
        #expect(try Measure.chosen(nil, for: external, scored: boxes) == .successAUC)
        #expect(try Measure.chosen(nil, for: external, scored: paths) == .f1)
        #expect(try Measure.chosen(nil, for: external, scored: [SweepScore(events: 3)]) == nil, "only counted: no best")
        #expect(try Measure.chosen(.precision20, for: external, scored: paths) == .precision20, "asked: as asked")
        let trajectory = AnalyzerDescriptor(TrajectoryAnalyzer.self)
        #expect(try Measure.chosen(nil, for: trajectory, scored: boxes) == .f1, "an analyzer that declares its kinds: as before")
    }

    @Test("tracking measures rank pooled tracks as printed, a tie to the earlier; none when the truth has no object tracks")
    func trackingRanks() throws {
        let g = try SweepGrid(name: "tracking", analyzer: AnalyzerDescriptor(TrackingAnalyzer.self), grid: ["tracking.lostFrames=3,5,8"])
        let k = { (auc: Double, p20: Double) in SweepScore(tracking: .init(frames: 10, successAUC: auc, precision20: p20)) }
        let result = SweepResult(grid: g, settings: g.settings, recordings: ["a.luma"], withoutTruth: [],
                                 scores: [[k(0.5, 0.9)], [k(0.7, 0.2)], [k(0.7000001, 0.9)]], passes: 1)
        #expect(result.best(by: .successAUC) == 1 && result.best(by: .precision20) == 0)
        #expect(SweepReport(result, best: .successAUC).bestLine.hasPrefix("best by success-auc: s02 (success-auc 0.700 pooled)"))
        let ballsOnly = SweepResult(grid: g, settings: g.settings, recordings: ["a.luma"], withoutTruth: [],
                                    scores: [[SweepScore(trajectories: .init(segments: 1))], [SweepScore()], [SweepScore()]], passes: 1)
        #expect(SweepReport(ballsOnly, best: .successAUC).bestLine == "best by success-auc: none (the truth has no object tracks to measure it by)")
        #expect(SweepReport(ballsOnly, best: nil).bestLine == "best: none (the tracking analyzer's events are only counted, not scored against truth)")
        #expect(SweepReport(ballsOnly, best: nil).json["best"] == .object(["by": .null, "setting": .null]))
    }

    @Test("a tracking sweep over seeds (values with commas and semicolons) names the best by success AUC, its flags quoted for the shell")
    func trackingSweep() throws {
        try withScratchFolder("sweep-best") { dir in
            let corpus = dir + "/corpus"
            try FileManager.default.createDirectory(atPath: corpus, withIntermediateDirectories: true)
            for file in ["tracking-synth.luma", "tracking-synth.truth.json"] {
                try FileManager.default.createSymbolicLink(atPath: "\(corpus)/\(file)", withDestinationPath: "\(SweepCommandTests.recordings)/\(file)")
            }
            // The recording's own seeds (all four objects), and the first two alone.
            let four = "object1=0.715176,0.611612,0.08139,0.18037;object2=0.054193,0.507279,0.09424,0.127056;"
                + "object3=0.327696,0.70482,0.088051,0.097106;object4=0.721764,0.653461,0.09197,0.226407"
            let two = "object1=0.715176,0.611612,0.08139,0.18037;object2=0.054193,0.507279,0.09424,0.127056"
            let run = try CLI.run(["sweep", corpus, "--grid", "tracking.seeds=\"\(two)\",\"\(four)\"", "-o", dir + "/out"])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("best by success-auc: s02 "), "\(run.stdout)")
            #expect(run.stdout.contains("--analyzer tracking --set 'tracking.seeds=\(four)'"), "\(run.stdout)")
            let json = try JSONParser.parse(String(decoding: try #require(FileManager.default.contents(atPath: dir + "/out/sweep.json")), as: UTF8.self))
            #expect(json["best"]?["by"]?.stringValue == "success-auc" && json["best"]?["setting"]?.stringValue == "s02")
            #expect(json["grid"]?.arrayValue?.first?["values"] == .array([.string(two), .string(four)]))
        }
    }

    @Test("a differencing sweep has no best and says why; --best f1 for it is refused before anything runs")
    func countedOnly() throws {
        try withScratchFolder("sweep-best") { dir in
            let corpus = try SweepCommandTests.corpus(in: dir)
            let refused = try CLI.run(["sweep", corpus, "--grid", "differencing.threshold=20,40", "--best", "f1", "-o", dir + "/refused"])
            #expect(refused.status == 64 && refused.stderr.contains("--best f1: the differencing analyzer's events are only counted"), "\(refused.stderr)")
            #expect(refused.stderr.split(separator: "\n").count == 1 && !FileManager.default.fileExists(atPath: dir + "/refused"))
            let run = try CLI.run(["sweep", corpus, "--grid", "differencing.threshold=20,40", "-o", dir + "/out"])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("best: none (the differencing analyzer's events are only counted, not scored against truth)"), "\(run.stdout)")
        }
    }

    @Test("sweep merge checks --best against the analyzer of its parts: a tracking measure for a trajectory sweep is refused, nothing written")
    func mergeChecksTheMeasure() throws {
        try withScratchFolder("sweep-best") { dir in
            let corpus = try SweepCommandTests.corpus(in: dir)
            let part = try CLI.run(["sweep", corpus, "--grid", "trajectory.trajectoryLength=8,15", "--shard", "0/1", "-o", dir + "/part.json"])
            #expect(part.status == 0, "\(part.stderr)")
            let refused = try CLI.run(["sweep", "merge", dir + "/part.json", "--best", "success-auc", "-o", dir + "/out"])
            #expect(refused.status == 64 && refused.stderr.contains("--best success-auc: the trajectory analyzer is scored by f1, recall, precision"),
                    "\(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/out"))
            let merged = try CLI.run(["sweep", "merge", dir + "/part.json", "--best", "precision", "-o", dir + "/out"])
            #expect(merged.status == 0 && merged.stdout.contains("best by precision: s"), "\(merged.stdout) \(merged.stderr)")
        }
    }
}
