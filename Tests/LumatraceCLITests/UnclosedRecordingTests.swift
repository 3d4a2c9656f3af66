import Foundation
import Testing
import LumaTestSupport

/// `verify`, `regress` and `diff --recording` given a recording whose writer never closed it (killed, full disk): no
/// index, so its frames digest is that of whatever a scan finds (nothing, when it died before its
/// first chunk). They say it was not closed and what rewrites it, not only that the digest differs.
@Suite("verify and regress on a recording that was never closed")
struct UnclosedRecordingTests {
    static let recordings = PackageLayout.root.appendingPathComponent("Recordings")

    /// A scratch copy of toss-real's golden, truth and recording, the recording cut to its first
    /// `keeping` bytes (its index and trailer gone, as a killed recorder leaves it).
    func withUnclosedToss<T>(keeping fraction: Double, _ body: (_ folder: String) throws -> T) throws -> T {
        try withScratchFolder("unclosed") { folder in
            for file in ["toss-real.events.jsonl", "toss-real.truth.json", "toss-real.luma"] {
                try FileManager.default.copyItem(atPath: Self.recordings.appendingPathComponent(file).path, toPath: folder + "/" + file)
            }
            let recording = folder + "/toss-real.luma"
            let size = try #require(try FileManager.default.attributesOfItem(atPath: recording)[.size] as? Int)
            let handle = try #require(FileHandle(forWritingAtPath: recording))
            try handle.truncate(atOffset: UInt64(Double(size) * fraction))
            try handle.close()
            return try body(folder)
        }
    }

    /// Half the file (some complete chunks, then a torn one) and only its first bytes (no chunk at all).
    @Test("verify says the recording was not closed and that recover rewrites it", arguments: [0.5, 0.01])
    func verify(_ fraction: Double) throws {
        try withUnclosedToss(keeping: fraction) { folder in
            let r = try CLI.run(["verify", folder + "/toss-real.events.jsonl"])
            #expect(r.status != 0)
            #expect(r.stderr.contains("toss-real.luma was not closed") && r.stderr.contains("`lumatrace recover` rewrites it"), "\(r.stderr)")
            #expect(!r.stderr.contains("e3b0c442"), "\(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1, "one line: \(r.stderr)")
        }
    }

    @Test("info on a closed recording whose index is damaged says so (found by scanning), not that it was never closed")
    func damagedIndex() throws {
        try withScratchFolder("unclosed") { folder in
            let recording = folder + "/toss-real.luma"
            try FileManager.default.copyItem(atPath: Self.recordings.appendingPathComponent("toss-real.luma").path, toPath: recording)
            var bytes = try #require(FileManager.default.contents(atPath: recording))
            // The last bytes before the 20-byte trailer are the index record's: one flipped, the trailer intact.
            bytes[bytes.count - 20 - 8] ^= 0xFF
            try bytes.write(to: URL(fileURLWithPath: recording))
            let r = try CLI.run(["info", recording])
            #expect(r.stdout.contains("the recording was closed, but its index is damaged or does not match its chunks"), "\(r.stdout) \(r.stderr)")
            #expect(!r.stdout.contains("not closed"), "\(r.stdout)")
        }
    }

    @Test("regress reports the golden as an error that says the recording was not closed", arguments: [0.5, 0.01])
    func regress(_ fraction: Double) throws {
        try withUnclosedToss(keeping: fraction) { folder in
            let r = try CLI.run(["regress", folder])
            #expect(r.status == 2, "\(r.stdout)\(r.stderr)")
            let line = try #require(r.stdout.split(separator: "\n").first { $0.hasPrefix("toss-real.events.jsonl: error: ") }, "\(r.stdout)")
            #expect(line.contains("toss-real.luma was not closed") && line.contains("`lumatrace recover` rewrites it"), "\(line)")
            #expect(!line.contains("e3b0c442"))
        }
    }

    @Test("diff --recording says so too")
    func diffAgainstRecording() throws {
        try withUnclosedToss(keeping: 0.5) { folder in
            let log = folder + "/toss-real.events.jsonl"
            let r = try CLI.run(["diff", log, log, "--recording", folder + "/toss-real.luma"])
            #expect(r.status == 2)
            #expect(r.stderr.contains("toss-real.luma was not closed") && r.stderr.contains("`lumatrace recover` rewrites it"), "\(r.stderr)")
        }
    }

    @Test("a closed recording that is not the golden's still says so by its digest")
    func wrongButClosed() throws {
        try withScratchFolder("unclosed") { folder in
            try FileManager.default.copyItem(atPath: Self.recordings.appendingPathComponent("toss-real.events.jsonl").path,
                                             toPath: folder + "/toss-real.events.jsonl")
            try FileManager.default.copyItem(atPath: Self.recordings.appendingPathComponent("balls-synth.luma").path,
                                             toPath: folder + "/toss-real.luma")
            let r = try CLI.run(["verify", folder + "/toss-real.events.jsonl"])
            #expect(r.status != 0)
            #expect(r.stderr.contains("is not the recording") && !r.stderr.contains("not closed"), "\(r.stderr)")
        }
    }
}
