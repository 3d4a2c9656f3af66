import Foundation
import LumaAnalysis
import LumaEngine
import LumaFormat
import Synchronization
import Testing
import LumaTestSupport

/// A live recorder fed over a pipe, at a steady rate, by a thread of the test: frames are
/// generated from their index, so what the recorder kept can be compared with what was sent.
final class LiveFeed: Sendable {
    static let (width, height) = (320, 240)  // 76.8 kB: more than a pipe buffer, so at most one frame is in flight

    let recorder: RunningProgram
    /// Frames written to the pipe completely, and whether to stop.
    private let progress = Mutex((sent: 0, stopped: false))
    /// Signalled when the feeding thread has closed the pipe and ended.
    private let fed = DispatchSemaphore(value: 0)

    /// A pattern twice the frame size, which frames are windows of.
    private static let pattern: [UInt8] = {
        var state: UInt32 = 12345
        return (0..<(2 * width * height)).map { j in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: j / 7 + Int(state >> 29))
        }
    }()

    /// Frame `i` of the stream: a window of the pattern that moves 7 bytes a frame (cheap to make
    /// in a debug build, different in every frame, not trivially compressible).
    static func frame(_ i: Int) -> [UInt8] {
        let start = (i * 7) % (width * height)
        return Array(pattern[start..<(start + width * height)])
    }

    /// Frames written to the pipe completely.
    var framesSent: Int { progress.withLock { $0.sent } }

    /// Starts `lumatrace record - --live` and the thread that feeds it a frame every
    /// `frameInterval` (the camera's pace, not a wait for anything).
    init(output: String, arguments: [String] = [], frameInterval: TimeInterval = 0.004) throws {
        // Evenly spaced timestamps (not arrival times), which `check` compares with the frames sent.
        recorder = try CLI.start(["record", "-", "--live", "--timestamps", "rate", "-o", output] + arguments, stdin: .pipe)
        let input = recorder.input!
        Thread.detachNewThread { [self] in
            defer {  // the thread owns the pipe's end: closed here, never under a write
                try? input.close()
                fed.signal()
            }
            let fd = input.fileDescriptor
            if !Self.write(fd, Array("YUV4MPEG2 W\(Self.width) H\(Self.height) F30:1 Ip A1:1 Cmono\n".utf8)) { return }
            var i = 0
            while !progress.withLock({ $0.stopped }) {
                guard Self.write(fd, Array("FRAME\n".utf8) + Self.frame(i)) else { return }  // the recorder has gone
                i += 1
                progress.withLock { $0.sent = i }
                Thread.sleep(forTimeInterval: frameInterval)
            }
        }
    }

    /// Whether the recorder has taken `frames` frames; false if it ended first.
    func reached(_ frames: Int) -> Bool {
        AwaitedEvent.wait(while: { recorder.isRunning }) { framesSent >= frames }
    }

    /// Waits for the recorder to end (signalled, or on its own), then stops feeding; returns how
    /// it ended and the frames sent.
    func finish(patience: TimeInterval = ProgramRun.patience) throws -> (result: ProgramResult, sent: Int) {
        let result = try recorder.wait(patience: patience)
        let sent = framesSent
        progress.withLock { $0.stopped = true }
        fed.wait()  // a write to a recorder that has exited fails at once
        return (result, sent)
    }

    private static func write(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }
}

/// Checks a recording against the frames the feed sent: every frame byte-identical, timestamps
/// 0, 1, 2, … (30 fps, timescale 30). Returns how many frames it holds.
func checkFramesMatchFeed(_ path: String) throws -> (frames: Int, largestChunk: Int) {
    let reader = try RecordingReader(path: path)
    for frame in try decodedFrames(reader) {
        #expect(frame.pixels == LiveFeed.frame(frame.index), "frame \(frame.index) of \(path) differs from the frame sent")
    }
    return (reader.frameCount, reader.chunks.map(\.frameCount).max() ?? 0)
}

@Suite("Nothing lost: killed recorders and replays, full disks", .serialized)
struct CrashSafetyTests {
    /// Kills in the quick run (CI); `LUMATRACE_KILLS=50 swift test --filter CrashSafety` for the long one.
    static let kills = TestRounds.count("LUMATRACE_KILLS", quick: 4)

    @Test("a recorder killed with SIGKILL at seeded points of its stream keeps every frame up to the last complete chunk, byte-identical")
    func killedRecorder() throws {
        try withScratchFolder("cli") { dir in
            var schedule = SeededGenerator(seed: 20261123)  // the kill points are random but the same on every run
            var worstLost = 0, worstChunk = 0, recoveredTotal = 0
            for k in 0..<Self.kills {
                let output = "\(dir)/killed-\(k).luma"
                let feed = try LiveFeed(output: output, arguments: ["--chunk-seconds", "0.2"])
                // Killed once the recorder has taken a seeded number of frames (a frame is larger than
                // the pipe, so a frame sent is one the recorder has read), whatever the machine's speed.
                let target = Int(schedule.uniform(in: 100...600))
                let reached = feed.reached(target)
                // The chunks complete in the file just before the kill (the scan a reader makes of an
                // unclosed recording): every one of their frames must come back.
                let written = (try? RecordingReader(path: output))?.frameCount ?? 0
                feed.recorder.signal(SIGKILL)
                let (result, sent) = try feed.finish()
                try #require(reached, "kill \(k): the recorder ended before taking \(target) frames: \(result)")
                // A killed recorder leaves no index: `recover` rewrites it, keeping every complete chunk.
                let recover = try CLI.run(["recover", output])
                #expect(recover.status == 0, "kill \(k): \(recover.stderr)")
                let (kept, largestChunk) = try checkFramesMatchFeed(output)
                recoveredTotal += kept
                #expect(kept <= sent)
                // What is lost is what was not yet written: the chunk being filled, the frames the
                // writer thread had still to append (as many as it fell behind: a busy machine makes
                // that more), and the frame in the pipe. Never a frame of a chunk already written.
                #expect(kept >= written, "kill \(k): \(written) frames were in complete chunks before the kill, \(kept) recovered")
                let lost = sent - kept
                worstLost = max(worstLost, lost)
                worstChunk = max(worstChunk, largestChunk)
                try? FileManager.default.removeItem(atPath: output)
            }
            TestFigures.record("killed recorder: \(Self.kills) SIGKILLs survived, \(recoveredTotal) frames recovered, worst loss \(worstLost) frames (chunks of up to \(worstChunk) frames)", named: "killed-recorder.txt")
        }
    }

    @Test("SIGTERM and SIGINT close the recording properly: indexed, nothing lost of what arrived", arguments: [SIGTERM, SIGINT])
    func terminatedRecorder(signal: Int32) throws {
        try withScratchFolder("cli") { dir in
            let output = "\(dir)/terminated.luma"
            let feed = try LiveFeed(output: output, arguments: ["--chunk-seconds", "0.2"])
            // Signalled once frames have arrived (and so once its signal handling is set up).
            let reached = feed.reached(30)
            feed.recorder.signal(signal)
            let (result, sent) = try feed.finish()
            try #require(reached, "the recorder ended before taking 30 frames: \(result)")
            #expect(result.status == 0, "\(result)")
            let reader = try RecordingReader(path: output)
            #expect(reader.hasIndex)
            let (kept, _) = try checkFramesMatchFeed(output)
            #expect(kept > 0 && sent - kept <= 1, "\(sent) frames sent, \(kept) recorded")
        }
    }

    @Test("a full disk stops the recorder with a clear error; every complete chunk before it is recovered",
          .enabled(if: SmallDisk.canMount, "mounting a small tmpfs needs root"))
    func fullDisk() throws {
        try SmallDisk.with(kilobytes: 1024) { disk in try withScratchFolder("cli") { dir in
            let output = "\(disk.path)/full.luma"
            let feed = try LiveFeed(output: output, arguments: ["--chunk-seconds", "0.2"], frameInterval: 0.001)
            let (result, sent) = try feed.finish()
            #expect(result.status != 0, "the recorder must fail when the disk is full")
            let message = result.stderr
            #expect(message.hasPrefix("lumatrace: error: \(output): write failed: No space left on device"))
            #expect(message.contains("lumatrace recover \(output) -o OTHER.luma"))
            let recovered = dir + "/recovered.luma"
            let recover = try CLI.run(["recover", output, "-o", recovered])
            #expect(recover.status == 0, "\(recover.stderr)")
            let (kept, largestChunk) = try checkFramesMatchFeed(recovered)
            #expect(kept > 0)
            // Lost: the chunk being filled, the frame the write failed on, and frames that had
            // arrived for the writer (its own thread) after that one, which the message names.
            let after = message.firstMatch(of: /with frames? (\d+)(?:…(\d+))? received after it/).map { m in
                (m.2.flatMap { Int($0) } ?? Int(m.1)!) - Int(m.1)! + 1
            } ?? 0
            #expect(sent - kept <= largestChunk + 1 + after, "\(sent) frames sent, \(kept) recovered, chunks of up to \(largestChunk), \(after) after the failure")
            TestFigures.record("full disk (1 MiB tmpfs): \(sent) frames sent, \(kept) recovered", named: "full-disk.txt")
        } }
    }

    /// Replays killed in the quick run; `LUMATRACE_REPLAY_KILLS=50 swift test --filter CrashSafety` for the long one.
    static let replayKills = TestRounds.count("LUMATRACE_REPLAY_KILLS", quick: 2)

    @Test("replays killed at seeded points of their log leave a valid partial log (no footer) and never replace the good log, nor leave a lock")
    func killedReplays() throws {
        try withScratchFolder("cli") { dir in
            let recording = try CLI.synth("tracking", to: "\(dir)/long.luma", frames: 600, seed: 3)
            let log = "\(dir)/long.events.jsonl"
            #expect(try CLI.run(["replay", recording, "--analyzer", "differencing", "-o", log]).status == 0)
            let good = try #require(FileManager.default.contents(atPath: log))
            // How large the log of the replay that gets killed grows, so that the kills land inside it.
            let arguments = ["replay", recording, "--analyzer", "differencing", "--analyzer", "trajectory", "--jobs", "1"]
            #expect(try CLI.run(arguments + ["-o", "\(dir)/whole.events.jsonl"]).status == 0)
            let whole = AwaitedEvent.fileSize("\(dir)/whole.events.jsonl")
            try #require(whole > 1 << 20, "the whole log is \(whole) bytes: too few 64 KiB flushes to kill a replay between")
            var schedule = SeededGenerator(seed: 77)  // the kill points are random but the same on every run
            var survived = 0, partialEvents = 0
            for round in 0..<Self.replayKills {
                let replay = try CLI.start(arguments + ["-o", log, "--force"])
                // The log is written to a temporary sibling named by the writer's process id, 64 KiB at a time.
                let partial = "\(dir)/.long.events.jsonl.\(replay.pid)-1.partial"
                // Killed once that file has grown past a seeded size, at most 60% of the whole log: the
                // replay then has 40% of its frames still to analyze, and cannot finish between the
                // look and the kill however busy the machine is.
                let point = Int(schedule.uniform(in: 2_000...(0.6 * Double(whole))))
                let reached = AwaitedEvent.wait(while: { replay.isRunning }) { AwaitedEvent.fileSize(partial) >= point }
                replay.signal(SIGKILL)
                let ended = try replay.wait()
                try #require(reached, "round \(round): the replay ended before its log reached \(point) of \(whole) bytes: \(ended)")
                #expect(ended.signal == SIGKILL, "round \(round): the replay ended on its own, not by the kill: \(ended)")

                #expect(FileManager.default.contents(atPath: log) == good, "round \(round): the good log was replaced")
                let bytes = try #require(FileManager.default.contents(atPath: partial))
                var lines = bytes.split(separator: 10, omittingEmptySubsequences: false)
                if lines.last?.isEmpty == false { lines.removeLast() }  // the line being written when it was killed
                if lines.last?.isEmpty == true { lines.removeLast() }
                #expect(lines.count > 1)
                for (i, line) in lines.enumerated() {
                    let json = try JSONParser.parse(Array(line))
                    #expect(json["end"] == nil, "round \(round): line \(i + 1) is a footer in a killed replay's log")
                }
                let complete = lines.map { Array($0) + [10] }.flatMap { $0 }
                let read = try EventLog.parse(complete, path: partial)
                #expect(!read.isComplete)
                #expect(read.events.count == lines.count - 1)
                // The kernel dropped the dead writer's claim: the next replay takes the log at once.
                try FileManager.default.removeItem(atPath: partial)
                if FileManager.default.contents(atPath: log) == good, !read.isComplete { survived += 1 }
                partialEvents += read.events.count
            }
            let next = try CLI.run(["replay", recording, "--analyzer", "differencing", "-o", log, "--force"])
            #expect(next.status == 0, "\(next.stderr)")
            #expect(FileManager.default.contents(atPath: log) == good)
            TestFigures.record("killed replays: \(survived) of \(Self.replayKills) left the good log untouched and a valid partial log (\(partialEvents) events in the partial logs)", named: "killed-replays.txt")
        }
    }

    /// Rounds of concurrent writers in the quick run; `LUMATRACE_WRITER_ROUNDS=20` for the long one.
    static let writerRounds = TestRounds.count("LUMATRACE_WRITER_ROUNDS", quick: 1)

    @Test("concurrent writers of one log or one recording: one wins whole, the others are refused, nothing is damaged")
    func concurrentWriters() throws {
        try withScratchFolder("cli") { dir in
            let source = try CLI.synth("balls", to: "\(dir)/source.luma", frames: 120, seed: 5)
            let y4m = "\(dir)/source.y4m"
            #expect(try CLI.run(["export", source, "--format", "y4m", "-o", y4m]).status == 0)
            var refused = 0, won = 0
            for round in 0..<Self.writerRounds {
                for (output, arguments) in [("\(dir)/shared.events.jsonl", ["replay", source, "--analyzer", "differencing", "--analyzer", "trajectory"]),
                                            ("\(dir)/shared.luma", ["record", y4m])] {
                    let writers = try (0..<4).map { _ in try CLI.start(arguments + ["-o", output, "--force"]) }
                    let results = try writers.map { try $0.wait() }
                    for result in results where result.status != 0 {
                        #expect(result.stderr.contains("another lumatrace process is writing it"), "round \(round): \(result)")
                        refused += 1
                    }
                    won += results.filter { $0.status == 0 }.count
                    #expect(results.contains { $0.status == 0 }, "round \(round): no writer of \(output) finished")
                    if output.hasSuffix(".luma") {
                        let info = try CLI.run(["info", output])
                        #expect(info.status == 0 && info.stdout.contains("damage        none"), "\(info.stdout)\(info.stderr)")
                        #expect(info.stdout.contains("frames        120"), "\(info.stdout)")
                    } else {
                        let verify = try CLI.run(["verify", output])
                        #expect(verify.status == 0, "round \(round): \(verify.stdout)\(verify.stderr)")
                    }
                    let names = try FileManager.default.contentsOfDirectory(atPath: dir)
                    #expect(!names.contains { $0.hasSuffix(".partial") || $0.hasSuffix(".lock") }, "round \(round): left \(names)")
                }
            }
            TestFigures.record("concurrent writers: \(Self.writerRounds * 2) rounds of 4, \(won) finished whole, \(refused) refused naming the other writer, no file damaged", named: "concurrent-writers.txt")
        }
    }

    @Test("a damaged chunk: info names it, replay stops naming it, --skip-damaged replays around it and logs the gap")
    func damagedRecording() throws {
        try withScratchFolder("cli") { dir in
            let recording = "\(dir)/damaged.luma"
            // 90 frames in chunks of 0.5 s (15 frames), a square moving right; chunk 1 damaged.
            let chunks = try DamagedRecording.write(to: recording, width: 160, height: 90, frameCount: 90, damagedChunks: [1]) { i, f in
                for k in f.indices { f[k] = 40 }
                for y in 30..<40 { for x in (i + 10)..<(i + 20) { f[y * 160 + x] = 200 } }
            }
            try #require(chunks.count == 6)
            let victim = chunks[1]
            let frames = "\(victim.firstFrame)...\(victim.firstFrame + victim.frameCount - 1)"

            let info = try CLI.run(["info", recording])
            #expect(info.stdout.contains("chunk 1") && info.stdout.contains(frames), "\(info.stdout)")
            let stopped = try CLI.run(["replay", recording, "--analyzer", "differencing", "-o", "\(dir)/a.events.jsonl"])
            #expect(stopped.status != 0)
            #expect(stopped.stderr.contains("chunk 1 (frames \(frames)) is damaged") && stopped.stderr.contains("--skip-damaged"))
            let skipped = try CLI.run(["replay", recording, "--analyzer", "differencing", "--skip-damaged", "-o", "\(dir)/b.events.jsonl"])
            #expect(skipped.status == 0, "\(skipped.stderr)")
            let log = try EventLog.read("\(dir)/b.events.jsonl")
            let gaps = log.events.filter { $0.analyzer == "engine" }
            #expect(gaps.count == 1)
            #expect(gaps.first?.frame == victim.firstFrame)
            #expect(!log.events.contains { $0.analyzer == "differencing" && (victim.firstFrame..<victim.firstFrame + victim.frameCount).contains($0.frame) })
        }
    }
}
