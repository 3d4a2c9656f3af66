import Foundation
import LumaAnalysis
import LumaEngine
import Testing
import LumaTestSupport

/// Analyzers in other languages, through the `external` analyzer's stdin/stdout protocol.
@Suite("The external analyzer: plugins in any language")
struct ExternalAnalyzerTests {
    static let recording = PackageLayout.root.appendingPathComponent("Recordings/toss-real.luma").path
    /// The bundled Python example, run with the project's Python (it has `lumatrace.analyzer`).
    static func example() throws -> String {
        try ProjectPython.require() + " " + PackageLayout.root.appendingPathComponent("Plugins/BrightnessHistogram/brightness_histogram.py").path
    }

    /// A Python program speaking the protocol that misbehaves at frame 3 in the way `fault` says
    /// (`crash`, `hang`, `garbage`, `wrong-done`), and otherwise emits one `tick` event per frame.
    static func faultyProgram(_ fault: String, in dir: String) throws -> String {
        try PythonPlugin.write("faulty_\(fault.replacingOccurrences(of: "-", with: "_"))", in: dir, imports: ["time"], perFrame: """
            if index == 3:
                if "\(fault)" == "crash": sys.exit(3)
                if "\(fault)" == "hang": time.sleep(60)
                if "\(fault)" == "garbage": print("frame 3 looks fine to me", flush=True)
                if "\(fault)" == "wrong-done": print(json.dumps({"done": 4}), flush=True)
            print(json.dumps({"kind": "tick", "data": {"frame": index}}), flush=True)
            """)
    }

    @Test("the Python brightness histogram runs end to end: events every N frames, deterministic, verified")
    func pythonExample() throws {
        try withScratchFolder("cli") { dir in
            var logs: [String] = []
            for jobs in ["1", "4"] {
                let log = "\(dir)/b\(jobs).events.jsonl"
                let r = try CLI.run(["replay", Self.recording, "--analyzer", "differencing", "--analyzer", "external",
                                     "--set", "external.command=\(try Self.example())", "--set", "external.options={\"every\":10,\"bins\":8}",
                                     "--jobs", jobs, "-o", log])
                #expect(r.status == 0, "\(r.stderr)")
                logs.append(try String(contentsOfFile: log, encoding: .utf8))
            }
            #expect(logs[0] == logs[1], "the log depends on --jobs")
            let log = try EventLog.read("\(dir)/b1.events.jsonl")
            let brightness = log.events.filter { $0.analyzer == "external" }
            #expect(brightness.map(\.frame) == [0, 10, 20, 30, 40, 50])
            // Declared once, in the program's ready line (`events` of its lumatrace.analyzer class).
            #expect(log.header.analyzers.first { $0.name == "external" }?.events == [EventSchema(kind: "brightness", version: 1, shape: nil)])
            for event in brightness {
                #expect(event.kind == "brightness")
                let histogram = try #require(event.data["histogram"]?.arrayValue?.compactMap { $0.doubleValue })
                #expect(histogram.count == 8)
                #expect(abs(histogram.reduce(0, +) - 1) < 1e-5)
                let mean = try #require(event.data["mean"]?.doubleValue)
                #expect(mean > 0 && mean < 255)
            }
            let refused = try CLI.run(["verify", "\(dir)/b1.events.jsonl", "--recording", Self.recording])
            #expect(refused.status == 2)
            #expect(refused.stderr.contains("would run a program: `\(ProjectPython.path) "), "\(refused.stderr)")
            let verify = try CLI.run(["verify", "\(dir)/b1.events.jsonl", "--recording", Self.recording, "--allow-external"])
            #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        }
    }

    @Test("a program that crashes, hangs, writes garbage or answers the wrong frame stops the replay naming analyzer and frame; the log so far stays valid",
          arguments: [("crash", "exited with status 3"), ("hang", "did not answer at frame 3 within the timeout"),
                      ("garbage", "wrote 'frame 3 looks fine to me' at frame 3, which is not a JSON object line"),
                      ("wrong-done", "answered at frame 3 with {\"done\":4}, expected {\"done\":3}")])
    func faultyProgram(fault: String, message: String) throws {
        try withScratchFolder("cli") { dir in
            let log = "\(dir)/faulty.events.jsonl"
            // A short frame timeout only where the hang is to meet it: elsewhere a busy machine's slow
            // answer must not meet it first.
            let timeout = fault == "hang" ? 2 : 3600
            let r = try CLI.run(["replay", Self.recording, "--analyzer", "differencing", "--analyzer", "external",
                                 "--set", "external.command=\(try Self.faultyProgram(fault, in: dir))", "--set", "external.timeout=\(timeout)",
                                 "--jobs", "1", "-o", log])
            #expect(r.status != 0)
            #expect(r.stderr.contains("analyzer external failed at frame 3: "), "\(r.stderr)")
            #expect(r.stderr.contains(message), "\(r.stderr)")
            let written = try EventLog.read(log)
            #expect(written.end?.failure?.analyzer == "external")
            #expect(written.events.filter { $0.kind == "tick" }.map(\.frame) == [0, 1, 2])
            #expect(written.events.contains { $0.analyzer == "differencing" && $0.frame == 2 })
            #expect(!written.events.contains { $0.frame > 3 })
        }
    }

    @Test("a program that refuses its options, one that does not exist, and a missing command are clear errors")
    func startFailures() throws {
        let refusing = try CLI.run(["replay", Self.recording, "--analyzer", "external", "--set", "external.command=\(try Self.example())",
                                    "--set", "external.options={\"every\":0}", "-o", "/dev/null"])
        #expect(refusing.status != 0)
        #expect(refusing.stderr.contains("refused to start: options: every must be an integer >= 1"), "\(refusing.stderr)")

        let missing = try CLI.run(["replay", Self.recording, "--analyzer", "external", "--set", "external.command=no-such-program-here",
                                   "-o", "/dev/null"])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("analyzer external failed to start") && missing.stderr.contains("exited with status 127"), "\(missing.stderr)")

        let empty = try CLI.run(["replay", Self.recording, "--analyzer", "external", "-o", "/dev/null"])
        #expect(empty.status != 0 && empty.stderr.contains("option external.command: is empty"), "\(empty.stderr)")
    }

    @Test("replay without --analyzer runs every analyzer that needs no option, so not external")
    func notRunByDefault() throws {
        try withScratchFolder("cli") { dir in
            let r = try CLI.run(["replay", Self.recording, "--to", "3", "-o", "\(dir)/all.events.jsonl"])
            #expect(r.status == 0, "\(r.stderr)")
            let header = try EventLog.read("\(dir)/all.events.jsonl").header
            #expect(header.analyzers.map(\.name) == ["differencing", "trajectory", "tracking", "rectangles"])
        }
    }
}

/// Goldens that name a plugin by a relative path: the path is relative to the log's folder (or the
/// pipeline file's), and the header keeps the plugin's SHA-256.
@Suite("Portable plugin goldens: relative plugin paths and program digests")
struct PortablePluginGoldenTests {
    static let example = PackageLayout.root.appendingPathComponent("Plugins/BrightnessHistogram/brightness_histogram.py").path
    static let toss = PackageLayout.root.appendingPathComponent("Recordings/toss-real.luma").path

    /// The bundled example imports `lumatrace.analyzer`: these commands name `python3`, as a user
    /// in a shell with the project's venv activated does.
    static func python3() throws -> [String: String] { try ProjectPython.activatedEnvironment() }

    /// Runs `body` in a project folder: `plugin/b.py` (the bundled example), `goldens/toss-real.luma`.
    func withProject<T>(_ body: (String) throws -> T) throws -> T {
        try withScratchFolder("cli") { dir in
            for folder in ["plugin", "goldens", "pipelines", "out"] {
                try FileManager.default.createDirectory(atPath: "\(dir)/\(folder)", withIntermediateDirectories: true)
            }
            try FileManager.default.copyItem(atPath: Self.example, toPath: "\(dir)/plugin/b.py")
            try FileManager.default.copyItem(atPath: Self.toss, toPath: "\(dir)/goldens/toss-real.luma")
            return try body(dir)
        }
    }

    @Test("a golden written with `python3 plugin/b.py` verifies and regresses from any folder, and says when b.py changed")
    func goldenFromAnyFolder() throws {
        let env = try Self.python3()
        try withProject { dir in
            let written = try CLI.run(["replay", "goldens/toss-real.luma", "--analyzer", "external", "--set", "external.command=python3 plugin/b.py",
                                       "--set", "external.options={\"every\":10}", "-o", "goldens/toss.events.jsonl"], cwd: dir, environment: env)
            #expect(written.status == 0, "\(written.stderr)")
            let golden = "\(dir)/goldens/toss.events.jsonl"
            let header = try EventLog.read(golden).header.analyzers[0]
            #expect(header.configuration["folder"]?.stringValue == "..")
            let sum = try ProgramRun.run("/usr/bin/sha256sum", ["\(dir)/plugin/b.py"]).stdout.prefix(64)
            #expect(header.programFiles == [ProgramFile(path: "plugin/b.py", sha256: String(sum))])

            for cwd in ["/", "\(dir)/goldens", "\(dir)/plugin"] {
                let verify = try CLI.run(["verify", golden, "--allow-external"], cwd: cwd, environment: env)
                #expect(verify.status == 0, "from \(cwd): \(verify.stdout)\(verify.stderr)")
                let regress = try CLI.run(["regress", "\(dir)/goldens", "--allow-external"], cwd: cwd, environment: env)
                #expect(regress.status == 0 && regress.stdout.contains("identical"), "from \(cwd): \(regress.stdout)\(regress.stderr)")
            }

            // The plugin changes (here only a comment): verify says so and fails; regress notes it.
            let handle = try #require(FileHandle(forWritingAtPath: "\(dir)/plugin/b.py"))
            handle.seekToEndOfFile()
            handle.write(Data("# tuned\n".utf8))
            try handle.close()
            let verify = try CLI.run(["verify", golden, "--allow-external"], cwd: "/", environment: env)
            #expect(verify.status == 1)
            #expect(verify.stdout.contains("the plugin changed: external.program: plugin/b.py changed (sha256 \(sum.prefix(12))…"), "\(verify.stdout)")
            let regress = try CLI.run(["regress", "\(dir)/goldens", "--allow-external"], cwd: "/", environment: env)
            #expect(regress.status == 0, "\(regress.stdout)")
            #expect(regress.stdout.contains("note: toss.events.jsonl: the plugin changed: external.program: plugin/b.py changed"), "\(regress.stdout)")

            // A folder that is gone is named: the goldens moved where no plugin folder is beside them.
            try withScratchFolder("moved") { elsewhere in
                try FileManager.default.moveItem(atPath: "\(dir)/goldens", toPath: "\(elsewhere)/goldens")
                let lost = try CLI.run(["verify", "\(elsewhere)/goldens/toss.events.jsonl", "--allow-external"], cwd: "/", environment: env)
                #expect(lost.status == 2, "\(lost.stdout)")
                #expect(lost.stderr.contains("was not started") || lost.stderr.contains("not a folder") || lost.stderr.contains("plugin/b.py"), "\(lost.stderr)")
            }
        }
    }

    @Test("paths in a pipeline file are relative to its folder, wherever replay runs")
    func pipelineFromAnyFolder() throws {
        let env = try Self.python3()
        try withProject { dir in
            try #"{"analyzers":[{"name":"external","configuration":{"command":"python3 ../plugin/b.py","options":{"every":20}}}]}"#
                .write(toFile: "\(dir)/pipelines/hist.json", atomically: true, encoding: .utf8)
            let r = try CLI.run(["replay", "\(dir)/goldens/toss-real.luma", "--pipeline", "\(dir)/pipelines/hist.json", "--allow-external",
                                 "-o", "\(dir)/out/hist.events.jsonl"], cwd: "/", environment: env)
            #expect(r.status == 0, "\(r.stderr)")
            let log = try EventLog.read("\(dir)/out/hist.events.jsonl")
            #expect(log.header.analyzers[0].configuration["folder"]?.stringValue == "../pipelines")
            #expect(log.events.filter { $0.analyzer == "external" }.map(\.frame) == [0, 20, 40])
            let verify = try CLI.run(["verify", "\(dir)/out/hist.events.jsonl", "--recording", "\(dir)/goldens/toss-real.luma", "--allow-external"],
                                     cwd: "\(dir)/plugin", environment: env)
            #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        }
    }
}
