import Foundation
import LumaBase
import LumaFormat
import Testing
import LumaTestSupport

@Suite("Hostile and wrong files get one clear error, never a trap or a huge allocation")
struct HostileFileTests {
    static func write(_ bytes: [UInt8]) throws -> String {
        let path = Scratch.path("hostile.luma")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("width × height of zero or over 16384 is refused")
    func impossibleSizes() throws {
        for (w, h) in [(UInt32(0), UInt32(10)), (16385, 10), (10, 100_000), (UInt32.max, UInt32.max)] {
            let path = try Self.write(CraftedBytes.header(width: w, height: h))
            #expect(throws: LumaFormatError.invalidHeader(path: path, problem: .frameSize(width: Int(w), height: Int(h), limit: 16384))) {
                _ = try RecordingReader(path: path)
            }
        }
    }

    @Test("the largest legal frame size opens instantly: nothing is allocated for frames that are not there")
    func largestFrameHeaderOnly() throws {
        let path = try Self.write(CraftedBytes.header(width: 16384, height: 16384))
        let reader = try RecordingReader(path: path)
        #expect(reader.frameCount == 0)
        #expect(reader.chunks.isEmpty)
    }

    @Test("a chunk that claims a payload past the end of the file is an incomplete chunk, not an allocation")
    func payloadPastEnd() throws {
        var bytes = CraftedBytes.header(width: 8, height: 8)
        var record = Array("LCHK".utf8)
        var fields: [UInt8] = []
        let put = { (v: any FixedWidthInteger, a: inout [UInt8]) in CraftedBytes.put(v, into: &a) }
        put(UInt32(0), &fields); put(UInt64(0), &fields); put(UInt32(1), &fields); put(UInt64(64), &fields)
        put(Int64(0), &fields); fields.append(0)
        put(UInt32(fields.count), &record)
        put(UInt64(1) << 60, &record)  // a payload length past the end of the file
        record += fields
        put(CraftedBytes.crc32(record), &record)
        bytes += record + [1, 2, 3]
        let path = try Self.write(bytes)
        let reader = try RecordingReader(path: path)
        #expect(reader.chunks.isEmpty)
        #expect(reader.damage.count == 1)
    }

    @Test("a chunk declaring 65536 frames of 16384×16384 is refused before anything is allocated")
    func absurdChunk() throws {
        var bytes = CraftedBytes.header(width: 16384, height: 16384)
        var fields: [UInt8] = []
        func put<T: FixedWidthInteger>(_ v: T) { CraftedBytes.put(v, into: &fields) }
        let count = 65536
        put(UInt32(0)); put(UInt64(0)); put(UInt32(count))
        put(UInt64(count) * UInt64(16384 * 16384 / 8))
        for i in 0..<count { put(Int64(i)); fields.append(1) }
        fields[24 + 8] = 0  // first frame: from the reference, as a writer would
        bytes += CraftedBytes.record("LCHK", fields: fields, payload: [UInt8](repeating: 0, count: 16))
        let path = try Self.write(bytes)
        let reader = try RecordingReader(path: path)
        #expect(reader.chunks.isEmpty)
        #expect(reader.damage.first?.cause == .impossibleChunkHeader, "\(reader.damage)")
    }

    @Test("a file that is not a recording says what it looks like instead")
    func notARecording() throws {
        let cases: [([UInt8], String)] = [
            ([0, 0, 0, 0x20] + Array("ftypisom".utf8) + [UInt8](repeating: 0, count: 20), "MP4"),
            (Array("YUV4MPEG2 W2 H2 F30:1\n".utf8), "Y4M"),
            (Array("{\"format\":\"lumatrace.events\",\"version\":1}\n".utf8), "event log"),
            ([], "empty"),
        ]
        for (bytes, mention) in cases {
            let path = try Self.write(bytes)
            let e = formatError { _ = try RecordingReader(path: path) }
            #expect(e?.description.contains("not a .luma recording") == true)
            #expect(e?.description.contains(mention) == true, "'\(String(describing: e))' should mention \(mention)")
        }
    }

    @Test("a missing file names the file")
    func missing() {
        #expect(throws: LumaFormatError.io(path: "/nonexistent/x.luma", SystemCallError(.open, errno: ENOENT))) {
            _ = try RecordingReader(path: "/nonexistent/x.luma")
        }
    }
}
