import Foundation
import LumaAnalysis
import LumaEngine
import LumaFormat
import Synchronization
import Testing
import LumaTestSupport

@Suite("lumatrace on the command line: the whole path a user takes")
struct CommandLineTests {
    @Test("--help teaches every command with an example")
    func help() throws {
        let top = try CLI.run(["--help"])
        #expect(top.status == 0)
        for command in ["record", "synth", "info", "replay", "export", "recover", "verify", "analyzers"] {
            #expect(top.stdout.contains(command))
            let sub = try CLI.run([command, "--help"])
            #expect(sub.status == 0, "\(command) --help")
            #expect(sub.stdout.contains("lumatrace \(command)") || sub.stdout.contains("lumatrace"), "\(command) --help has an example")
        }
    }

    @Test("every --force in every command's help is one of four meanings, each with one text")
    func forceHelpIsShared() throws {
        let meanings: [String: Set<String>] = [
            "Replace existing output (never an input).":
                ["record", "recover", "export", "synth", "sweep run", "sweep merge", "truth import"],
            "Replace an existing log, part file or report (only one of the same kind), only once the new one is complete (a failed run never replaces it).":
                ["replay", "regress run", "regress merge"],
            "Compare logs of different recordings anyway.": ["diff"],
            "Use a log of another recording anyway, and replace existing output of the same kind (never an input).": ["render", "report"],
        ]
        var found: [String: Set<String>] = [:]
        for command in try CLI.allCommands() {
            if let text = try CLI.help(of: "--force", in: command) {
                found[text, default: []].insert(command.joined(separator: " "))
            }
        }
        #expect(found == meanings)
    }

    @Test("--jobs has one range, one default and one help text in every command that takes it")
    func jobsHelpIsShared() throws {
        var found: [String: Set<String>] = [:]
        for command in try CLI.allCommands() {
            if let text = try CLI.help(of: "--jobs", in: command) {
                found[text, default: []].insert(command.joined(separator: " "))
            }
        }
        #expect(found == ["Threads to run at once, 1...256 (default: the machine's cores, at most 8). No output depends on it.":
                            ["record", "replay", "regress run", "sweep run"]])
    }

    @Test("record → info → replay → verify → export: frames come back byte-identical")
    func wholePath() throws {
        try withScratchFolder("cli") { dir in
            let (stream, frames) = CLI.y4m(width: 33, height: 17, count: 75, rate: "30000:1001", colorspace: "420jpeg", chroma: 2 * 17 * 9)
            try stream.write(to: URL(fileURLWithPath: "\(dir)/in.y4m"))
            let record = try CLI.run(["record", "in.y4m", "-o", "rec.luma"], cwd: dir)
            #expect(record.status == 0, "\(record.stderr)")
            #expect(record.stdout.contains("recorded 75 frames 33x17"))

            let info = try CLI.run(["info", "rec.luma", "--json"], cwd: dir)
            #expect(info.status == 0)
            let json = try JSONParser.parse(info.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(json["frames"]?.intValue == 75)
            #expect(json["width"]?.intValue == 33 && json["height"]?.intValue == 17)
            #expect(json["timescale"]?.intValue == 30000)
            #expect(json["lastTimestamp"]?.doubleValue == 2.469133)  // 74 × 1001 / 30000
            #expect(json["damage"]?.arrayValue?.isEmpty == true)

            let replay = try CLI.run(["replay", "rec.luma", "--analyzer", "differencing", "-o", "rec.events.jsonl"], cwd: dir)
            #expect(replay.status == 0, "\(replay.stderr)")
            #expect(replay.stdout.contains("differencing.diff"))
            let verify = try CLI.run(["verify", "rec.events.jsonl"], cwd: dir)
            #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
            #expect(verify.stdout.contains("verified"))

            let export = try CLI.run(["export", "rec.luma", "--format", "y4m", "-o", "out.y4m"], cwd: dir)
            #expect(export.status == 0, "\(export.stderr)")
            let out = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(dir)/out.y4m")))
            let headerEnd = out.firstIndex(of: 10)! + 1
            #expect(String(decoding: out[..<headerEnd], as: UTF8.self) == "YUV4MPEG2 W33 H17 F30000:1001 Ip A1:1 Cmono\n")
            var expected: [UInt8] = []
            for f in frames { expected += Array("FRAME\n".utf8) + f }
            #expect(Array(out[headerEnd...]) == expected)

            let pgm = try CLI.run(["export", "rec.luma", "--format", "pgm", "-o", "pgm", "--from", "10", "--to", "1s"], cwd: dir)
            #expect(pgm.status == 0, "\(pgm.stderr)")
            let files = try FileManager.default.contentsOfDirectory(atPath: "\(dir)/pgm").filter { $0.hasSuffix(".pgm") }.sorted()
            #expect(files.first == "frame-000010.pgm" && files.last == "frame-000029.pgm")  // 1 s = frame 29.97 → last at or before: 29
            let p = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(dir)/pgm/frame-000012.pgm")))
            #expect(Array(p.suffix(33 * 17)) == frames[12])
        }
    }

    @Test("the replay summary names every analyzer it ran, 0 included: why tracking logs nothing, and that rectangles ran and found nothing")
    func summaryNamesEveryAnalyzer() throws {
        try withScratchFolder("cli") { dir in
            let toss = PackageLayout.recordings.appendingPathComponent("toss-real.luma").path
            let r = try CLI.run(["replay", toss, "-o", "\(dir)/x.jsonl"])
            #expect(r.status == 0, "\(r.stderr)")
            let lines = r.stdout.split(separator: "\n").map(String.init)
            for name in ["differencing.diff", "trajectory.trajectory", "trajectory.trajectory.end"] {
                #expect(lines.contains { $0.hasPrefix("  \(name) ") }, "\(name) is not counted: \(r.stdout)")
            }
            let tracking = try #require(lines.first { $0.hasPrefix("  tracking ") }, "\(r.stdout)")
            #expect(tracking.contains(" 0  logs nothing: ") && tracking.contains("tracking.seeds") && tracking.contains("tracking.nominate=motion"))
            let rectangles = try #require(lines.first { $0.hasPrefix("  rectangles ") }, "\(r.stdout)")
            #expect(rectangles.hasSuffix(" 0  ran and found nothing"))
            // Seeded, tracking logs boxes and the line goes.
            let seeded = try CLI.run(["replay", toss, "--analyzer", "tracking", "--set", "tracking.seeds=0.4,0.5,0.1,0.1", "-o", "\(dir)/y.jsonl"])
            #expect(seeded.status == 0 && !seeded.stdout.contains("logs nothing"), "\(seeded.stdout)\(seeded.stderr)")
        }
    }

    @Test("the replay log does not depend on --jobs")
    func jobs() throws {
        try CLI.withRecording(width: 40, height: 30, count: 60, options: ["--chunk-seconds", "0.25"]) { dir in
            try CLI.run(["replay", "r.luma", "-o", "one.jsonl", "--jobs", "1"], cwd: dir)
            try CLI.run(["replay", "r.luma", "-o", "many.jsonl", "--jobs", "4"], cwd: dir)
            let one = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/one.jsonl"))
            let many = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/many.jsonl"))
            #expect(one == many)
            #expect(!one.isEmpty)
        }
    }

    @Test("wrong use gets one line naming the file or option, and a non-zero exit")
    func wrongUse() throws {
        try CLI.withRecording(width: 8, height: 8, count: 3) { dir in
            let cases: [([String], String)] = [
                (["record", "missing.mp4", "-o", "x.luma"], "missing.mp4: no such file or folder"),
                (["record", "in.y4m", "-o", "r.luma"], "r.luma: already exists; pass --force to replace it"),
                (["replay", "r.luma", "--analyzer", "nope"], "unknown analyzer 'nope'"),
                (["replay", "r.luma", "--set", "differencing.threshold=0"], "differencing.threshold: 0 is outside the allowed range 1...254"),
                (["replay", "r.luma", "--roi", "0,0,1.5,1"], "--roi 0,0,1.5,1: the rectangle reaches past the frame"),
                (["replay", "r.luma", "--from", "9"], "--from 9: frame is past the end of the recording (frames 0...2)"),
                (["info", "in.y4m"], "in.y4m: not a .luma recording (it looks like a Y4M video stream); record it first with `lumatrace record FILE.y4m -o OUT.luma`"),
                (["record", "in.y4m", "-o", "y.luma", "--fps", "fast"], "--fps 'fast' is not a positive rate"),
                (["verify", "nope.jsonl"], "nope.jsonl: cannot read"),
            ]
            for (arguments, message) in cases {
                let r = try CLI.run(arguments, cwd: dir)
                #expect(r.status != 0, "\(arguments)")
                #expect(r.stderr.contains(message), "\(arguments): \(r.stderr)")
            }
        }
    }

    @Test("a progress bar with frames/s appears on a terminal, and nothing on stderr otherwise", arguments: ["replay", "render", "verify"])
    func progress(command: String) throws {
        try withScratchFolder("cli") { dir in
            let recordings = PackageLayout.root.appendingPathComponent("Recordings")
            let recording = recordings.appendingPathComponent("balls-synth.luma").path
            let log = recordings.appendingPathComponent("balls-synth.events.jsonl").path
            let arguments = switch command {
            case "replay": ["replay", recording, "--analyzer", "differencing", "-o", "\(dir)/p.events.jsonl", "--force"]
            case "render": ["render", recording, "--events", log, "-o", "\(dir)/frames/", "--to", "20", "--force"]
            default: ["verify", log]
            }
            let plain = try CLI.run(arguments)
            #expect(plain.status == 0, "\(plain.stderr)")
            #expect(plain.stderr.isEmpty, "stderr is not a terminal, yet: \(plain.stderr)")
            let script = try ExternalTool.script.require()
            // `script` runs the command on a pseudo-terminal and copies what it shows.
            let quoted = ([CLI.binary] + arguments).map { "'\($0)'" }.joined(separator: " ")
            let terminal = try ProgramRun.run(script, ["-qec", quoted, "/dev/null"])
            #expect(terminal.status == 0)
            #expect(terminal.stdout.contains("frames/s"), "\(terminal.stdout)")
        }
    }

    @Test("every numeric or named option refuses a bad value naming the option and what is allowed, as a usage error (64)")
    func optionRanges() throws {
        try CLI.withRecording(width: 16, height: 16, count: 3) { dir in
            try CLI.run(["replay", "r.luma", "--analyzer", "differencing", "-o", "r.events.jsonl"], cwd: dir)
            // Status 64 (usage) for a wrong command line, 2 for an output that is refused.
            let cases: [([String], String)] = [
                (["record", "in.y4m", "-o", "a.luma", "--chunk-seconds=0"], "--chunk-seconds 0.0 is outside (0, 3600]"),
                (["record", "in.y4m", "-o", "a.luma", "--level", "20"], "--level 20 is outside 1...19"),
                (["record", "in.y4m", "-o", "a.luma", "--meta", "novalue"], "--meta 'novalue' is not KEY=VALUE"),
                (["synth", "balls", "-o", "s.luma", "--size", "8x8"], "--size: width 8 is outside the allowed range 16...16384"),
                (["synth", "balls", "-o", "s.luma", "--frames", "0"], "--frames"),
                (["synth", "balls", "-o", "s.luma", "--fps", "0"], "--fps"),
                (["synth", "balls", "-o", "s.luma", "--noise=-1"], "--noise"),
                (["synth", "balls", "-o", "s.luma", "--size", "8by8"], "'--size <size>': a size is WIDTHxHEIGHT with each 1...16384"),
                (["synth", "nope", "-o", "s.luma"], "unknown scene 'nope'"),
                (["replay", "r.luma", "--set", "differencing.threshold=0", "-o", "x.jsonl"], "differencing.threshold: 0 is outside the allowed range 1...254"),
                (["synth", "balls", "-o", "r.luma", "--frames", "2", "--size", "16x16"], "r.luma: already exists; pass --force to replace it"),
                (["export", "r.luma", "--format", "gif"], "'gif' is invalid for '--format <format>'"),
                (["export", "r.luma", "--format", "y4m", "-o", "in.y4m"], "in.y4m: already exists; pass --force to replace it"),
                (["recover", "r.luma", "-o", "in.y4m"], "already exists"),
                (["replay", "r.luma", "--jobs", "0"], "--jobs 0 is outside 1...256"),
                (["record", "in.y4m", "-o", "a.luma", "--jobs", "257"], "--jobs 257 is outside 1...256"),
                (["replay", "r.luma", "--spacing=-1"], "--spacing -1.0 is outside 0...3600 seconds"),
                (["replay", "r.luma", "--from", "2", "--to", "1"], "--from (frame 2) is after --to (frame 1)"),
                (["replay", "r.luma", "--analyzer", "differencing", "--analyzer", "differencing", "-o", "x.jsonl"],
                 "--analyzer: differencing is given twice; to run an analyzer more than once, give each its own name: differencing2=differencing"),
                (["regress", dir, "--jobs", "0"], "--jobs 0 is outside 1...256"),
                (["diff", "r.events.jsonl", "r.events.jsonl", "--iou-tolerance", "2"], "--iou-tolerance 2.0 is outside 0...1"),
                (["diff", "r.events.jsonl", "r.events.jsonl", "--point-tolerance", "0"], "--point-tolerance 0.0 must be a positive number of pixels"),
                (["score", "r.events.jsonl", "--truth", "t.json", "--minimum-segment-frames", "0"], "--minimum-segment-frames 0 is outside 1...10000"),
                (["truth", "import", "tracknet", "in.y4m", "--size", "16x16", "-o", "t.json", "--ball-radius", "0"], "--ball-radius 0.0 must be a positive number of pixels"),
                (["truth", "import", "otb", "in.y4m", "--size", "16x16", "-o", "t.json", "--max-gap", "5000"], "--max-gap 5000 is outside 0...1000"),
                (["truth", "import", "otb", "in.y4m", "--size", "0x16", "-o", "t.json"], "The value '0x16' is invalid for '--size <size>': a size is WIDTHxHEIGHT with each 1...16384"),
                (["truth", "import", "otb", "in.y4m", "-o", "t.json"], "give exactly one of --recording and --size"),
            ]
            for (arguments, message) in cases {
                let r = try CLI.run(arguments, cwd: dir)
                let refusedOutput = message.contains("already exists")
                #expect(r.status == (refusedOutput ? 2 : 64), "\(arguments): status \(r.status)")
                #expect(r.stderr.contains(message), "\(arguments): \(r.stderr)")
            }
        }
    }

    @Test("a Y4M stream on stdin is recorded; a stream cut mid-frame keeps the frames before it and says so")
    func stdinAndCutStream() throws {
        try withScratchFolder("cli") { dir in
            let (stream, _) = CLI.y4m(width: 16, height: 16, count: 10)
            let ok = try CLI.run(["record", "-", "-o", "s.luma"], stdin: stream, cwd: dir)
            #expect(ok.status == 0, "\(ok.stderr)")
            #expect(ok.stdout.contains("recorded 10 frames"))
            let cut = try CLI.run(["record", "-", "-o", "c.luma"], stdin: stream.prefix(stream.count - 100), cwd: dir)
            #expect(cut.status != 0)
            #expect(cut.stderr.contains("frame 9: frame is shorter than declared"))
            #expect(cut.stderr.contains("the 9 frames before the error are saved in c.incomplete.luma"))
            let info = try CLI.run(["info", "c.incomplete.luma", "--json"], cwd: dir)
            #expect(try JSONParser.parse(info.stdout.trimmingCharacters(in: .newlines))["frames"]?.intValue == 9)
            // The name asked for stays free: the next attempt needs no --force.
            #expect(!FileManager.default.fileExists(atPath: "\(dir)/c.luma"))
            let again = try CLI.run(["record", "-", "-o", "c.luma"], stdin: stream, cwd: dir)
            #expect(again.status == 0, "\(again.stderr)")
        }
    }

    @Test("live recording from ffmpeg ends cleanly on Ctrl-C with an index; frames are stamped as they arrive, on the monotonic clock")
    func liveCtrlC() throws {
        let ffmpeg = try ExternalTool.ffmpeg.require()
        try withScratchFolder("cli") { dir in
            let source = try RunningProgram(ffmpeg, ["-v", "error", "-re", "-f", "lavfi", "-i", "testsrc=size=96x64:rate=30", "-pix_fmt", "gray",
                                                     "-f", "yuv4mpegpipe", "-"], stdout: .pipe, stderr: .discarded)
            let recorder = try CLI.start(["record", "-", "--live", "-o", "\(dir)/live.luma", "--chunk-seconds", "0.5"], stdin: .pipe, stderr: .collected)
            // The frames pass through the test, on their way from ffmpeg, into a pipe smaller than one
            // frame: with 26 passed on, the recorder has read at least 24 whole, so Ctrl-C comes once
            // there are frames to keep, not after a time a busy machine may not give it.
            let passer = FramePasser(from: source.output!, to: recorder.input!, frameBytes: 96 * 64)
            let took = AwaitedEvent.wait(while: { recorder.isRunning && source.isRunning }) { passer.framesPassed >= 26 }
            recorder.signal(SIGINT)  // as Ctrl-C
            let recorded = try recorder.wait()
            source.signal(SIGTERM)
            _ = try source.wait()
            #expect(took, "the stream ended after \(passer.framesPassed) frames")
            #expect(recorded.status == 0, "\(recorded)")
            let reader = try RecordingReader(path: "\(dir)/live.luma")
            #expect(reader.hasIndex)
            #expect(reader.frameCount >= 20, "\(reader.frameCount) frames recorded of the 24 or more the recorder had read")
            #expect(reader.verify().isEmpty)
            // A Y4M pipe has no timestamps: each frame's is its arrival, in microseconds after the
            // first's, and the header says so.
            #expect(reader.header.timescale == 1_000_000)
            #expect(reader.header.metadata["source.timing"]?.contains("arrival time on the monotonic clock") == true, "\(reader.header.metadata)")
            // Arrival, on the monotonic clock the test reads too: frame k's last byte cannot be read
            // before the test began writing frame k, and was read before the test finished writing
            // frame k + 2 (the pipe holds less than a frame, and the recorder reads ahead at most a
            // pipe's worth). Whatever the machine's load, each stamp lies between those two moments.
            let passed = try passer.allWrites()
            let ticks = try decodedFrames(reader).map(\.ticks)
            #expect(ticks.first == 0 && ticks.count <= passed.count, "\(ticks.count) frames recorded, \(passed.count) passed")
            for (k, t) in ticks.enumerated() where k + 2 < passed.count {
                let earliest = (passed[k].started - passed[2].finished) / 1000
                let latest = (passed[k + 2].finished - passed[0].started) / 1000
                #expect(t >= earliest && t <= latest, "frame \(k) stamped \(t) µs after the first, not within \(earliest)...\(latest) µs")
            }
        }
    }
}

/// Passes a Y4M stream of luma frames from one pipe to another, frame by frame as it comes, on a
/// thread of its own, into a pipe buffer of one page (less than a frame): once a frame is written
/// whole, the reader has read the one before it whole. Ends with the input, or when the reader has gone.
final class FramePasser: Sendable {
    private let input: FileHandle, output: FileHandle
    private let frameBytes: Int
    private let passed = Mutex<[Write]>([])
    private let ended = DispatchSemaphore(value: 0)

    /// When the writing of one frame started and finished, in nanoseconds on CLOCK_MONOTONIC.
    struct Write { var started: Int64, finished: Int64 }

    /// Frames written to `output` whole.
    var framesPassed: Int { passed.withLock { $0.count } }

    /// Each frame written whole, in order, once the passing has ended (its reader and writer gone).
    func allWrites() throws -> [Write] {
        guard ended.wait(timeout: .now() + 60) == .success else { throw CLI.Failure(description: "the frame passer still runs with its ends gone") }
        return passed.withLock { $0 }
    }

    init(from input: FileHandle, to output: FileHandle, frameBytes: Int) {
        (self.input, self.output, self.frameBytes) = (input, output, frameBytes)
        let setPipeSize: Int32 = 1024 + 7  // F_SETPIPE_SZ (Linux; Glibc shows it to C with _GNU_SOURCE only)
        let size = fcntl(output.fileDescriptor, setPipeSize, 4096)
        if size < 0 || size >= frameBytes {
            Issue.record("the pipe holds \(size) bytes, not less than a frame: frames passed on no longer say what the reader took")
        }
        Thread.detachNewThread { [self] in
            defer {  // the writer then sees its reader gone, and the reader its end of stream
                try? input.close()
                try? output.close()
                ended.signal()
            }
            guard let header = line(), write(header) else { return }
            while let frame = line(), let pixels = read(frameBytes) {
                let started = Self.now()
                guard write(frame + pixels) else { return }
                let write = Write(started: started, finished: Self.now())
                passed.withLock { $0.append(write) }
            }
        }
    }

    private static func now() -> Int64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec)
    }

    private func line() -> [UInt8]? {
        var bytes: [UInt8] = []
        while bytes.last != 10 {
            guard let byte = read(1) else { return nil }
            bytes += byte
        }
        return bytes
    }

    private func read(_ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count), done = 0
        while done < count {
            let n = bytes[done...].withUnsafeMutableBytes { Glibc.read(input.fileDescriptor, $0.baseAddress, $0.count) }
            guard n > 0 else { return nil }
            done += n
        }
        return bytes
    }

    private func write(_ bytes: [UInt8]) -> Bool {
        var done = 0
        while done < bytes.count {
            let n = bytes[done...].withUnsafeBytes { Glibc.write(output.fileDescriptor, $0.baseAddress, $0.count) }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }
}

@Suite("Debug output of analyzers")
struct DumpTests {
    @Test("replay --dump writes the differencing images as PGM, and the log is the same as without it")
    func dump() throws {
        try CLI.withRecording(width: 24, height: 16, count: 5) { dir in
            let with = try CLI.run(["replay", "r.luma", "--analyzer", "differencing", "--dump", "dump", "-o", "with.jsonl"], cwd: dir)
            #expect(with.status == 0, "\(with.stderr)")
            try CLI.run(["replay", "r.luma", "--analyzer", "differencing", "-o", "without.jsonl"], cwd: dir)
            let files = try FileManager.default.contentsOfDirectory(atPath: "\(dir)/dump").sorted()
            #expect(files == (1...4).map { String(format: "differencing-%06d.pgm", $0) })
            let pgm = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(dir)/dump/\(files[0])")))
            #expect(pgm.starts(with: Array("P5\n24 16\n255\n".utf8)) && pgm.count == 13 + 24 * 16)
            #expect(try Data(contentsOf: URL(fileURLWithPath: "\(dir)/with.jsonl")) == Data(contentsOf: URL(fileURLWithPath: "\(dir)/without.jsonl")))
        }
    }

    @Test("--set KEY=@FILE reads the value from the file, and the log header holds the value itself")
    func optionFromFile() throws {
        try CLI.withRecording(width: 64, height: 48, count: 5) { dir in
            let seeds = #"[{"box": [0.25, 0.25, 0.5, 0.5], "label": "centre"}]"#
            try Data((seeds + "\n").utf8).write(to: URL(fileURLWithPath: "\(dir)/seeds.json"))
            let run = try CLI.run(["replay", "r.luma", "--analyzer", "tracking", "--set", "tracking.seeds=@seeds.json", "-o", "t.jsonl"], cwd: dir)
            #expect(run.status == 0, "\(run.stderr)")
            let log = try String(contentsOfFile: "\(dir)/t.jsonl", encoding: .utf8)
            #expect(log.split(separator: "\n").first?.contains(#"\"label\": \"centre\""#) == true, "header: \(log.prefix(600))")
            #expect(log.split(separator: "\n").dropFirst().filter { $0.contains(#""kind":"track""#) }.count == 5)
            let missing = try CLI.run(["replay", "r.luma", "--analyzer", "tracking", "--set", "tracking.seeds=@nope.json", "-o", "u.jsonl"], cwd: dir)
            #expect(missing.status != 0 && missing.stderr.contains("nope.json"), "\(missing.stderr)")
        }
    }
}
