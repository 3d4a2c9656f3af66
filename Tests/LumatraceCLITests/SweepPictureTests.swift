import Foundation
import LumaAnalysis
import LumaEngine
import LumaRegression
import LumaRender
import LumaTestSupport
import Testing
import TrajectoryAnalyzer

/// A sweep's pictures: `sweep.svg` (precision against recall, the front joined) and `sweep.html`.
@Suite("Sweep: the plot and the page")
struct SweepPictureTests {
    func report(_ scores: [SweepScore]) throws -> SweepReport {
        let g = try SweepGrid(name: "trajectory", analyzer: AnalyzerDescriptor(TrajectoryAnalyzer.self),
                              grid: ["trajectory.trajectoryLength=" + (0..<scores.count).map { "\(8 + $0)" }.joined(separator: ",")])
        let result = SweepResult(grid: g, settings: g.settings, recordings: ["a.luma"], withoutTruth: [], scores: scores.map { [$0] }, passes: 1)
        return SweepReport(result, best: .f1)
    }

    func score(_ found: Int, _ reported: Int, _ correct: Int) -> SweepScore {
        SweepScore(trajectories: .init(segments: 4, found: found, reported: reported, correct: correct))
    }

    @Test("the SVG labels every setting at its recall and precision and joins the front's points in order of recall")
    func plot() throws {
        // recall, precision: (1, 0.5) front, (0.5, 1) front, (0.5, 0.5) not.
        let svg = try #require(SweepPlot(try report([score(4, 8, 4), score(2, 2, 2), score(2, 4, 2)])).svg)
        for id in ["s01", "s02", "s03"] { #expect(svg.contains(">\(id)</text>"), "\(id)") }
        #expect(svg.components(separatedBy: "<circle").count - 1 == 3 + 2, "a dot per setting, then the front's again in red")
        let polylines = svg.components(separatedBy: "<polyline").dropFirst()
        #expect(polylines.count == 1)
        let joined = try #require(polylines.first?.split(separator: "\"").drop { !$0.hasSuffix("points=") }.dropFirst().first)
        #expect(joined.split(separator: " ").count == 2, "\(joined)")
        // The lower recall (0.5) comes first: its x is smaller.
        let xs = joined.split(separator: " ").map { Double($0.split(separator: ",")[0])! }
        #expect(xs[0] < xs[1])
        #expect(try svg == SweepPlot(report([score(4, 8, 4), score(2, 2, 2), score(2, 4, 2)])).svg, "the same sweep, the same bytes")
    }

    @Test("without trajectories there is no plot; the page still holds the tables and says there is no best")
    func noTrajectories() throws {
        let r = try report([SweepScore(tracking: .init(frames: 1))])
        #expect(SweepPlot(r).svg == nil)
        let html = SweepPage(r).html
        #expect(!html.contains("<svg") && html.contains("none (the truth has no ball segments"))
    }

    @Test("the page holds the plot inline, the best setting with its flags, every setting's row and the front; no script, no link")
    func page() throws {
        let r = try report([score(4, 8, 4), score(2, 2, 2), score(2, 4, 2)])
        let html = SweepPage(r).html
        let svg = try #require(SweepPlot(r).svg)
        #expect(html.hasPrefix("<!doctype html>") && html.contains(svg))
        #expect(html.contains("best by f1: s01") && html.contains("--set trajectory.trajectoryLength=8"), "\(html)")
        #expect(html.contains("the front (s01, s02)"))
        for id in ["s01", "s02", "s03"] { #expect(html.contains("\n  \(id) "), "\(id)") }
        let outside = html.replacingOccurrences(of: "xmlns=\"http://www.w3.org/2000/svg\"", with: "")
        #expect(!html.contains("<script") && !outside.contains("http:") && !outside.contains("https:") && !outside.contains(" src="))
    }

    @Test("headless Chromium renders sweep.html with the plot: a point per setting and the front's line")
    func inChromium() throws {
        let chromium = try ExternalTool.chromium.require()
        try withScratchFolder("sweep") { dir in
            let corpus = try SweepCommandTests.corpus(in: dir)
            let run = try CLI.run(["sweep", corpus] + SweepCommandTests.grid + ["-o", "\(dir)/out"])
            #expect(run.status == 0, "\(run.stderr)")
            let dom = try ProgramRun.run(chromium, ["--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(dir)/profile",
                                                    "--dump-dom", "file://\(dir)/out/sweep.html"])
            #expect(dom.stdout.contains("id=\"plot\"") && dom.stdout.contains("<polyline"), "\(dom.stdout)")
            #expect(dom.stdout.components(separatedBy: "<circle").count - 1 >= 4)
            for id in ["s01", "s02", "s03", "s04"] { #expect(dom.stdout.contains(">\(id)</text>"), "\(id)") }
        }
    }
}
