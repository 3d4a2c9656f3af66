import Foundation
import Testing
import LumaTestSupport

@Suite("FIFOs and devices as record input: signals always end it, no byte is lost to sniffing (issue 15, item 12)")
struct StreamInputTests {
    func fifo(in dir: String, named name: String) throws -> String {
        let path = dir + "/" + name
        #expect(mkfifo(path, 0o644) == 0)
        return path
    }

    /// Starts `lumatrace ARGS`, its stderr collected into `err.txt` in `dir` (to read while it runs).
    func start(_ arguments: [String], dir: String) throws -> RunningProgram {
        try CLI.start(arguments, stderr: .file(dir + "/err.txt"))
    }

    /// How long record may take to end: a hang guard, not a measurement.
    static let patience = 60.0

    /// Rounds of each signal and FIFO: a signal lost at start-up (issue 34: record ignored SIGINT
    /// and SIGTERM until libdispatch had registered its signal sources, so one that came as soon as
    /// the FIFO was open was dropped, a few times in a hundred) shows in some round.
    static let signalRounds = TestRounds.count("LUMATRACE_SIGNAL_ROUNDS", quick: 5)

    @Test("a FIFO nobody writes to: SIGINT or SIGTERM ends record at once, with a message", arguments: [SIGINT, SIGTERM])
    func signalEndsTheWait(signal: Int32) throws {
        try withScratchFolder("cli") { dir in
            for round in 0..<Self.signalRounds {
                for name in ["cam.y4m", "cam"] {
                    let input = try fifo(in: dir, named: "\(round)-\(name)"), output = dir + "/\(round)-\(name).luma"
                    let p = try start(["record", input, "-o", output], dir: dir)
                    // Signalled once record holds the FIFO open, waiting for a writer: its signal handling
                    // is set up before it opens its input. A signal sent sooner could find it unprepared.
                    let waiting = AwaitedEvent.wait(while: { p.isRunning }) { AwaitedEvent.process(p.pid, hasOpen: input) }
                    #expect(waiting, "record \(name) did not open the FIFO: \((try? String(contentsOfFile: dir + "/err.txt", encoding: .utf8)) ?? "")")
                    p.signal(signal)
                    // Ending "at once" shows in how it ended: status 2 and the message of a stop before any
                    // frame (nothing ever writes to the FIFO); the patience only guards against a hang.
                    let result = try p.wait(patience: Self.patience)
                    #expect(result.status == 2, "round \(round), record \(name), signal \(signal): \(result)")
                    let stderr = try String(contentsOfFile: dir + "/err.txt", encoding: .utf8)
                    #expect(stderr.contains("stopped by a signal before any frame arrived"), "\(stderr)")
                    #expect(!FileManager.default.fileExists(atPath: output))
                }
            }
        }
    }

    @Test("a Y4M stream through a FIFO without the .y4m extension records every byte")
    func fifoWithoutExtension() throws {
        try withScratchFolder("cli") { dir in
            let (stream, _) = CLI.y4m(width: 48, height: 32, count: 12)
            let file = dir + "/clip.y4m"
            try stream.write(to: URL(fileURLWithPath: file))
            #expect(try CLI.run(["record", file, "-o", dir + "/from-file.luma"]).status == 0)

            let input = try fifo(in: dir, named: "camera")
            let p = try start(["record", input, "-o", dir + "/from-fifo.luma"], dir: dir)
            try #require(AwaitedEvent.wait(while: { p.isRunning }) { AwaitedEvent.process(p.pid, hasOpen: input) }, "record did not open the FIFO")
            let writer = try #require(FileHandle(forWritingAtPath: input))  // record has it open: does not block
            writer.write(stream)
            try writer.close()
            let result = try p.wait(patience: Self.patience)
            #expect(result.status == 0, "\((try? String(contentsOfFile: dir + "/err.txt", encoding: .utf8)) ?? "")")
            let a = try CLI.run(["info", dir + "/from-file.luma"]).stdout
            let b = try CLI.run(["info", dir + "/from-fifo.luma"]).stdout
            let digest = { (text: String) in text.split(separator: "\n").first { $0.contains("sha256") }.map(String.init) }
            #expect(digest(a) != nil)
            #expect(digest(a) == digest(b), "\(a)\n\(b)")
        }
    }

    @Test("a FIFO carrying something other than Y4M is refused with how to pipe it through ffmpeg")
    func fifoWithVideo() throws {
        try withScratchFolder("cli") { dir in
            let input = try fifo(in: dir, named: "clip")
            let p = try start(["record", input, "-o", dir + "/clip.luma"], dir: dir)
            try #require(AwaitedEvent.wait(while: { p.isRunning }) { AwaitedEvent.process(p.pid, hasOpen: input) }, "record did not open the FIFO")
            let writer = try #require(FileHandle(forWritingAtPath: input))  // record has it open: does not block
            writer.write(Data([0, 0, 0, 0x20] + Array("ftypisom".utf8) + [UInt8](repeating: 0, count: 200)))
            try writer.close()
            let result = try p.wait(patience: Self.patience)
            #expect(result.status == 2, "\(result)")
            let stderr = try String(contentsOfFile: dir + "/err.txt", encoding: .utf8)
            #expect(stderr.contains("does not carry a Y4M stream; let ffmpeg read it"), "\(stderr)")
        }
    }
}
