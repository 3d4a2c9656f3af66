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

    /// Starts `lumatrace ARGS`, returns the process (stdout/stderr collected into files in `dir`).
    func start(_ arguments: [String], dir: String) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: CLI.binary)
        p.arguments = arguments
        FileManager.default.createFile(atPath: dir + "/err.txt", contents: nil)
        p.standardError = FileHandle(forWritingAtPath: dir + "/err.txt")
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        return p
    }

    /// Waits at most `seconds` for `p` to exit; kills it and returns false if it does not.
    func exits(_ p: Process, within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while p.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if p.isRunning {
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            return false
        }
        return true
    }

    @Test("a FIFO nobody writes to: SIGINT or SIGTERM ends record at once, with a message", arguments: [SIGINT, SIGTERM])
    func signalEndsTheWait(signal: Int32) throws {
        let dir = Scratch.folder("cli")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for name in ["cam.y4m", "cam"] {
            let input = try fifo(in: dir, named: name)
            let p = try start(["record", input, "-o", dir + "/\(name).luma"], dir: dir)
            // Signalled once record holds the FIFO open, waiting for a writer: its signal handling
            // is set up before it opens its input. A signal sent sooner could find it unprepared.
            let waiting = AwaitedEvent.wait(while: { p.isRunning }) { AwaitedEvent.process(p.processIdentifier, hasOpen: input) }
            #expect(waiting, "record \(name) did not open the FIFO: \((try? String(contentsOfFile: dir + "/err.txt", encoding: .utf8)) ?? "")")
            kill(p.processIdentifier, signal)
            #expect(exits(p, within: 5), "record \(name) ignored signal \(signal)")
            #expect(p.terminationStatus == 2)
            let stderr = try String(contentsOfFile: dir + "/err.txt", encoding: .utf8)
            #expect(stderr.contains("stopped by a signal before any frame arrived"), "\(stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/\(name).luma"))
        }
    }

    @Test("a Y4M stream through a FIFO without the .y4m extension records every byte")
    func fifoWithoutExtension() throws {
        let dir = Scratch.folder("cli")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (stream, _) = CLI.y4m(width: 48, height: 32, count: 12)
        let file = dir + "/clip.y4m"
        try stream.write(to: URL(fileURLWithPath: file))
        #expect(try CLI.run(["record", file, "-o", dir + "/from-file.luma"]).status == 0)

        let input = try fifo(in: dir, named: "camera")
        let p = try start(["record", input, "-o", dir + "/from-fifo.luma"], dir: dir)
        let writer = try #require(FileHandle(forWritingAtPath: input))  // blocks until record opened it
        writer.write(stream)
        try writer.close()
        #expect(exits(p, within: 20))
        #expect(p.terminationStatus == 0, "\((try? String(contentsOfFile: dir + "/err.txt", encoding: .utf8)) ?? "")")
        let a = try CLI.run(["info", dir + "/from-file.luma"]).stdout
        let b = try CLI.run(["info", dir + "/from-fifo.luma"]).stdout
        let digest = { (text: String) in text.split(separator: "\n").first { $0.contains("sha256") }.map(String.init) }
        #expect(digest(a) != nil)
        #expect(digest(a) == digest(b), "\(a)\n\(b)")
    }

    @Test("a FIFO carrying something other than Y4M is refused with how to pipe it through ffmpeg")
    func fifoWithVideo() throws {
        let dir = Scratch.folder("cli")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = try fifo(in: dir, named: "clip")
        let p = try start(["record", input, "-o", dir + "/clip.luma"], dir: dir)
        let writer = try #require(FileHandle(forWritingAtPath: input))
        writer.write(Data([0, 0, 0, 0x20] + Array("ftypisom".utf8) + [UInt8](repeating: 0, count: 200)))
        try writer.close()
        #expect(exits(p, within: 10))
        #expect(p.terminationStatus == 2)
        let stderr = try String(contentsOfFile: dir + "/err.txt", encoding: .utf8)
        #expect(stderr.contains("does not carry a Y4M stream; let ffmpeg read it"), "\(stderr)")
    }
}
