import Foundation
import LumaAnalysis
import LumaEngine
import LumaFormat
import LumaRegression
import LumaRender
import LumaTestSupport
import Testing
import TrajectoryAnalyzer

/// `sweep --timings`: each setting's own analysis time per frame, a second front (F1 against
/// time), and outputs unchanged without it.
@Suite("Sweep: --timings")
struct SweepTimingsTests {
    let trajectory = AnalyzerDescriptor(TrajectoryAnalyzer.self)

    @Test("an instance clock charges each instance its own analyzed frames and time, and the log is the same bytes with it or without")
    func instanceClock() throws {
        let registry = AnalyzerRegistry([trajectory])
        let every = try AnalyzerSetup.resolve(trajectory, instance: "every", overrides: [])
        let spaced = try AnalyzerSetup.resolve(trajectory, instance: "spaced", overrides: [], spacing: 0.1)
        let reader = try RecordingReader(path: SweepCommandTests.recordings + "/toss-real.luma")
        for jobs in [1, 2] {
            var options = ReplayOptions(jobs: jobs)
            let clock = InstanceClock()
            options.instanceClock = clock
            let timed = try Replay.runInMemory(reader, setups: [every, spaced], registry: registry, options: options)
            let plain = try Replay.runInMemory(reader, setups: [every, spaced], registry: registry, options: ReplayOptions(jobs: jobs))
            #expect(timed.headerJSON == plain.headerJSON && timed.events.map(\.json.serialized) == plain.events.map(\.json.serialized))
            let a = try #require(clock.reading("every")), b = try #require(clock.reading("spaced"))
            #expect(a.frames == reader.frameCount, "every frame analyzed")
            #expect(b.frames > 0 && b.frames < a.frames, "a spaced instance analyzes fewer frames: \(b.frames) of \(a.frames)")
            #expect(a.seconds > 0 && b.seconds > 0 && a.millisecondsPerFrame == a.seconds * 1000 / Double(a.frames))
            #expect(clock.reading("other") == nil)
        }
    }

    func result(f1s: [(found: Int, correct: Int)], milliseconds: [Double]) throws -> SweepResult {
        let g = try SweepGrid(name: "trajectory", analyzer: trajectory,
                              grid: ["trajectory.trajectoryLength=" + (0..<f1s.count).map { "\(8 + $0)" }.joined(separator: ",")])
        let scores = f1s.map { [SweepScore(trajectories: .init(segments: 4, found: $0.found, reported: 4, correct: $0.correct))] }
        // 100 frames each: the time is ms × 100 / 1000 seconds.
        let timings = milliseconds.map { [InstanceClock.Reading(seconds: $0 / 10, frames: 100)] }
        return SweepResult(grid: g, settings: g.settings, recordings: ["a.luma"], withoutTruth: [], scores: scores, passes: 1, timings: timings)
    }

    @Test("the time front: no other setting has as good an F1 in as little time and is better in one; none without timings")
    func timeFront() throws {
        // F1 1, 0.75, 0.5, 0.75 at 5, 2, 3, 2 ms per frame: s01 (best F1) and s02, s04 (fastest at their F1) are on it; s03 is beaten by s02.
        let r = try result(f1s: [(4, 4), (3, 3), (2, 2), (3, 3)], milliseconds: [5, 2, 3, 2])
        #expect(r.timeFront == [true, true, false, true])
        #expect(r.pooledTimings?.map(\.millisecondsPerFrame) == [5, 2, 3, 2])
        var untimed = r
        untimed.timings = nil
        #expect(untimed.timeFront == nil && untimed.pooledTimings == nil)
    }

    @Test("a result joined from units (a resumed or merged sweep) has times only when every unit was timed")
    func timesFromUnits() throws {
        let g = try SweepGrid(name: "trajectory", analyzer: trajectory, grid: ["trajectory.trajectoryLength=8,9"])
        let score = SweepScore(trajectories: .init(segments: 4, found: 2, reported: 4, correct: 2))
        let reading = { (seconds: Double) in InstanceClock.Reading(seconds: seconds, frames: 100) }
        let timed = [SweepUnitScores(recording: 0, pass: 0, scores: [score, score], timings: [reading(0.5), reading(0.25)]),
                     SweepUnitScores(recording: 1, pass: 0, scores: [score, score], timings: [reading(0.25), reading(0.25)])]
        let joined = SweepResult(grid: g, recordings: ["a.luma", "b.luma"], withoutTruth: [], passes: [0..<2], units: timed.reversed())
        #expect(joined.pooledTimings?.map(\.millisecondsPerFrame) == [3.75, 2.5])
        var untimed = timed
        untimed[1].timings = nil
        #expect(SweepResult(grid: g, recordings: ["a.luma", "b.luma"], withoutTruth: [], passes: [0..<2], units: untimed).timings == nil)
    }

    @Test("with timings, ms/frame and the time front are in the text, the CSV and the JSON; without, none of them")
    func reported() throws {
        let r = try result(f1s: [(4, 4), (2, 2)], milliseconds: [5, 2.5])
        let report = SweepReport(r, best: .f1)
        let pooled = report.text.split(separator: "\n").drop { !$0.hasPrefix("pooled") }.prefix(3).map(String.init)
        #expect(pooled[1].contains("ms/frame") && pooled[1].hasSuffix("time front"), "\(pooled)")
        #expect(pooled[2].contains("5.000") && pooled[2].hasSuffix("*"), "\(pooled)")
        let csv = report.csv.split(separator: "\n").map(String.init)
        #expect(csv[0].hasSuffix(",events,ms_per_frame,front,time_front"), "\(csv[0])")
        #expect(csv[2].hasSuffix(",2.500000,0,1"), "\(csv[2])")
        #expect(csv[3].hasSuffix(",5.000000,,"), "a recording's row: its time, no front marks: \(csv[3])")
        let json = report.json
        #expect(json["timeFront"]?["settings"] == .array([.string("s01"), .string("s02")]))
        #expect(json["settings"]?.arrayValue?[1]["pooled"]?["time"]?["millisecondsPerFrame"]?.doubleValue == 2.5)
        #expect(json["settings"]?.arrayValue?[1]["recordings"]?.arrayValue?[0]["time"]?["frames"]?.intValue == 100)

        var untimed = r
        untimed.timings = nil
        let plain = SweepReport(untimed, best: .f1)
        #expect(!plain.text.contains("ms/frame") && !plain.text.contains("time front"))
        #expect(!plain.csv.contains("ms_per_frame") && !plain.csv.contains("time_front"))
        #expect(json["timings"] != nil && plain.json["timings"] == nil && plain.json["timeFront"] == nil)
        #expect(!plain.json.serialized.contains("\"time\""))
    }

    @Test("with timings the plot has a second panel, F1 against time with its front; without, one panel")
    func plot() throws {
        let r = try result(f1s: [(4, 4), (2, 2), (1, 1)], milliseconds: [5, 2.5, 4])
        let two = try #require(SweepPlot(SweepReport(r, best: .f1)).svg)
        #expect(two.components(separatedBy: "<svg").count - 1 == 3, "an outer picture holding two panels")
        #expect(two.contains("<svg x=\"560\"") && two.contains("F1 against analysis time") && two.contains("ms per frame"))
        #expect(two.components(separatedBy: "<polyline").count - 1 == 2, "a front line in each panel")
        var untimed = r
        untimed.timings = nil
        let one = try #require(SweepPlot(SweepReport(untimed, best: .f1)).svg)
        #expect(one.components(separatedBy: "<svg").count - 1 == 1 && !one.contains("analysis time"))
        let page = SweepPage(SweepReport(r, best: .f1)).html
        #expect(page.contains(two) && page.contains("the time front (s01, s02)"), "\(page)")
    }

    @Test("sweep --timings: the same scores as without, every setting timed over every frame, and the time columns in the files")
    func command() throws {
        try withScratchFolder("sweep-timings") { dir in
            let corpus = try SweepCommandTests.corpus(in: dir)
            let timed = try CLI.run(["sweep", corpus] + SweepCommandTests.grid + ["--timings", "-o", dir + "/timed"])
            #expect(timed.status == 0, "\(timed.stderr)")
            let plain = try CLI.run(["sweep", corpus] + SweepCommandTests.grid + ["-o", dir + "/plain"])
            #expect(plain.status == 0, "\(plain.stderr)")
            let read = { (name: String) throws -> JSONValue in
                try JSONParser.parse(String(decoding: try #require(SweepCommandTests.contents("\(dir)/\(name)/sweep.json")), as: UTF8.self))
            }
            let (t, p) = (try read("timed"), try read("plain"))
            let frames = try SweepCommandTests.names.reduce(0) { $0 + (try RecordingReader(path: "\(corpus)/\($1).luma")).frameCount }
            for (a, b) in zip(try #require(t["settings"]?.arrayValue), try #require(p["settings"]?.arrayValue)) {
                #expect(a["pooled"]?["trajectories"] == b["pooled"]?["trajectories"] && a["front"] == b["front"])
                #expect(a["pooled"]?["time"]?["frames"]?.intValue == frames)
                #expect((a["pooled"]?["time"]?["millisecondsPerFrame"]?.doubleValue ?? 0) > 0)
                #expect(b["pooled"]?["time"] == nil)
            }
            let text = String(decoding: try #require(SweepCommandTests.contents(dir + "/timed/sweep.txt")), as: UTF8.self)
            #expect(text.contains("ms/frame") && text.contains("time front"))
            let plainText = String(decoding: try #require(SweepCommandTests.contents(dir + "/plain/sweep.txt")), as: UTF8.self)
            #expect(!plainText.contains("ms/frame"))
        }
    }
}
