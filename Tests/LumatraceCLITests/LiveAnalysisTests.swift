import Foundation
import LumaAnalysis
import LumaEngine
import LumaFormat
import LumaRecording
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
                       "--set", "external.command=\(ProjectPython.path) \(PackageLayout.root.path)/Plugins/BrightnessHistogram/brightness_histogram.py"]),
    ]

    /// The frames of a bundled recording as a Y4M stream, as a camera pipe would deliver them
    /// (all at once, so they are stamped from the stream's rate, `--timestamps rate`, not as they arrive).
    static func stream(of recording: String, in dir: String) throws -> Data {
        let y4m = "\(dir)/\(recording).y4m"
        let export = try CLI.run(["export", "\(recordings)/\(recording).luma", "--format", "y4m", "-o", y4m])
        #expect(export.status == 0, "\(export.stderr)")
        return try #require(FileManager.default.contents(atPath: y4m))
    }

    @Test("for every built-in analyzer, the live log equals `replay REC --pipeline LOG` and verifies", arguments: cases)
    func liveEqualsReplay(_ c: Case) throws {
        try withScratchFolder("live") { dir in
            if c.analyzer == "external" { _ = try ProjectPython.require() }
            let input = try Self.stream(of: c.recording, in: dir)
            let live = try CLI.run(["record", "-", "--live", "--timestamps", "rate", "-o", "rec.luma", "--events", "rec.events.jsonl"] + c.options, stdin: input, cwd: dir)
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
    }

    @Test("a setup validated where it was made is not validated again when live analysis takes it")
    func validatedOnce() throws {
        let registry = AnalyzerRegistry([AnalyzerDescriptor(LevelProbe.self)])
        try withScratchFolder("live") { dir in
            let counts = try ConfigurationCounts.counting {
                let setup = try AnalyzerSetup.resolve(registry.descriptor(named: "level"), overrides: [("level", "7")])
                _ = try LiveAnalysis(setups: [setup], registry: registry, logPath: "\(dir)/rec.events.jsonl", recordingPath: "\(dir)/rec.luma",
                                     options: LiveAnalysis.Options())
            }
            #expect(counts == (decodes: 1, validations: 1))
        }
    }

    @Test("--events - streams the live log to standard output: the same bytes, the record summary on stderr")
    func eventsOnStandardOutput() throws {
        try withScratchFolder("live") { dir in
            let input = try Self.stream(of: "balls-synth", in: dir)
            let live = try CLI.run(["record", "-", "--live", "--timestamps", "rate", "-o", "rec.luma", "--analyzer", "trajectory", "--events", "-"], stdin: input, cwd: dir)
            #expect(live.status == 0, "\(live.stderr)")
            #expect(live.stderr.contains("recorded 90 frames"), "\(live.stderr)")
            let replay = try CLI.run(["replay", "rec.luma", "--analyzer", "trajectory", "-o", "-"], cwd: dir)
            #expect(replay.status == 0, "\(replay.stderr)")
            #expect(!live.stdout.isEmpty)
            #expect(live.stdout == replay.stdout)
        }
    }

    @Test("an analyzer that fails stops the analysis, not the recording; the log ends with the failure, as the replay's does")
    func failingAnalyzer() throws {
        try withScratchFolder("live") { dir in
            _ = try ExternalTool.python3.require()
            let script = try DestructiveOutputTests.dyingAnalyzer(in: dir)
            let input = try Self.stream(of: "toss-real", in: dir)
            let analyzers = ["--analyzer", "differencing", "--analyzer", "external", "--set", "external.command=python3 \(script)", "--allow-external"]
            let live = try CLI.run(["record", "-", "--live", "--timestamps", "rate", "-o", "rec.luma", "--events", "rec.events.jsonl"] + analyzers, stdin: input, cwd: dir)
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
    }

    @Test("SIGTERM mid-stream closes the recording and the log: the log equals the replay's and verifies")
    func stoppedBySignal() throws {
        try withScratchFolder("live") { dir in
            let output = "\(dir)/rec.luma", log = "\(dir)/rec.events.jsonl"
            let feed = try LiveFeed(output: output, arguments: ["--analyzer", "differencing", "--analyzer", "trajectory", "--events", log])
            let reached = feed.reached(40)
            feed.recorder.signal(SIGTERM)
            let (result, _) = try feed.finish()
            try #require(reached, "the recorder ended before taking 40 frames: \(result)")
            #expect(result.status == 0, "\(result)")
            let replay = try CLI.run(["replay", output, "--pipeline", log, "-o", "\(dir)/replay.events.jsonl"])
            #expect(replay.status == 0, "\(replay.stderr)")
            #expect(FileManager.default.contents(atPath: log) == FileManager.default.contents(atPath: "\(dir)/replay.events.jsonl"))
            #expect(try CLI.run(["verify", log]).status == 0)
        }
    }

    @Test("a recorder killed outright: after recover, the live log's events up to the last recovered frame are the replay's")
    func killedOutright() throws {
        try withScratchFolder("live") { dir in
            let output = "\(dir)/rec.luma", log = "\(dir)/rec.events.jsonl"
            let feed = try LiveFeed(output: output, arguments: ["--analyzer", "differencing", "--events", log, "--chunk-seconds", "0.5"])
            // Killed once it has taken 60 frames and both the recording (two complete chunks) and
            // the live log (frame 29) have got that far: there is something to compare, however far
            // behind a busy machine leaves the writer and the analysis.
            let reached = feed.reached(60) && AwaitedEvent.wait(while: { feed.recorder.isRunning }) {
                ((try? RecordingReader(path: output))?.frameCount ?? 0) >= 30 && (Self.lastFrame(inLog: log) ?? 0) >= 29
            }
            feed.recorder.signal(SIGKILL)
            let (result, _) = try feed.finish()
            try #require(reached, "the recorder ended before it had recorded and analyzed 30 of 60 frames: \(result)")
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

    /// An external analyzer that takes `seconds` per frame and logs every frame's sum of pixels
    /// (so a frame read back wrong shows in the log).
    static func slowAnalyzer(in dir: String, seconds: Double) throws -> String {
        let script = dir + "/slow.py"
        try Data("""
            import sys, json, struct, time
            def read(n):
                data = b""
                while len(data) < n:
                    more = sys.stdin.buffer.read(n - len(data))
                    if not more:
                        sys.exit(0)
                    data += more
                return data
            sys.stdin.buffer.readline()
            print(json.dumps({"ready": True}), flush=True)
            while True:
                magic, w, h, _, index, _, _ = struct.unpack("<4sIIIqqq", read(40))
                if magic == b"LTEN":
                    print(json.dumps({"done": "end"}), flush=True)
                    break
                pixels = read(w * h)
                time.sleep(\(seconds))
                print(json.dumps({"kind": "sum", "data": {"sum": sum(pixels[::97])}}))
                print(json.dumps({"done": index}), flush=True)

            """.utf8).write(to: URL(fileURLWithPath: script))
        return script
    }

    @Test("an analysis slower than the camera reads frames back from the recording: no frame waits or drops, memory stays bounded, the log is the replay's")
    func slowAnalysisReadsBack() throws {
        try withScratchFolder("live") { dir in
            _ = try ExternalTool.python3.require()
            _ = try ExternalTool.ffmpeg.require()
            let script = try Self.slowAnalyzer(in: dir, seconds: 0.01)
            // 960 frames of 720p (885 MB of luma) from ffmpeg as fast as it makes them, to an analyzer
            // that takes at least 10 ms a frame, with room for 2 frames in the queue.
            let run = try MeasuredRun.run(["record", "testsrc2=size=1280x720:rate=60:duration=16", "--input-format", "lavfi",
                                           "-o", "\(dir)/rec.luma", "--events", "\(dir)/rec.events.jsonl", "--queue-frames", "2",
                                           "--analyzer", "differencing", "--analyzer", "external", "--allow-external",
                                           "--set", "external.command=python3 \(script)"])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("recorded 960 frames"), "\(run.stdout)")
            #expect(run.stdout.contains("analyzed 960 frames while recording"), "\(run.stdout)")
            let readBack = try #require(run.stderr.firstMatch(of: /read (\d+) frames back from the recording/), "\(run.stderr)")
            #expect(Int(readBack.1)! > 100, "\(run.stderr)")
            // Holding every frame would take 885 MB. What is held does not grow with the recording: the
            // recorder's chunk (format 3 keeps its low nibbles raw until the chunk is compressed, half a
            // frame each), the queue, and the chunk read back with its decompressed payload. Measured
            // (release, differencing alone): 249 MB peak for 8 s, 259 MB for 16 s (format 2: 161, 160).
            #expect(run.maxResidentMiB < 400, "peak \(run.maxResidentMiB) MiB")
            let replay = try CLI.run(["replay", "rec.luma", "--pipeline", "rec.events.jsonl", "--allow-external", "-o", "replay.events.jsonl"], cwd: dir)
            #expect(replay.status == 0, "\(replay.stderr)")
            let (a, b) = (FileManager.default.contents(atPath: "\(dir)/rec.events.jsonl"), FileManager.default.contents(atPath: "\(dir)/replay.events.jsonl"))
            #expect(a != nil && a == b, "the log of an analysis that read frames back differs from the replay's")
            let sums = try String(contentsOfFile: "\(dir)/rec.events.jsonl", encoding: .utf8).split(separator: "\n").filter { $0.contains(#""kind":"sum""#) }
            #expect(sums.count == 960)
        }
    }

    @Test("Ctrl-C ends the recording, a second Ctrl-C stops the analysis catching up: a complete recording, a log that is a prefix of the replay's")
    func interruptedTwice() throws {
        try withScratchFolder("live") { dir in
            _ = try ExternalTool.python3.require()
            let script = try Self.slowAnalyzer(in: dir, seconds: 0.05)
            let output = "\(dir)/rec.luma", log = "\(dir)/rec.events.jsonl"
            let feed = try LiveFeed(output: output, arguments: ["--analyzer", "external", "--allow-external", "--set", "external.command=python3 \(script)",
                                                               "--events", log, "--queue-frames", "4", "--chunk-seconds", "0.2"])
            let reached = feed.reached(100)
            feed.recorder.signal(SIGINT)
            // The recording closes at once (its index written: the first interrupt was handled); the
            // analysis, 50 ms a frame, is seconds behind. The second interrupt comes then, not after a
            // time: sooner, it could merge with the first; later, the analysis could have caught up.
            let closed = AwaitedEvent.wait(while: { feed.recorder.isRunning }) { (try? RecordingReader(path: output))?.hasIndex == true }
            feed.recorder.signal(SIGINT)
            // That it stopped the analysis shows in what follows: the status and message of a second
            // interrupt, and a log shorter than the replay's. The patience only guards against a hang.
            let (result, _) = try feed.finish(patience: 60)
            try #require(reached, "the recorder ended before taking 100 frames: \(result)")
            #expect(closed, "the recorder ended before its recording was closed")
            let errors = result.stderr
            #expect(result.status == 2, "\(result)")
            #expect(errors.contains("stopped by a second interrupt"), "\(errors)")
            let info = try CLI.run(["info", output])
            #expect(info.status == 0, "the recording is not complete: \(info.stdout)")
            let replay = try CLI.run(["replay", output, "--pipeline", log, "--allow-external", "-o", "\(dir)/replay.events.jsonl"])
            #expect(replay.status == 0, "\(replay.stderr)")
            let liveLines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            let replayLines = try String(contentsOfFile: "\(dir)/replay.events.jsonl", encoding: .utf8).split(separator: "\n")
            #expect(liveLines.last == "", "the log does not end with a whole line")
            let live = liveLines.dropLast()
            #expect(live.count > 1 && live.count < replayLines.count - 1, "live \(live.count) lines, replay \(replayLines.count)")
            #expect(replayLines.starts(with: live), "the stopped log is not a prefix of the replay's")
            #expect(!FileManager.default.fileExists(atPath: "\(dir)/.rec.events.jsonl.lock"), "the log's lock was left behind")
        }
    }

    /// Frame number of an event line, `nil` for the header and footer.
    static func frame(of line: some StringProtocol) -> Int? {
        guard let r = line.range(of: #"^\{"frame":[0-9]+"#, options: .regularExpression) else { return nil }
        return Int(line[r].dropFirst(9))
    }

    /// The frame of the last whole event line of the log at `path` (a live log, being written).
    static func lastFrame(inLog path: String) -> Int? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().compactMap { frame(of: $0) }.last
    }

    @Test("a full disk under the recording stops it with a clear error; after recover the log's events are the replay's up to the last recovered frame",
          .enabled(if: SmallDisk.canMount, "mounting a small tmpfs needs root"))
    func fullDiskUnderRecording() throws {
        try SmallDisk.with(kilobytes: 1024) { disk in try withScratchFolder("live") { dir in
            let output = "\(disk.path)/full.luma", log = "\(dir)/full.events.jsonl"
            let feed = try LiveFeed(output: output, arguments: ["--chunk-seconds", "0.2", "--analyzer", "differencing", "--events", log],
                                    frameInterval: 0.001)
            let (result, _) = try feed.finish()
            let message = result.stderr
            #expect(result.status == 2, "\(result)")
            // A note that the analysis fell behind may come first (on a loaded machine); the error is its own line.
            #expect(message.split(separator: "\n").contains { $0.hasPrefix("lumatrace: error: \(output): write failed: No space left on device") },
                    "\(message)")
            let recovered = "\(dir)/recovered.luma"
            #expect(try CLI.run(["recover", output, "-o", recovered]).status == 0)
            let replay = try CLI.run(["replay", recovered, "--analyzer", "differencing", "-o", "\(dir)/replay.events.jsonl"])
            #expect(replay.status == 0, "\(replay.stderr)")
            let liveLines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
            let replayLines = try String(contentsOfFile: "\(dir)/replay.events.jsonl", encoding: .utf8).split(separator: "\n")
            #expect(!liveLines.contains { $0.hasPrefix(#"{"end""#) }, "the log of an unfinished recording has no footer")
            let common = min(liveLines.compactMap(Self.frame).last ?? 0, replayLines.compactMap(Self.frame).last ?? 0)
            #expect(common >= 3, "too little kept to compare")
            let prefix = { (lines: [Substring]) in lines.filter { Self.frame(of: $0).map { $0 < common } ?? false } }
            #expect(prefix(liveLines) == prefix(replayLines))
        } }
    }

    @Test("a full disk under the log stops the analysis with a clear error; the recording goes on to the end, complete",
          .enabled(if: SmallDisk.canMount, "mounting a small tmpfs needs root"))
    func fullDiskUnderLog() throws {
        try SmallDisk.with(kilobytes: 64) { disk in try withScratchFolder("live") { dir in
            let output = "\(dir)/rec.luma", log = "\(disk.path)/rec.events.jsonl"
            // The slow analyzer logs an event for every frame: 64 KiB hold a few hundred.
            _ = try ExternalTool.python3.require()
            let script = try Self.slowAnalyzer(in: dir, seconds: 0)
            let feed = try LiveFeed(output: output, arguments: ["--analyzer", "external", "--allow-external", "--set", "external.command=python3 \(script)",
                                                               "--events", log])
            _ = feed.reached(1500)
            feed.recorder.signal(SIGTERM)
            let (result, _) = try feed.finish()
            let message = result.stderr
            #expect(result.status == 2, "\(result)")
            #expect(message.contains("\(log)"), "\(message)")
            #expect(message.contains("No space left on device"), "\(message)")
            #expect(message.contains("the analysis stopped after"), "\(message)")
            #expect(try String(contentsOfFile: log, encoding: .utf8).hasSuffix("}\n"), "the log does not end with a whole line")
            #expect(!FileManager.default.fileExists(atPath: "\(disk.path)/.rec.events.jsonl.lock"), "the log's lock was left behind")
            let info = try CLI.run(["info", output])
            #expect(info.status == 0, "the recording is not complete: \(info.stdout)")
            let (frames, _) = try checkFramesMatchFeed(output)
            #expect(frames >= 1000)
        } }
    }
}

