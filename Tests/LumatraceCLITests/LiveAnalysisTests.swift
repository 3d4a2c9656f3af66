import Foundation
import Testing
import LumaTestSupport

/// `record … --analyzer … --events LOG`: analysis while recording gives, once the recording is
/// closed, the log a later replay of the recording writes, byte for byte (issue 19).
@Suite("Live analysis: the log written while recording is the replay's, byte for byte")
struct LiveAnalysisTests {
    static let recordings = PackageLayout.root.appendingPathComponent("Recordings").path

    /// A built-in analyzer's live run: the bundled recording whose frames are streamed, and the
    /// analyzer options (a golden's header as the pipeline, or flags).
    struct Case: CustomTestStringConvertible, Sendable {
        var analyzer: String
        var recording: String
        var options: [String]
        var testDescription: String { analyzer }
    }

    static let cases: [Case] = [
        Case(analyzer: "differencing", recording: "toss-real", options: ["--analyzer", "differencing"]),
        Case(analyzer: "trajectory", recording: "balls-synth", options: ["--analyzer", "trajectory"]),
        // The golden's header carries the tracking seeds.
        Case(analyzer: "tracking", recording: "tracking-synth", options: ["--pipeline", "\(recordings)/tracking-synth.events.jsonl"]),
        Case(analyzer: "rectangles", recording: "tracking-synth", options: ["--analyzer", "rectangles"]),
        Case(analyzer: "external", recording: "toss-real",
             options: ["--analyzer", "external", "--allow-external",
                       "--set", "external.command=python3 \(PackageLayout.root.path)/Plugins/BrightnessHistogram/brightness_histogram.py"]),
    ]

    /// The frames of a bundled recording as a Y4M stream, as a camera pipe would deliver them.
    static func stream(of recording: String, in dir: String) throws -> Data {
        let y4m = "\(dir)/\(recording).y4m"
        let export = try CLI.run(["export", "\(recordings)/\(recording).luma", "--format", "y4m", "-o", y4m])
        #expect(export.status == 0, "\(export.stderr)")
        return try #require(FileManager.default.contents(atPath: y4m))
    }

    @Test("for every built-in analyzer, the live log equals `replay REC --pipeline LOG` and verifies", arguments: cases)
    func liveEqualsReplay(_ c: Case) throws {
        let dir = Scratch.folder("live")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        if c.analyzer == "external" { _ = try ExternalTool.python3.require() }
        let input = try Self.stream(of: c.recording, in: dir)
        let live = try CLI.run(["record", "-", "--live", "-o", "rec.luma", "--events", "rec.events.jsonl"] + c.options, stdin: input, cwd: dir)
        #expect(live.status == 0, "\(live.stderr)")
        #expect(live.stdout.contains("analyzed "), "\(live.stdout)")
        let allow = c.analyzer == "external" ? ["--allow-external"] : []
        let replay = try CLI.run(["replay", "rec.luma", "--pipeline", "rec.events.jsonl", "-o", "replay.events.jsonl"] + allow, cwd: dir)
        #expect(replay.status == 0, "\(replay.stderr)")
        let (a, b) = (FileManager.default.contents(atPath: "\(dir)/rec.events.jsonl"), FileManager.default.contents(atPath: "\(dir)/replay.events.jsonl"))
        #expect(a != nil && a == b, "the live log differs from the replay's")
        let info = try CLI.run(["info", "rec.luma"], cwd: dir)
        #expect(info.status == 0, "the live recording is not complete: \(info.stdout)")
        let verify = try CLI.run(["verify", "rec.events.jsonl"] + allow, cwd: dir)
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        // Not vacuous: the analyzer logged something.
        let lines = try String(contentsOfFile: "\(dir)/rec.events.jsonl", encoding: .utf8).split(separator: "\n")
        #expect(lines.contains { $0.contains(#""analyzer":"\#(c.analyzer)""#) }, "no \(c.analyzer) event in the live log")
    }

    @Test("--events - streams the live log to standard output: the same bytes, the record summary on stderr")
    func eventsOnStandardOutput() throws {
        let dir = Scratch.folder("live")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = try Self.stream(of: "balls-synth", in: dir)
        let live = try CLI.run(["record", "-", "--live", "-o", "rec.luma", "--analyzer", "trajectory", "--events", "-"], stdin: input, cwd: dir)
        #expect(live.status == 0, "\(live.stderr)")
        #expect(live.stderr.contains("recorded 90 frames"), "\(live.stderr)")
        let replay = try CLI.run(["replay", "rec.luma", "--analyzer", "trajectory", "-o", "-"], cwd: dir)
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(!live.stdout.isEmpty)
        #expect(live.stdout == replay.stdout)
    }

    @Test("an analyzer that fails stops the analysis, not the recording; the log ends with the failure, as the replay's does")
    func failingAnalyzer() throws {
        let dir = Scratch.folder("live")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = try ExternalTool.python3.require()
        let script = try DestructiveOutputTests.dyingAnalyzer(in: dir)
        let input = try Self.stream(of: "toss-real", in: dir)
        let analyzers = ["--analyzer", "differencing", "--analyzer", "external", "--set", "external.command=python3 \(script)", "--allow-external"]
        let live = try CLI.run(["record", "-", "--live", "-o", "rec.luma", "--events", "rec.events.jsonl"] + analyzers, stdin: input, cwd: dir)
        #expect(live.status == 0, "\(live.stderr)")
        #expect(live.stdout.contains("recorded 60 frames"), "\(live.stdout)")
        #expect(live.stderr.contains("analyzer external failed at frame 2"), "\(live.stderr)")
        #expect(live.stderr.contains("the recording went on to the end"), "\(live.stderr)")
        let replay = try CLI.run(["replay", "rec.luma", "--pipeline", "rec.events.jsonl", "--allow-external", "-o", "replay.events.jsonl"], cwd: dir)
        #expect(replay.status == 2)
        #expect(replay.stderr.contains("analyzer external failed at frame 2"), "\(replay.stderr)")
        let (a, b) = (FileManager.default.contents(atPath: "\(dir)/rec.events.jsonl"), FileManager.default.contents(atPath: "\(dir)/replay.events.jsonl"))
        #expect(a != nil && a == b, "the live log of a failed analysis differs from the failed replay's")
    }

    @Test("SIGTERM mid-stream closes the recording and the log: the log equals the replay's and verifies")
    func stoppedBySignal() throws {
        let dir = Scratch.folder("live")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let output = "\(dir)/rec.luma", log = "\(dir)/rec.events.jsonl"
        let feed = try LiveFeed(output: output, arguments: ["--analyzer", "differencing", "--analyzer", "trajectory", "--events", log])
        while feed.framesSent < 40 { Thread.sleep(forTimeInterval: 0.01) }
        kill(feed.recorder.processIdentifier, SIGTERM)
        feed.recorder.waitUntilExit()
        feed.stop()
        #expect(feed.recorder.terminationStatus == 0, "\(feed.errorText)")
        let replay = try CLI.run(["replay", output, "--pipeline", log, "-o", "\(dir)/replay.events.jsonl"])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(FileManager.default.contents(atPath: log) == FileManager.default.contents(atPath: "\(dir)/replay.events.jsonl"))
        #expect(try CLI.run(["verify", log]).status == 0)
    }

    @Test("a recorder killed outright: after recover, the live log's events up to the last recovered frame are the replay's")
    func killedOutright() throws {
        let dir = Scratch.folder("live")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let output = "\(dir)/rec.luma", log = "\(dir)/rec.events.jsonl"
        let feed = try LiveFeed(output: output, arguments: ["--analyzer", "differencing", "--events", log, "--chunk-seconds", "0.5"])
        while feed.framesSent < 60 { Thread.sleep(forTimeInterval: 0.01) }
        kill(feed.recorder.processIdentifier, SIGKILL)
        feed.recorder.waitUntilExit()
        feed.stop()
        let recover = try CLI.run(["recover", output])
        #expect(recover.status == 0, "\(recover.stderr)")
        let replay = try CLI.run(["replay", output, "--pipeline", log, "-o", "\(dir)/replay.events.jsonl"])
        #expect(replay.status == 0, "\(replay.stderr)")
        let liveLines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        let replayLines = try String(contentsOfFile: "\(dir)/replay.events.jsonl", encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(liveLines.first == replayLines.first, "the headers differ")
        #expect(!liveLines.contains { $0.hasPrefix(#"{"end""#) }, "a killed recorder's log has no footer")
        func frame(_ line: String) -> Int? {
            guard let r = line.range(of: #"^\{"frame":[0-9]+"#, options: .regularExpression) else { return nil }
            return Int(line[r].dropFirst(9))
        }
        // Frames both logs have in full: the live log is cut where the kill found the analysis,
        // the recovered recording where its last complete chunk ends.
        let lastLive = try #require(liveLines.compactMap(frame).last)
        let lastRecovered = try #require(replayLines.compactMap(frame).last)
        let common = min(lastLive, lastRecovered)
        #expect(common >= 10, "too little was kept to compare (live \(lastLive), recovered \(lastRecovered))")
        let prefix = { (lines: [String]) in lines.filter { frame($0).map { $0 < common } ?? false } }
        #expect(prefix(liveLines) == prefix(replayLines))
        #expect(prefix(liveLines).count >= common - 1)
    }
}
