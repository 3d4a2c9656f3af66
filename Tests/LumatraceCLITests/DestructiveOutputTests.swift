import Foundation
import Testing
import LumaTestSupport

let isRoot = getuid() == 0

@Suite("Outputs never destroy inputs, folders, devices or good results (issue 15, items 1, 4, 6, 8, 16)")
struct DestructiveOutputTests {
    static let recording = PackageLayout.root.appendingPathComponent("Recordings/toss-real.luma").path
    static let golden = PackageLayout.root.appendingPathComponent("Recordings/toss-real.events.jsonl").path

    /// Runs `body` with a scratch folder holding a copy of the bundled recording, and that copy's path.
    func withRecordingCopy<T>(_ body: (_ dir: String, _ recording: String) throws -> T) throws -> T {
        try withScratchFolder("cli") { dir in
            let copy = dir + "/r.luma"
            try FileManager.default.copyItem(atPath: Self.recording, toPath: copy)
            return try body(dir, copy)
        }
    }

    func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    func isCharacterDevice(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFCHR
    }

    /// A crash shows as a signal status (SIGILL 132, SIGTRAP 133, SIGABRT 134, SIGSEGV 139, SIGPIPE 141) or Swift's message.
    func expectCleanFailure(_ result: ProgramResult, naming text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 1 || result.status == 2, "status \(result.status): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(!result.stderr.contains("Fatal error"), "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains(text), "\(result.stderr)", sourceLocation: sourceLocation)
    }

    @Test("replay -o its own recording is refused; the recording is untouched")
    func replayOntoItsRecording() throws {
        try withRecordingCopy { dir, rec in
            let before = bytes(rec)
            for force in [[], ["--force"]] {
                let r = try CLI.run(["replay", rec, "--analyzer", "differencing", "-o", rec] + force)
                expectCleanFailure(r, naming: "is this command's input")
            }
            let link = dir + "/link.luma"
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: rec)
            expectCleanFailure(try CLI.run(["replay", rec, "--analyzer", "differencing", "-o", link, "--force"]), naming: "is the same file as the input")
            #expect(bytes(rec) == before)
        }
    }

    @Test("replay -o a folder is refused; the folder and its files stay")
    func replayOntoAFolder() throws {
        try withRecordingCopy { dir, rec in
            try FileManager.default.createDirectory(atPath: dir + "/results/deep", withIntermediateDirectories: true)
            try Data("mine".utf8).write(to: URL(fileURLWithPath: dir + "/results/deep/notes.txt"))
            expectCleanFailure(try CLI.run(["replay", rec, "--analyzer", "differencing", "-o", dir + "/results", "--force"]), naming: "is a folder")
            #expect(bytes(dir + "/results/deep/notes.txt") == Data("mine".utf8))
        }
    }

    @Test("writing to /dev/null writes into the device, never replaces the node",
          .enabled(if: isRoot, "only root could replace /dev/null, so only root can show it is not replaced"))
    func devicesStayDevices() throws {
        try withRecordingCopy { dir, rec in
            let truthLabels = dir + "/labels.txt"
            try Data("10,10,20,20\n".utf8).write(to: URL(fileURLWithPath: truthLabels))
            let commands: [[String]] = [
                ["replay", rec, "--analyzer", "differencing", "-o", "/dev/null"],
                ["replay", rec, "--analyzer", "differencing", "-o", "/dev/null", "--force"],
                ["export", rec, "--format", "y4m", "-o", "/dev/null", "--force"],
                ["report", rec, "--events", Self.golden, "-o", "/dev/null", "--force"],
                ["truth", "import", "otb", truthLabels, "--size", "640x360", "-o", "/dev/null", "--force"],
            ]
            for command in commands {
                let r = try CLI.run(command)
                #expect(isCharacterDevice("/dev/null"), "\(command.joined(separator: " ")) replaced /dev/null (\(r.stderr))")
                if command[0] == "report" {
                    // A report must be an .html file: refused by name, before anything is written.
                    #expect(r.status == 2)
                } else {
                    #expect(r.status == 0, "\(command.joined(separator: " ")): \(r.stderr)")
                }
            }
        }
    }

    @Test("-o - streams the event log to standard output; the summary goes to stderr")
    func logToStandardOutput() throws {
        let r = try CLI.run(["replay", Self.recording, "--analyzer", "differencing", "-o", "-"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("{\"format\":\"lumatrace.events\"") == true)
        #expect(lines.last?.hasPrefix("{\"end\":") == true)
        #expect(r.stderr.contains("replayed 60 frames"))
        #expect(!FileManager.default.fileExists(atPath: "-"))
    }

    @Test("a failed replay never replaces an existing log, even with --force; it says where its own log is")
    func failedReplayKeepsGoodLog() throws {
        try withRecordingCopy { dir, rec in
            let log = dir + "/r.events.jsonl"
            #expect(try CLI.run(["replay", rec, "--analyzer", "differencing", "-o", log]).status == 0)
            let good = bytes(log)
            let script = try Self.dyingAnalyzer(in: dir)
            let r = try CLI.run(["replay", rec, "--analyzer", "differencing", "--analyzer", "external",
                                 "--set", "external.command=python3 \(script)", "-o", log, "--force"])
            #expect(r.status == 2)
            #expect(r.stderr.contains("analyzer external failed"), "\(r.stderr)")
            #expect(r.stderr.contains("\(log) is untouched"), "\(r.stderr)")
            #expect(bytes(log) == good)
        }
    }

    /// An external analyzer (Python) that answers its hello and dies at the third frame.
    static func dyingAnalyzer(in dir: String) throws -> String {
        let script = dir + "/dies.py"
        try Data("""
            import sys, json, struct
            sys.stdin.buffer.readline()
            print(json.dumps({"ready": True}), flush=True)
            while True:
                magic, w, h, _, index, _, _ = struct.unpack("<4sIIIqqq", sys.stdin.buffer.read(40))
                if magic != b"LTFR" or index == 2:
                    sys.exit(7)
                sys.stdin.buffer.read(w * h)
                print(json.dumps({"done": index}), flush=True)

            """.utf8).write(to: URL(fileURLWithPath: script))
        return script
    }

    @Test("an incomplete log is never verified, and diff and score say it is incomplete")
    func incompleteLogs() throws {
        try withRecordingCopy { dir, rec in
            let script = try Self.dyingAnalyzer(in: dir)
            let failed = dir + "/failed.events.jsonl"
            let r = try CLI.run(["replay", rec, "--analyzer", "differencing", "--analyzer", "external",
                                 "--set", "external.command=python3 \(script)", "-o", failed])
            #expect(r.status == 2)
            #expect(r.stderr.contains("the log up to the failure is in \(failed), marked incomplete"), "\(r.stderr)")
            let verify = try CLI.run(["verify", failed, "--recording", rec, "--allow-external"])
            #expect(verify.status == 1)
            #expect(verify.stdout.contains("not verified: \(failed) is incomplete: its replay stopped when analyzer external failed at frame 2"),
                    "\(verify.stdout)\(verify.stderr)")

            // No footer at all: a killed replay's log.
            let text = try String(contentsOfFile: failed, encoding: .utf8)
            let cut = dir + "/cut.events.jsonl"
            try (text.split(separator: "\n").dropLast().joined(separator: "\n") + "\n").write(toFile: cut, atomically: true, encoding: .utf8)
            let noFooter = try CLI.run(["verify", cut, "--recording", rec])
            #expect(noFooter.status == 2)
            #expect(noFooter.stderr.contains("\(cut) has no footer"), "\(noFooter.stderr)")

            let good = dir + "/good.events.jsonl"
            #expect(try CLI.run(["replay", rec, "--analyzer", "differencing", "-o", good]).status == 0)
            let diff = try CLI.run(["diff", good, cut])
            #expect(diff.stderr.contains("warning: \(cut) has no footer"), "\(diff.stderr)")
            let truth = PackageLayout.root.appendingPathComponent("Recordings/toss-real.truth.json").path
            let score = try CLI.run(["score", cut, "--truth", truth])
            #expect(score.stderr.contains("warning: \(cut) has no footer"), "\(score.stderr)")
        }
    }

    @Test("a pipeline file or a log header that names a program never runs it without --allow-external")
    func programsInFilesAreNotRun() throws {
        try withRecordingCopy { dir, rec in
            try FileManager.default.copyItem(atPath: rec, toPath: dir + "/toss-real.luma")
            let marker = dir + "/PWNED"
            let pipeline = dir + "/pipeline.json"
            try Data(#"{"analyzers":[{"name":"external","configuration":{"command":"touch \#(marker); exit 1"}}]}"#.utf8)
                .write(to: URL(fileURLWithPath: pipeline))
            let replay = try CLI.run(["replay", rec, "--pipeline", pipeline, "-o", dir + "/p.events.jsonl"])
            expectCleanFailure(replay, naming: "would run a program: `touch \(marker); exit 1`")

            // A golden log whose header names a program: verify and regress refuse it too.
            let golden = try String(contentsOfFile: Self.golden, encoding: .utf8)
            var lines = golden.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let hostile = #"{"name":"external","version":"1","frameAnalysisSpacing":0,"regionOfInterest":[0,0,1,1],"configuration":{"command":"touch \#(marker); exit 1","options":{},"timeout":30}}"#
            lines[0] = lines[0].replacingOccurrences(of: #""analyzers":["#, with: #""analyzers":["# + hostile + ",")
            try lines.joined(separator: "\n").write(toFile: dir + "/r.events.jsonl", atomically: true, encoding: .utf8)
            expectCleanFailure(try CLI.run(["verify", dir + "/r.events.jsonl"]), naming: "would run a program")
            expectCleanFailure(try CLI.run(["regress", dir]), naming: "would run a program")
            #expect(!FileManager.default.fileExists(atPath: marker), "a command from a file ran")
        }
    }

    @Test("two replays to one log at once: the second is refused at once, the first finishes whole")
    func concurrentReplays() throws {
        try withScratchFolder("cli") { dir in
            let rec = try CLI.synth("tracking", to: dir + "/long.luma", frames: 300, seed: 3)
            let log = dir + "/long.events.jsonl"
            let first = try CLI.start(["replay", rec, "--analyzer", "trajectory", "--analyzer", "differencing", "--jobs", "1", "-o", log])
            // The second comes once the first holds the log's lock, and finds it held: the first is
            // stopped (SIGSTOP) meanwhile, so it cannot finish before the second has tried.
            let lock = dir + "/.long.events.jsonl.lock"
            let locked = AwaitedEvent.wait(while: { first.isRunning }) { AwaitedEvent.process(first.pid, holdsLockOn: lock) }
            first.signal(SIGSTOP)
            let second = try CLI.run(["replay", rec, "--analyzer", "differencing", "-o", log, "--force"])
            first.signal(SIGCONT)
            let firstResult = try first.wait()
            try #require(locked, "the first replay ended before it took the log's lock: \(firstResult)")
            expectCleanFailure(second, naming: "another lumatrace process is writing it")
            #expect(firstResult.status == 0, "\(firstResult)")
            let verify = try CLI.run(["verify", log])
            #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["long.events.jsonl", "long.luma"])
        }
    }

    @Test("record (not live) on a full disk keeps every chunk but the last 2 s, like a live recorder",
          .enabled(if: isRoot, "mounting a small tmpfs needs root"))
    func recordOnAFullDisk() throws {
        try withScratchFolder("cli") { dir in
            // 20 s of incompressible 160×120 frames at 30 fps: 19.2 kB a frame, so 16 MiB chunks would hold 28 s.
            var state: UInt64 = 99
            var stream = Array("YUV4MPEG2 W160 H120 F30:1 Ip A1:1 Cmono\n".utf8)
            for _ in 0..<600 {
                stream += Array("FRAME\n".utf8)
                for _ in 0..<(160 * 120 / 8) {
                    state = state &* 6364136223846793005 &+ 1442695040888963407
                    withUnsafeBytes(of: state) { stream += $0 }
                }
            }
            let input = dir + "/noise.y4m"
            try Data(stream).write(to: URL(fileURLWithPath: input))
            try SmallDisk.with(kilobytes: 4096) { disk in
                let output = disk.path + "/noise.luma"
                let r = try CLI.run(["record", input, "-o", output])
                expectCleanFailure(r, naming: "No space left on device")
                let stopped = try #require(r.stderr.firstMatch(of: /recording stopped at frame (\d+)/).flatMap { Int($0.1) })
                let recovered = dir + "/recovered.luma"
                let recover = try CLI.run(["recover", output, "-o", recovered])
                #expect(recover.status == 0, "\(recover.stdout)\(recover.stderr)")
                let info = try CLI.run(["info", recovered, "--json"])
                let json = try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any]
                let kept = try #require(json?["frames"] as? Int)
                TestFigures.record("record on a full disk (4 MiB tmpfs): stopped at frame \(stopped), \(kept) frames recovered", named: "record-full-disk.txt")
                #expect(stopped > 100)
                #expect(kept >= stopped - 61, "a full disk cost \(stopped - kept) frames, more than 2 s at 30 fps")
            }
        }
    }

    @Test("a full disk: every writer reports it, exits non-zero, and leaves nothing under the final name",
          .enabled(if: isRoot, "mounting a small tmpfs needs root"))
    func fullDisk() throws {
        try SmallDisk.with(kilobytes: 16) { disk in
            // Sensor noise makes the MP4 too big for the disk (the real clip's is not).
            let noisy = PackageLayout.root.appendingPathComponent("Recordings/balls-synth.luma").path
            let noisyLog = PackageLayout.root.appendingPathComponent("Recordings/balls-synth.events.jsonl").path
            let commands: [(name: String, arguments: [String])] = [
                ("clip.y4m", ["export", Self.recording, "--format", "y4m", "-o", "\(disk.path)/clip.y4m"]),
                ("frames", ["export", Self.recording, "--format", "pgm", "-o", "\(disk.path)/frames"]),
                ("sheet.png", ["render", Self.recording, "--events", Self.golden, "-o", "\(disk.path)/sheet.png", "--sheet-width", "4000", "--every", "1"]),
                ("pngs", ["render", Self.recording, "--events", Self.golden, "-o", "\(disk.path)/pngs/"]),
                ("clip.gif", ["render", Self.recording, "--events", Self.golden, "-o", "\(disk.path)/clip.gif"]),
                ("clip.mp4", ["render", noisy, "--events", noisyLog, "-o", "\(disk.path)/clip.mp4"]),
                ("big.events.jsonl", ["replay", Self.recording, "--analyzer", "differencing", "-o", "\(disk.path)/big.events.jsonl"]),
                ("scene.luma", ["synth", "balls", "--size", "320x180", "--frames", "60", "-o", "\(disk.path)/scene.luma"]),
                ("scene.truth.json", ["synth", "balls", "--size", "320x180", "--frames", "60", "-o", "\(disk.path)/scene.luma",
                                      "--truth", "\(disk.path)/scene.truth.json"]),
            ]
            for (name, arguments) in commands {
                let r = try CLI.run(arguments)
                expectCleanFailure(r, naming: "No space left on device")
                #expect(!disk.names().contains(name), "\(arguments.joined(separator: " ")) left \(name) on a full disk")
                #expect(disk.names().filter { $0.hasSuffix(".partial") || $0.hasSuffix(".lock") }.isEmpty,
                        "\(arguments[0]) left temporary files: \(disk.names())")
            }
        }
    }
}
