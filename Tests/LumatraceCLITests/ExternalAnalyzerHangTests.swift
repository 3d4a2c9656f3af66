import Foundation
import LumaAnalysis
import LumaEngine
import Testing
#if canImport(Glibc)
import Glibc
import LumaTestSupport
#endif

/// A hung or runaway external program can neither hang the replay nor swamp its memory: it is
/// stopped within its limits, with every process it started, and the replay fails with one line
/// naming the analyzer, the frame and what happened.
@Suite("The external analyzer: hung and runaway programs are stopped, with everything they started")
struct ExternalAnalyzerHangTests {
    static let recording = ExternalAnalyzerTests.recording
    /// The limits of a replay: the one a hang is to meet is small, so that each hang costs
    /// seconds; the others are an hour, so that on a busy machine a slow start of Python (seconds,
    /// with both cores taken) cannot meet a limit before the one under test. The start timeout is
    /// never less than the frame timeout, and it also bounds the program's hello: where it is the
    /// limit a hang after the hello is to meet, both are ten seconds, time enough for Python to start.
    static func limits(timeout: Int = 3600, startTimeout: Int = 3600) -> [String] {
        ["--set", "external.timeout=\(timeout)", "--set", "external.startTimeout=\(startTimeout)"]
    }

    /// A Python program speaking the protocol, which misbehaves as its first argument says and
    /// appends the pid of any process it starts to the file named by its second (its own pid is
    /// written there by the shell that starts it, before Python loads). A hang lasts an hour,
    /// longer than any wait of the test: a process lumatrace failed to stop is still there when
    /// the test looks.
    static let program = """
        import json, os, signal, struct, subprocess, sys, time
        mode, pids = sys.argv[1], sys.argv[2]
        def note(pid):
            with open(pids, "a") as f: f.write(f"{pid}\\n")
        def send(obj):
            print(json.dumps(obj), flush=True)
        def read_exactly(n):
            data = b""
            while len(data) < n:
                more = sys.stdin.buffer.read(n - len(data))
                if not more: sys.exit(9)
                data += more
            return data
        if mode == "ignores-term":  # carries on after TERM, saying it came (the test waits for that)
            signal.signal(signal.SIGTERM, lambda *_: open(pids + ".term", "w").close())
        if mode == "streams": signal.signal(signal.SIGTERM, signal.SIG_IGN)
        if mode == "silent": time.sleep(3600)
        if mode == "never-reads":
            send({"ready": True})
            time.sleep(3600)
        sys.stdin.buffer.readline()
        send({"ready": True})
        while True:
            magic, w, h, _, index, ticks, scale = struct.unpack("<4sIIIqqq", read_exactly(40))
            if magic == b"LTEN":
                if mode == "hangs-at-end": time.sleep(3600)
                send({"done": "end"})
                if mode == "lingers": time.sleep(3600)
                break
            read_exactly(w * h)
            if index == 3:
                if mode in ("hangs-at-frame", "ignores-term"):
                    open(pids + ".at-frame-3", "w").close()
                    time.sleep(3600)
                if mode == "streams":  # answers frame 3 with event lines of 1 kB that never end, without a pause
                    open(pids + ".at-frame-3", "w").close()
                    line = json.dumps({"kind": "tick", "data": {"text": "x" * 1000}}) + "\\n"
                    while True: sys.stdout.write(line)
                if mode == "long-line":
                    sys.stdout.write("x" * 20_000_000 + "\\n"); sys.stdout.flush(); time.sleep(3600)
                if mode == "daemon":
                    # A daemon: its own session (out of the program's group), TERM ignored, our stderr held.
                    note(subprocess.Popen(["sh", "-c", "trap '' TERM; exec sleep 600"], start_new_session=True).pid)
                if mode == "leaves-child":
                    note(subprocess.Popen(["sleep", "3600"]).pid)  # keeps our stdout and stderr open
                    os._exit(0)
            send({"kind": "tick", "data": {"frame": index}})
            send({"done": index})
        """

    // MARK: - Hangs

    @Test("a program that hangs in any way is stopped within its limits, with every process it started",
          arguments: [
              ("silent", limits(timeout: 3, startTimeout: 3), "failed to start: ",
               "did not answer at its hello within the timeout of 3 s (external.startTimeout)"),
              ("never-reads", limits(timeout: 2), "failed at frame 0: ",
               "did not read its input at frame 0 within the timeout of 2 s (external.timeout)"),
              ("hangs-at-frame", limits(timeout: 2), "failed at frame 3: ",
               "did not answer at frame 3 within the timeout of 2 s (external.timeout)"),
              ("ignores-term", limits(timeout: 2), "failed at frame 3: ",
               "did not answer at frame 3 within the timeout of 2 s (external.timeout)"),
              // Lines keep coming, far under the bytes a frame may hold: the timeout covers reading them.
              ("streams", limits(timeout: 2) + unbounded, "failed at frame 3: ",
               "did not answer at frame 3 within the timeout of 2 s (external.timeout)"),
              ("long-line", limits(), "failed at frame 3: ",
               "wrote a line over 1048576 bytes at frame 3; if its events are really that large, raise external.maximumLineBytes"),
              // The child it left holding stdout is ended by the reaper as the program exits, so the output ends.
              ("leaves-child", limits(), "failed at frame 3: ", "ended its output at frame 3: it exited with status 0"),
              ("hangs-at-end", limits(timeout: 10, startTimeout: 10), "in finish: ",
               "did not answer at the end within the timeout of 10 s (external.startTimeout)"),
              ("lingers", limits(timeout: 10, startTimeout: 10), "in finish: ",
               "did not exit within 10 s (external.startTimeout) after its last answer; it was stopped"),
          ])
    func hang(mode: String, limits: [String], failure: String, message: String) throws {
        try withScratchFolder("cli") { dir in
            let pids = "\(dir)/pids"
            // Stopped within its limits shows in the message, which names the limit that stopped it.
            let run = try Self.replay(mode: mode, pids: pids, in: dir, options: limits)
            #expect(run.status != 0)
            let lines = run.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(run.stderr)")
            #expect(run.stderr.hasPrefix("lumatrace: error: analyzer external "), "\(run.stderr)")
            #expect(run.stderr.contains(failure) && run.stderr.contains(message), "\(run.stderr)")
            try Self.expectGone(pids, expected: mode == "leaves-child" ? 2 : 1)
        }
    }

    @Test("a process the program starts in a session of its own, ignoring TERM, ends with the replay (a program exits cleanly)")
    func daemonEndsWithTheReplay() throws {
        try withScratchFolder("cli") { dir in
            let pids = "\(dir)/pids"
            let run = try Self.replay(mode: "daemon", pids: pids, in: dir, options: Self.limits())
            #expect(run.status == 0, "\(run.stderr)")
            try Self.expectGone(pids, expected: 2)
        }
    }

    /// Limits no replay of these tests reaches: only the signal can stop the program.
    static let noTimeout = limits()
    /// The highest limits on a frame's events, which a program that writes without end meets only
    /// after seconds of lines (each second holds hundreds of megabytes at most).
    static let unbounded = ["--set", "external.maximumEventsPerFrame=1000000", "--set", "external.maximumBytesPerFrame=1073741824"]

    @Test("SIGINT or SIGTERM to lumatrace stops its programs, even one that ignores TERM, and the replay fails naming the signal",
          arguments: [SIGINT, SIGTERM])
    func signalled(signal: Int32) throws {
        try withScratchFolder("cli") { dir in
            let pids = "\(dir)/pids"
            let log = "\(dir)/signalled.events.jsonl"
            let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
            var programGroup: pid_t = -1
            let run = try Self.replay(mode: "ignores-term", pids: pids, in: dir, log: log, options: Self.noTimeout,
                                      signals: [signal]) { programGroup = $0 }
            // Its own group, which a terminal's Ctrl-C (sent to lumatrace's group) does not reach.
            #expect(programGroup > 0 && programGroup != getpgrp())
            #expect(run.status != 0, "\(run)")
            #expect(run.stderr.contains("analyzer external failed at frame ") && run.stderr.contains("lumatrace received \(name)"), "\(run.stderr)")
            #expect(try EventLog.read(log).end?.failure?.analyzer == "external")
            try Self.expectGone(pids, expected: 1)
        }
    }

    @Test("Ctrl-C while the program pours out event lines stops the replay at once, with a finished log and no temporary file")
    func signalledWhileStreaming() throws {
        try withScratchFolder("cli") { dir in
            let pids = "\(dir)/pids"
            let log = "\(dir)/streaming.events.jsonl"
            let run = try Self.replay(mode: "streams", pids: pids, in: dir, log: log,
                                      options: Self.noTimeout + Self.unbounded, signals: [SIGINT])
            #expect(run.status != 0, "\(run)")
            #expect(run.stderr.contains("analyzer external failed at frame 3: ") && run.stderr.contains("lumatrace received SIGINT"), "\(run.stderr)")
            #expect(try EventLog.read(log).end?.failure?.analyzer == "external")
            #expect(try Self.temporaryFiles(in: dir).isEmpty)
            try Self.expectGone(pids, expected: 1)
        }
    }

    @Test("lumatrace killed outright (SIGKILL) leaves nothing of its program running: the reaper learns of its death")
    func killedOutright() throws {
        try withScratchFolder("cli") { dir in
            let pids = "\(dir)/pids"
            // The program hangs at frame 3 ignoring TERM; lumatrace is KILLed once it is there.
            let run = try Self.replay(mode: "ignores-term", pids: pids, in: dir, options: Self.noTimeout, signals: [SIGKILL])
            #expect(run.signal == SIGKILL, "\(run)")
            try Self.expectGone(pids, expected: 1)
        }
    }

    @Test("a second Ctrl-C does not wait for the grace period: the programs are killed and lumatrace ends by the signal")
    func signalledTwice() throws {
        try withScratchFolder("cli") { dir in
            let pids = "\(dir)/pids"
            let log = "\(dir)/twice.events.jsonl"
            let run = try Self.replay(mode: "ignores-term", pids: pids, in: dir, log: log, options: Self.noTimeout, signals: [SIGINT, SIGINT])
            // Ended by the signal, before the end of the grace period: a graceful stop ends with a
            // status and the log under its name, its footer naming the failure (`signalled`).
            #expect(run.signal == SIGINT, "\(run)")
            #expect(!FileManager.default.fileExists(atPath: log), "lumatrace finished its log: it waited for its programs")
            try Self.expectGone(pids, expected: 1)
        }
    }

    // MARK: - Memory bounds

    /// A limit on what a program may write for one frame, and a program that writes over it at frame 2.
    struct Bound: Sendable, CustomTestStringConvertible {
        var option: String
        var events: Int
        var bytes: Int
        var raisedTo: Int
        var message: String
        var testDescription: String { option }
    }

    @Test("more than a frame may hold is refused naming the option; raising the option lets it through", arguments: [
        Bound(option: "maximumLineBytes", events: 1, bytes: 2 << 20, raisedTo: 4_194_304,
              message: "wrote a line over 1048576 bytes at frame 2; if its events are really that large, raise external.maximumLineBytes (up to 268435456)"),
        Bound(option: "maximumEventsPerFrame", events: 1001, bytes: 10, raisedTo: 1001,
              message: "wrote over 1000 events at frame 2; if it really has that many, raise external.maximumEventsPerFrame (up to 1000000)"),
        // Within the other two limits (1000 lines of 1 MiB), a frame's events may still not take a gigabyte.
        Bound(option: "maximumBytesPerFrame", events: 20, bytes: 1_000_000, raisedTo: 32 << 20,
              message: "wrote over 16777216 bytes at frame 2; if its events are really that large, raise external.maximumBytesPerFrame (up to 1073741824)"),
    ])
    func bound(_ bound: Bound) throws {
        try withScratchFolder("cli") { dir in
            let replay = ["replay", Self.recording, "--analyzer", "external", "--set",
                          "external.command=\(try Self.emitter(events: bound.events, bytes: bound.bytes, in: dir))", "--to", "4"]
            let refused = try CLI.run(replay + ["-o", "\(dir)/refused.events.jsonl"])
            #expect(refused.status != 0)
            #expect(refused.stderr.contains("analyzer external failed at frame 2: ") && refused.stderr.contains(bound.message), "\(refused.stderr)")
            #expect(try EventLog.read("\(dir)/refused.events.jsonl").events.filter { $0.kind == "big" }.isEmpty)
            #expect(try Self.temporaryFiles(in: dir).isEmpty)

            let raised = try CLI.run(replay + ["--set", "external.\(bound.option)=\(bound.raisedTo)", "-o", "\(dir)/raised.events.jsonl"])
            #expect(raised.status == 0, "\(raised.stderr)")
            let events = try EventLog.read("\(dir)/raised.events.jsonl").events.filter { $0.kind == "big" }
            #expect(events.count == bound.events && events.allSatisfy { $0.frame == 2 })
            #expect(events.allSatisfy { $0.data["text"]?.stringValue?.utf8.count == bound.bytes })
        }
    }

    @Test("`lumatrace analyzers external` lists the limits with their ranges and defaults")
    func listed() throws {
        let r = try CLI.run(["analyzers", "external"])
        #expect(r.status == 0, "\(r.stderr)")
        for option in ["startTimeout", "0.1...3600 (default 10)", "maximumLineBytes", "1024...268435456 (default 1048576)",
                       "maximumEventsPerFrame", "1...1000000 (default 1000)",
                       "maximumBytesPerFrame", "1024...1073741824 (default 16777216)"] {
            #expect(r.stdout.contains(option), "\(r.stdout)")
        }
    }

    // MARK: - Support

    /// A Python program that writes, at frame 2, `events` events whose `text` is `bytes` long.
    static func emitter(events: Int, bytes: Int, in dir: String) throws -> String {
        try PythonPlugin.write("emitter", in: dir, perFrame: """
            if index == 2:
                for _ in range(\(events)):
                    sys.stdout.write(json.dumps({"kind": "big", "data": {"text": "x" * \(bytes)}}) + "\\n")
            """)
    }

    /// How long a replay may run before the test gives up on it: a hang guard, not a measurement
    /// (each of these replays ends within seconds, unless lumatrace hangs).
    static let patience = 60.0

    /// Runs `lumatrace replay` over the misbehaving ``program`` with output to files (so nothing a
    /// stray process holds open can block the test). `signals` are sent to lumatrace on events,
    /// never after a time: the first once the program hangs at frame 3, each next one once the
    /// program has received TERM (lumatrace acted on the one before); `programGroup` learns the
    /// program's process group before the first. lumatrace starts as from a shell, SIGINT and
    /// SIGTERM unblocked and at their defaults (``RunningProgram``).
    static func replay(mode: String, pids: String, in dir: String, log: String? = nil, options: [String],
                       signals: [Int32] = [], programGroup: (pid_t) -> Void = { _ in }) throws -> ProgramResult {
        let script = "\(dir)/program.py"
        try program.write(toFile: script, atomically: true, encoding: .utf8)
        let replay = try CLI.start(["replay", recording, "--analyzer", "differencing", "--analyzer", "external",
                                    "--set", "external.command=echo $$ >> \(pids); exec python3 \(script) \(mode) \(pids)", "--jobs", "1",
                                    "-o", log ?? "\(dir)/\(mode).events.jsonl"] + options,
                                   stderr: .file("\(dir)/stderr.txt"))
        for (k, signal) in signals.enumerated() {
            let event = pids + (k == 0 ? ".at-frame-3" : ".term")
            guard AwaitedEvent.wait(patience: patience, while: { replay.isRunning }, until: { FileManager.default.fileExists(atPath: event) }) else {
                Issue.record("lumatrace ended, or \(patience) s passed, before \(event) appeared")
                break
            }
            if k == 0, let first = try? String(contentsOfFile: pids, encoding: .utf8).split(separator: "\n").first, let pid = pid_t(first) {
                programGroup(getpgid(pid))
            }
            replay.signal(signal)
        }
        var result: ProgramResult
        do {
            result = try replay.wait(patience: patience)
        } catch {
            killAll(listedIn: pids)
            throw error
        }
        result.stderr = (try? String(contentsOfFile: "\(dir)/stderr.txt", encoding: .utf8)) ?? ""
        return result
    }

    /// The temporary files (`.NAME.PID-N.partial`) of logs in `dir`: none once a replay has ended,
    /// however it failed, unless it was killed.
    static func temporaryFiles(in dir: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".partial") }
    }

    /// Kills every process whose pid is in the file, so that a failing test leaves nothing behind.
    static func killAll(listedIn pids: String) {
        let list = ((try? String(contentsOfFile: pids, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { pid_t($0) }
        for pid in list { kill(pid, SIGKILL) }
    }

    /// Expects `expected` pids in the file, each process gone (waiting for that, with ``patience``
    /// as a hang guard: a process of the program that was not stopped hangs for an hour); kills
    /// any left, so that a failing test leaves nothing behind. A zombie has ended: once lumatrace
    /// has exited, it is init's to reap, not lumatrace's.
    static func expectGone(_ pids: String, expected: Int) throws {
        let list = try String(contentsOfFile: pids, encoding: .utf8).split(separator: "\n").compactMap { pid_t($0) }
        #expect(list.count == expected, "pids written: \(list)")
        func alive(_ pid: pid_t) -> Bool {
            guard kill(pid, 0) == 0 || errno != ESRCH else { return false }
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }  // just gone
            return stat.split(separator: ")").last?.split(separator: " ").first != "Z"
        }
        AwaitedEvent.wait(patience: patience) { !list.contains(where: alive) }
        for pid in list where alive(pid) {
            Issue.record("process \(pid) of the program still runs \(patience) s after the replay ended")
            kill(pid, SIGKILL)
        }
    }
}
