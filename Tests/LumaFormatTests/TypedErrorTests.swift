import Foundation
import LumaBase
import LumaFormat
import LumaTestSupport
import Testing

/// Errors carry what was found as values — the chunk, its frames, the expected and the actual —
/// so a program (or a test) tells them apart without reading the message. Each case below damages
/// a recording in one known way and expects exactly the value that damage must give.
@Suite("Errors carry data: the chunk, its frames, the values expected and found")
struct TypedErrorTests {
    /// A closed recording of 60 frames in chunks of 0.2 s (six frames each), and its chunks.
    static func recording(_ name: String) throws -> (path: String, bytes: [UInt8], chunks: [ChunkEntry]) {
        let path = Scratch.path(name)
        try writeRecording(path, width: 48, height: 32, count: 60, chunkDuration: 0.2)
        return (path, try fileBytes(path), try RecordingReader(path: path).chunks)
    }

    static func u32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }

    @Test("a flipped bit in a payload's zstd checksum: that chunk, its frames, zstd's verdict")
    func payloadChecksum() throws {
        var (path, bytes, chunks) = try Self.recording("typed-checksum.luma")
        let chunk = chunks[3]
        // The last four bytes of a zstd frame are its content checksum: the content still decodes,
        // only the checksum disagrees.
        bytes[Int(chunk.recordEnd) - 2] ^= 0x10
        try writeBytes(bytes, to: path)
        let reader = try RecordingReader(path: path)
        let error = formatError { _ = try reader.makeDecoder().decode(reader.chunks[3]) }
        #expect(error == .damagedChunk(path: path, chunk: 3, frames: chunk.firstFrame...(chunk.firstFrame + chunk.frameCount - 1),
                                       damage: .compression(.library("Restored data doesn't match checksum"))))
        #expect(error?.description == "\(path): chunk 3 (frames 18...23) is damaged: payload: Restored data doesn't match checksum")
    }

    @Test("a changed timestamp in a chunk header: the record's CRC, stored and computed")
    func chunkHeaderCRC() throws {
        var (path, bytes, chunks) = try Self.recording("typed-crc.luma")
        let chunk = chunks[2]
        let offset = Int(chunk.offset)
        let fieldsLength = Int(Self.u32(bytes, at: offset + 4))
        bytes[offset + 16 + 24 + 1] ^= 0x01  // the chunk's first timestamp
        try writeBytes(bytes, to: path)
        let stored = Self.u32(bytes, at: offset + 16 + fieldsLength)
        let computed = CraftedBytes.crc32(Array(bytes[offset..<(offset + 16 + fieldsLength)]))
        #expect(stored != computed)
        let reader = try RecordingReader(path: path)
        let error = formatError { _ = try reader.makeDecoder().decode(chunk) }
        #expect(error == .damagedChunk(path: path, chunk: 2, frames: 12...17, damage: .record(.checksumMismatch(stored: stored, computed: computed))))
    }

    @Test("a frame of a chunk lost to damage is missing, with why")
    func missingFrame() throws {
        // The same frames written twice lie at the same offsets: the closed file says where chunk 4
        // is in the unclosed one, which is read by scanning and so skips a chunk it cannot read.
        let (_, _, chunks) = try Self.recording("typed-missing.luma")
        let unclosed = Scratch.path("typed-missing-unclosed.luma")
        try writeRecording(unclosed, width: 48, height: 32, count: 60, chunkDuration: 0.2, close: false)
        var bytes = try fileBytes(unclosed)
        bytes[Int(chunks[4].offset) + 1] ^= 0xFF  // the record's magic
        try writeBytes(bytes, to: unclosed)
        let reader = try RecordingReader(path: unclosed)
        #expect(!reader.hasIndex)
        #expect(reader.chunk(containing: 26) == nil)
        let error = formatError { _ = try reader.makeDecoder().frame(at: 26) }
        #expect(error == .missingFrames(path: unclosed, frames: 26...26, cause: .inDamagedChunk))
    }

    @Test("the writer's refusals carry the setting or the frame")
    func writerRefusals() throws {
        let path = Scratch.path("typed-writer.luma")
        let header = RecordingHeader(width: 4, height: 4, timescale: 1000, rateNumerator: 10)
        var options = RecordingWriterOptions()
        options.compressionLevel = 25
        #expect(throws: LumaFormatError.invalidHeader(path: path, problem: .compressionLevel(25, allowed: 1...19))) {
            _ = try RecordingWriter(path: path, header: header, options: options)
        }
        let wide = RecordingHeader(width: 20_000, height: 4, timescale: 1000, rateNumerator: 10)
        #expect(throws: LumaFormatError.invalidHeader(path: path, problem: .frameSize(width: 20_000, height: 4, limit: RecordingHeader.maximumDimension))) {
            _ = try RecordingWriter(path: path, header: wide)
        }
        #expect(!FileManager.default.fileExists(atPath: path), "refused settings leave no file behind")
        let writer = try RecordingWriter(path: path, header: header)
        try writer.close()
        #expect(throws: LumaFormatError.writerClosed(path: path)) { try writer.append([UInt8](repeating: 0, count: 16), ticks: 0) }
    }

    @Test("a system call's failure carries the call and errno")
    func systemCall() {
        let error = formatError { _ = try RecordingReader(path: "/nonexistent/typed.luma") }
        #expect(error == .io(path: "/nonexistent/typed.luma", SystemCallError(.open, errno: ENOENT)))
        #expect(error?.description == "/nonexistent/typed.luma: cannot open: No such file or directory")
    }
}
