import LumaRegression
import LumaTestSupport
import Testing
import TrajectoryAnalyzer
import LumaAnalysis
import LumaEngine

/// The Pareto front of a sweep: the settings no other setting beats in recall and precision at once.
@Suite("Sweep: the Pareto front")
struct SweepFrontTests {
    @Test("a point is on the front unless another is as good in every coordinate and better in one")
    func dominance() {
        #expect(ParetoFront.members([[1, 5], [5, 1], [3, 3], [2, 2]]) == [true, true, true, false])
        #expect(ParetoFront.members([[4, 4], [1, 5], [4, 1]]) == [true, true, false])
        #expect(ParetoFront.dominates([2, 2], [2, 1]) && !ParetoFront.dominates([2, 1], [2, 2]))
    }

    @Test("ties in one coordinate: the better in the other wins; duplicates are all on the front or all off it")
    func tiesAndDuplicates() {
        #expect(ParetoFront.members([[3, 1], [3, 2]]) == [false, true])
        #expect(ParetoFront.members([[3, 3], [3, 3]]) == [true, true])
        #expect(ParetoFront.members([[1, 1], [1, 1], [2, 2]]) == [false, false, true])
        #expect(!ParetoFront.dominates([3, 3], [3, 3]))
    }

    @Test("one point is its own front; no points, no front; three coordinates work alike")
    func edges() {
        #expect(ParetoFront.members([[0, 0]]) == [true])
        #expect(ParetoFront.members([]) == [])
        #expect(ParetoFront.members([[1, 1, 1], [1, 1, 2], [2, 0, 0]]) == [false, true, true])
    }

    func result(_ scores: [SweepScore]) throws -> SweepResult {
        let g = try SweepGrid(name: "trajectory", analyzer: AnalyzerDescriptor(TrajectoryAnalyzer.self),
                              grid: ["trajectory.trajectoryLength=" + (0..<scores.count).map { "\(8 + $0)" }.joined(separator: ",")])
        return SweepResult(grid: g, settings: g.settings, recordings: ["a.luma"], withoutTruth: [], scores: scores.map { [$0] }, passes: 1)
    }

    @Test("a sweep's front is over pooled recall and precision; a setting without trajectories is on none; none at all gives no front")
    func sweepFront() throws {
        let score = { (found: Int, reported: Int, correct: Int) in
            SweepScore(trajectories: .init(segments: 4, found: found, reported: reported, correct: correct))
        }
        // recall, precision: (1, 0.5), (0.5, 1), (0.5, 0.5), (1, 0.5) again.
        let r = try result([score(4, 8, 4), score(2, 2, 2), score(2, 4, 2), score(4, 8, 4)])
        #expect(r.front == [true, true, false, true])
        let mixed = try result([SweepScore(tracking: .init(frames: 1)), score(1, 4, 1)])
        #expect(mixed.front == [false, true])
        #expect(try result([SweepScore(tracking: .init(frames: 1))]).front == nil)
    }

    @Test("the front is marked in the text (*), the CSV (1/0 on pooled rows) and the JSON (per setting and listed)")
    func marked() throws {
        let score = { (found: Int, reported: Int, correct: Int) in
            SweepScore(trajectories: .init(segments: 4, found: found, reported: reported, correct: correct))
        }
        let report = SweepReport(try result([score(4, 8, 4), score(2, 4, 2)]), best: .f1)
        let pooled = report.text.split(separator: "\n").drop { !$0.hasPrefix("pooled") }.prefix(4).map(String.init)
        #expect(pooled[1].hasSuffix("front") && pooled[2].hasSuffix("*") && !pooled[3].hasSuffix("*"), "\(pooled)")
        let csv = report.csv.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(csv[0].hasSuffix(",front") && csv[1].hasSuffix(",1") && csv[2].hasSuffix(",0") && csv[3].hasSuffix(","), "\(csv)")
        let json = report.json
        #expect(json["front"]?["settings"] == .array([.string("s01")]))
        #expect(json["settings"]?.arrayValue?.map { $0["front"] } == [.bool(true), .bool(false)])
    }
}
