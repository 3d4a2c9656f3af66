import Foundation
import LumaBase
import LumaFormat
import Testing
import LumaTestSupport

/// Numbers and sizes read from a file are range-checked where they enter, so no arithmetic on
/// them can trap and no claim allocates memory the data does not back.
@Suite("Hostile values in recordings and streams are refused where they enter")
struct HostileValueTests {
    @Test("a chunk stamped Int64.min (valid CRC) is damage named by verify, not a trap downstream")
    func minimumTimestamp() throws {
        let path = Scratch.path("min-ticks.luma")
        try writeRecording(path, width: 16, height: 16, count: 10)
        let bytes = try #require(CraftedBytes.stampingFirstChunk(of: try fileBytes(path), ticks: .min))
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let reader = try RecordingReader(path: path)
        let damage = reader.verify()
        #expect(damage.count == 1, "\(damage)")
        // The index no longer matches the chunk it points at, so the reader scans (format v2's rule:
        // an index is trusted only where it agrees with the chunks), and the scan names the chunk.
        #expect(damage.first?.cause == .impossibleChunkHeader, "\(damage)")
    }

    @Test("a timestamp from a flag beyond any recording's range has no tick count, and never traps")
    func secondsToTicks() {
        #expect(Int64.ticks(exactlyForSeconds: 1e300, timescale: 90000) == nil)
        #expect(Int64.ticks(exactlyForSeconds: 1e19, timescale: 90000) == nil)
        #expect(Int64.ticks(exactlyForSeconds: .infinity, timescale: 90000) == nil)
        #expect(Int64.ticks(exactlyForSeconds: 2.5, timescale: 90000) == 225_000)
        #expect(Int64.ticks(forSeconds: 1e300, timescale: 1_000_000_000) == Timestamp.maximumTicks)
        #expect(Int64.ticks(forSeconds: -1e300, timescale: 1) == -Timestamp.maximumTicks)
        #expect(Int64.ticks(forSeconds: .nan, timescale: 1) == 0)
    }

    @Test("a 16384×16384 claim over a few kilobytes of payload is damage, and the buffers stay untouched")
    func hugeClaims() throws {
        let bytes = CraftedBytes.hugeFrameClaims()
        let path = try HostileFileTests.write(bytes)
        let reader = try RecordingReader(path: path)
        #expect(reader.chunks.count == 1)
        let damage = reader.verify()
        #expect(damage.map(\.cause).contains(.referenceFramesLost), "\(damage)")
        // zstd refuses the payload: a few kilobytes cannot hold the frames the chunk claims.
        #expect(damage.contains {
            guard case .undecodable(.damagedChunk(_, chunk: 0, _, damage: .compression)) = $0.cause else { return false }
            return $0.chunk == 0
        }, "\(damage)")
    }

    @Test("a Y4M size too large for an Int is quoted as written, not as W-1")
    func oversizedY4MWidth() throws {
        let path = Scratch.path("wide.y4m")
        try "YUV4MPEG2 W99999999999999999999 H10 F30:1\n".write(toFile: path, atomically: false, encoding: .utf8)
        let e = formatError { _ = try Y4MReader(stream: try ByteStream.open(path)) }
        #expect(e == .invalidInput(source: path, frame: nil, problem: .frameSize(shown: "W99999999999999999999 H10", limit: 16384)))
        let missing = Scratch.path("nosize.y4m")
        try "YUV4MPEG2 H10 F30:1\n".write(toFile: missing, atomically: false, encoding: .utf8)
        #expect(formatError { _ = try Y4MReader(stream: try ByteStream.open(missing)) }
            == .invalidInput(source: missing, frame: nil, problem: .frameSize(shown: "no W tag H10", limit: 16384)))
    }

    @Test("a device is named for what it is, not read as an empty recording")
    func device() {
        #expect(throws: LumaFormatError.notARegularFile(path: "/dev/zero", kind: "a character device")) {
            _ = try RecordingReader(path: "/dev/zero")
        }
    }
}
