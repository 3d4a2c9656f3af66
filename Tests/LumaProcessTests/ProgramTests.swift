import LumaBase
import Foundation
import LumaProcess
import LumaTestSupport
import Synchronization
import Testing

/// The launcher with real programs (`/bin/sh`, `cat`, `true`, `false`): what each start, end, pipe
/// and signal gives. Every wait is for an event (a program's end, the end of a pipe), never for a
/// guessed time.
@Suite("Programs: started, talked to, signalled and reaped")
struct ProgramTests {
    // MARK: - Not started

    @Test("a program no folder of PATH holds is a typed error naming it, with the hint the tool carries")
    func missingTool() throws {
        let name = "lumatrace-no-such-program"
        #expect(throws: ProgramError.toolMissing(Tool(name))) { try Program(name).start() }
        let ffmpeg = Tool(name, purpose: "to read video files", install: "`sudo apt-get install ffmpeg` (Debian/Ubuntu)", otherwise: "or convert it elsewhere")
        let error = ProgramError.toolMissing(ffmpeg)
        #expect(throws: error) { try ffmpeg.path() }
        #expect(error.description == "\(name) is not installed, and it is needed to read video files. "
                + "Install it with `sudo apt-get install ffmpeg` (Debian/Ubuntu), or convert it elsewhere")
        #expect(ProgramError.toolMissing(Tool(name)).description == "\(name) is not installed (no folder of PATH holds it)")
    }

    @Test("a path that is missing or not executable: the program, the call and errno")
    func notStartable() throws {
        let missing = "/nonexistent/lumatrace-program"
        #expect(throws: ProgramError.systemCall(program: missing, SystemCallError(.spawn, errno: ENOENT))) { try Program(missing).start() }
        #expect(ProgramError.systemCall(program: missing, SystemCallError(.spawn, errno: ENOENT)).description
                == "cannot start /nonexistent/lumatrace-program: No such file or directory")
        let plain = Scratch.path("not-executable")
        try Data("echo hi\n".utf8).write(to: URL(fileURLWithPath: plain))
        #expect(throws: ProgramError.systemCall(program: plain, SystemCallError(.spawn, errno: EACCES))) { try Program(plain).start() }
        let folder = "/nonexistent/folder"
        #expect(throws: ProgramError.systemCall(program: "/bin/sh", SystemCallError(.changeFolder(folder), errno: ENOENT))) {
            try Program("/bin/sh", ["-c", "true"], workingDirectory: folder).start()
        }
    }

    @Test("a name is found on PATH the way a shell finds it: the first executable file, folders skipped")
    func pathSearch() throws {
        try withScratchFolder("path") { folder in
            let early = "\(folder)/early", late = "\(folder)/late"
            for made in [early, late] { try FileManager.default.createDirectory(atPath: made, withIntermediateDirectories: true) }
            // A folder of the name, and a file that is not executable, come before the program.
            try FileManager.default.createDirectory(atPath: "\(early)/tool", withIntermediateDirectories: true)
            try Data("#!/bin/sh\n".utf8).write(to: URL(fileURLWithPath: "\(early)/script"))
            for name in ["tool", "script"] {
                try Data("#!/bin/sh\necho \(name)\n".utf8).write(to: URL(fileURLWithPath: "\(late)/\(name)"))
                chmod("\(late)/\(name)", 0o755)
            }
            #expect(Tool.find("tool", searching: "\(early)::\(late)") == "\(late)/tool")
            #expect(Tool.find("script", searching: "\(early):\(late)/") == "\(late)/script")
            #expect(Tool.find("tool", searching: early) == nil)
            #expect(Tool.find("tool", searching: early, thenIn: [late]) == "\(late)/tool")
            #expect(Tool.find("../late/tool", searching: early) == nil, "a name with a slash is a path, never searched for")
            #expect(Tool.find("sh", searching: "/usr/bin:/bin") != nil)
        }
    }

    // MARK: - Ends

    @Test("exit statuses and signals are reported as they happened")
    func terminations() throws {
        #expect(try Program("true").run().termination == .exited(0))
        #expect(try Program("false").run().termination == .exited(1))
        #expect(try Program("/bin/sh", ["-c", "exit 3"]).run().termination == .exited(3))
        #expect(try Program("/bin/sh", ["-c", "kill -TERM $$"]).run().termination == .signalled(SIGTERM))
        #expect(Termination.exited(3).description == "exited with status 3" && Termination.signalled(9).description == "was killed by signal 9")

        // cat waits for input that never comes: it runs until signalled.
        for (signal, end) in [(SIGTERM, Termination.signalled(SIGTERM)), (SIGINT, .signalled(SIGINT))] {
            var cat = Program("cat")
            cat.standardInput = .pipe
            let running = try cat.start()
            #expect(try running.poll() == nil, "cat ended before its input did")
            #expect(running.signal(signal))
            #expect(try running.wait() == end)
            #expect(running.signal(SIGTERM) == false, "no signal once it has been reaped")
        }
        var cat = Program("cat")
        cat.standardInput = .pipe
        let killed = try cat.start()
        killed.kill()
        #expect(try killed.wait() == .signalled(SIGKILL))
        #expect(try killed.wait() == .signalled(SIGKILL), "waiting again says the same")
    }

    @Test("a program started fresh: signals at their defaults and unblocked, no descriptor of ours but its three streams")
    func freshStart() throws {
        // A descriptor of this process that is not closed on exec, as a careless library might leave one.
        var marker: [Int32] = [-1, -1]
        #expect(pipe(&marker) == 0)
        defer { for fd in marker { close(fd) } }
        let markerLink = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(marker[0])")
        // A program whose standard input is a pipe makes this process ignore SIGPIPE: cat must not.
        var cat = Program("cat")
        cat.standardInput = .pipe
        cat.standardOutput = .pipe
        let running = try cat.start()
        let status = try String(contentsOfFile: "/proc/\(running.pid)/status", encoding: .utf8)
        let fields = Dictionary(status.split(separator: "\n").compactMap { line -> (String, String)? in
            let parts = line.split(separator: ":", maxSplits: 1)
            return parts.count == 2 ? (String(parts[0]), parts[1].trimmingCharacters(in: .whitespaces)) : nil
        }, uniquingKeysWith: { a, _ in a })
        // Signals 1...31; glibc keeps its own two real-time signals (32, 33) ignored in every program it spawns.
        #expect(UInt64(fields["SigIgn"] ?? "", radix: 16).map { $0 & 0x7fff_ffff } == 0, "\(fields["SigIgn"] ?? "?")")
        #expect(fields["SigBlk"] == "0000000000000000", "\(fields["SigBlk"] ?? "?")")
        // What cat has open (it may briefly hold a locale file of its own): its pipes as 0 and 1, never the marker.
        let folder = "/proc/\(running.pid)/fd"
        let links = try FileManager.default.contentsOfDirectory(atPath: folder).compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\($0)") }
        #expect(!links.contains(markerLink), "\(links)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/0").hasPrefix("pipe:"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/1").hasPrefix("pipe:"))
        running.standardInput!.close()
        #expect(try running.wait() == .exited(0))
    }

    // MARK: - Streams

    @Test("pipes: what is written to standard input comes back on standard output; standard error apart")
    func pipes() throws {
        var cat = Program("cat")
        cat.standardInput = .pipe
        cat.standardOutput = .pipe
        let running = try cat.start()
        try running.standardInput!.writeAll(Array("first line\nsecond".utf8))
        running.standardInput!.close()
        #expect(try running.standardOutput!.readToEnd() == Array("first line\nsecond".utf8))
        #expect(try running.wait() == .exited(0))

        let both = try Program("/bin/sh", ["-c", "echo out; echo err >&2; exit 2"]).run()
        #expect(both == ProgramOutput(termination: .exited(2), standardOutput: Array("out\n".utf8), standardError: Array("err\n".utf8)))
    }

    @Test("a line reader hands over every line as it comes, the last one without its newline too, then the end")
    func lineReader() throws {
        var program = Program("/bin/sh", ["-c", "printf 'one\\ntwo\\n\\nlast' >&2"])
        program.standardError = .pipe
        let running = try program.start()
        let lines = Mutex<[String]>([]), ended = Mutex(false)
        let reader = LineReader(running.standardError!, thread: "test lines", line: { line in lines.withLock { $0.append(line) } },
                                end: { ended.withLock { $0 = true } })
        #expect(try running.wait() == .exited(0))
        reader.waitForEnd()
        reader.waitForEnd()
        #expect(lines.withLock { $0 } == ["one", "two", "", "last"])
        #expect(ended.withLock { $0 })
    }

    @Test("megabytes both ways through one thread: no deadlock on a full pipe")
    func largeInputAndOutput() throws {
        var generator = SeededGenerator(seed: 34)
        let input = (0..<(4 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        // cat's output fills its pipe long before its input is all written.
        let echoed = try Program("cat").run(input: input)
        #expect(echoed.termination == .exited(0))
        #expect(echoed.standardOutput == input)
        // A program that reads none of its input: the write fails, which is not an error of the run.
        let deaf = try Program("/bin/sh", ["-c", "exec 0<&-; echo done"]).run(input: input)
        #expect(deaf.termination == .exited(0) && deaf.standardOutputText == "done\n")
    }

    @Test("a program that stops reading: the write fails with EPIPE, naming it, and this process lives on")
    func brokenPipe() throws {
        var program = Program("/bin/sh", ["-c", "exit 0"])
        program.standardInput = .pipe
        let running = try program.start()
        #expect(try running.wait() == .exited(0))
        let chunk = [UInt8](repeating: 7, count: 1 << 20)
        #expect(throws: ProgramError.systemCall(program: "/bin/sh", SystemCallError(.write, errno: EPIPE))) { try running.standardInput!.writeAll(chunk) }
    }

    @Test("standard streams to and from files, and the environment and folder given")
    func filesEnvironmentFolder() throws {
        try withScratchFolder("program") { folder in
            let input = "\(folder)/in.txt", output = "\(folder)/out.txt"
            try Data("from a file\n".utf8).write(to: URL(fileURLWithPath: input))
            let inFile = open(input, O_RDONLY | O_CLOEXEC), outFile = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            defer { close(inFile); close(outFile) }
            var program = Program("/bin/sh", ["-c", "cat; echo \"$LUMATRACE_TEST|${HOME-unset}|$(pwd)\""],
                                  environment: ["LUMATRACE_TEST": "a value with spaces"], workingDirectory: folder)
            program.standardInput = .fileDescriptor(inFile)
            program.standardOutput = .fileDescriptor(outFile)
            #expect(try program.start().wait() == .exited(0))
            let realFolder = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
            #expect(try String(contentsOfFile: output, encoding: .utf8) == "from a file\na value with spaces|unset|\(realFolder)\n")
            // No environment given: this process's own.
            let inherited = try Program("/bin/sh", ["-c", "echo \"$PATH\""]).run()
            #expect(inherited.standardOutputText == (ProcessInfo.processInfo.environment["PATH"] ?? "") + "\n")
        }
    }

    // MARK: - Groups, reaping

    @Test("its own process group when asked: signals to the group reach what it started")
    func processGroups() throws {
        var plain = Program("cat")
        plain.standardInput = .pipe
        let inLumatracesGroup = try plain.start()
        #expect(getpgid(inLumatracesGroup.pid) == getpgrp())
        var leader = Program("/bin/sh", ["-c", "sleep 600 & echo $!; wait"])
        leader.ownProcessGroup = true
        leader.standardOutput = .pipe
        let running = try leader.start()
        #expect(getpgid(running.pid) == running.pid)
        let sleeper = try Self.firstLine(of: running.standardOutput!)
        #expect(getpgid(sleeper) == running.pid)
        running.terminate()
        #expect(try running.wait() == .signalled(SIGTERM))
        #expect(AwaitedEvent.wait { !Self.isRunning(sleeper) }, "the group's other process still runs")
    }

    @Test("no zombie: a program is reaped by wait, by poll, and when its handle is released unwaited")
    func noZombies() throws {
        let done = try Program("true").start()
        let pid = done.pid
        #expect(try done.wait() == .exited(0))
        #expect(kill(pid, 0) == -1 && errno == ESRCH, "reaped: no such process left")

        var cat = Program("cat")
        cat.standardInput = .pipe
        let polled = try cat.start()
        #expect(try polled.poll() == nil)
        polled.standardInput!.close()
        #expect(AwaitedEvent.wait { (try? polled.poll()) != nil })
        #expect(polled.termination == .exited(0))
        #expect(kill(polled.pid, 0) == -1 && errno == ESRCH)

        var released: pid_t = 0
        do {
            let running = try cat.start()
            released = running.pid
            #expect(kill(released, 0) == 0)
        }
        #expect(kill(released, 0) == -1 && errno == ESRCH, "a handle released unwaited kills and reaps its program")
    }

    @Test("under a reaper: its exit status, TERM and KILL through the reaper, and nothing it started outlives it")
    func reaper() throws {
        var quick = Program("/bin/sh", ["-c", "exit 7"])
        quick.reaper = .init(gracePeriod: 1)
        #expect(try quick.run().termination == .exited(7))

        for (end, expected) in [(RunningProgram.terminate, Termination.signalled(SIGTERM)), (RunningProgram.kill, .signalled(SIGKILL))] {
            // A daemon in a session of its own, which has left the program's group, then the program waits on stdin.
            var program = Program("/bin/sh", ["-c", "setsid sleep 600 & echo $!; exec cat"])
            program.reaper = .init(gracePeriod: 1)
            program.standardInput = .pipe
            program.standardOutput = .pipe
            let running = try program.start()
            #expect(running.underReaper && getpgid(running.pid) == running.pid)
            let daemon = try Self.firstLine(of: running.standardOutput!)
            #expect(AwaitedEvent.wait { getsid(daemon) == daemon }, "the daemon never led a session of its own")
            end(running)()
            #expect(try running.wait() == expected)
            #expect(AwaitedEvent.wait { !Self.isRunning(daemon) }, "the daemon outlived its program's reaper")
        }
    }

    // MARK: - Helpers

    /// The number a program printed on its first line.
    static func firstLine(of pipe: ProgramPipe) throws -> pid_t {
        var line: [UInt8] = []
        var byte: [UInt8] = [0]
        while try byte.withUnsafeMutableBytes({ try pipe.read(into: $0) }) == 1, byte[0] != 10 { line.append(byte[0]) }
        return try #require(pid_t(String(decoding: line, as: UTF8.self)))
    }

    /// Whether `pid` runs: exists and is not a zombie (an orphan waits for init to reap it).
    static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(close, offsetBy: 2)] != "Z"
    }
}
