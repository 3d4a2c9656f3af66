import Foundation
import LumaAnalysis
import LumaEngine
import LumaFormat
import Testing

@Suite("A replay never destroys: not the recording, not a folder, not a device, not a good log")
struct LogSafetyTests {
    func replay(_ recording: String, to log: String, force: Bool = false, failAt: Int? = nil) throws {
        var setups = [try setup("differencing")]
        if let failAt { setups.append(try setup("brightness", [("failAtFrame", "\(failAt)")])) }
        var options = ReplayOptions()
        options.replaceExistingLog = force
        _ = try Replay.run(RecordingReader(path: recording), setups: setups, registry: testRegistry, options: options, logPath: log)
    }

    func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    @Test("-o naming the recording itself is refused and the recording is untouched")
    func outputIsTheRecording() throws {
        let rec = try makeMovingSquare(frames: 6)
        let before = bytes(rec)
        #expect(throws: ReplayError.self) { try replay(rec, to: rec, force: true) }
        #expect(bytes(rec) == before)
    }

    @Test("-o naming a folder is refused and the folder keeps its files")
    func outputIsAFolder() throws {
        let rec = try makeMovingSquare(frames: 6)
        let folder = rec + ".folder"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: URL(fileURLWithPath: folder + "/mine.txt"))
        #expect(throws: ReplayError.self) { try replay(rec, to: folder, force: true) }
        #expect(bytes(folder + "/mine.txt") == Data("keep".utf8))
    }

    @Test("-o /dev/null writes into the device, which stays a device")
    func outputIsADevice() throws {
        let rec = try makeMovingSquare(frames: 6)
        try replay(rec, to: "/dev/null")
        var st = stat()
        #expect(stat("/dev/null", &st) == 0 && (st.st_mode & S_IFMT) == S_IFCHR)
    }

    @Test("an existing log is replaced only with force, and never by a failed replay")
    func failedReplayKeepsTheGoodLog() throws {
        let rec = try makeMovingSquare(frames: 10)
        let log = rec + ".events.jsonl"
        try replay(rec, to: log)
        let good = bytes(log)
        #expect(throws: ReplayError.output(.exists(path: log))) { try replay(rec, to: log) }
        var message = ""
        do { try replay(rec, to: log, force: true, failAt: 6) } catch { message = "\(error)" }
        #expect(message.hasPrefix("analyzer brightness failed at frame 6"))
        #expect(message.contains("\(log) is untouched; this run's incomplete log is "))
        #expect(bytes(log) == good)
        #expect(try EventLog.read(log).isComplete)
        try replay(rec, to: log, force: true)
        #expect(bytes(log) == good)
    }

    @Test("two replays to one log at once: the second is refused, the first finishes whole")
    func concurrentReplaysToOneLog() throws {
        let rec = try makeMovingSquare(frames: 10)
        let log = rec + ".events.jsonl"
        let writer = try EventLogWriter(path: log, header: EventLog.read(replayToTemporary(rec)).header)
        #expect(throws: ReplayError.output(.busy(path: log))) { try replay(rec, to: log, force: true) }
        writer.abandon()
        try replay(rec, to: log)
        #expect(try EventLog.read(log).isComplete)
    }

    func replayToTemporary(_ rec: String) throws -> String {
        let out = rec + ".\(UUID().uuidString.prefix(6)).jsonl"
        try replay(rec, to: out)
        return out
    }

    @Test("a gap's reason does not depend on how the recording's path was typed")
    func gapReasonIsPathFree() throws {
        let rec = try makeMovingSquare(frames: 40)
        // Damage the last chunk's payload: every chunk holds frames of one second (30 ticks).
        let reader = try RecordingReader(path: rec)
        let last = try #require(reader.chunks.last)
        let handle = try #require(FileHandle(forUpdatingAtPath: rec))
        try handle.seek(toOffset: last.recordEnd - 16)
        handle.write(Data([0xFF, 0x00, 0xFF, 0x00]))
        try handle.close()
        let folder = URL(fileURLWithPath: rec).deletingLastPathComponent().path
        let name = URL(fileURLWithPath: rec).lastPathComponent
        var logs: [String] = []
        for typed in [rec, folder + "/./" + name] {
            let out = rec + ".\(UUID().uuidString.prefix(6)).jsonl"
            var options = ReplayOptions(skipDamaged: true)
            options.recordingName = nil
            _ = try Replay.run(RecordingReader(path: typed), setups: [try setup("differencing")], registry: testRegistry,
                               options: options, logPath: out)
            logs.append(try logText(out))
        }
        #expect(logs[0].contains("\"gap\""))
        #expect(logs[0] == logs[1])
    }
}
