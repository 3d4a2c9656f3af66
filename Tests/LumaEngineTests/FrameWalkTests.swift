import Foundation
import LumaAnalysis
import LumaBase
import LumaEngine
import LumaFormat
import Testing
import LumaTestSupport

/// A recording's bytes in memory that counts the reads of each chunk's payload: how many times a
/// replay decodes each chunk.
private final class PayloadReadCounter: ByteSource, @unchecked Sendable {
    let inner: MemoryByteSource
    /// Payload offset → chunk number, for the chunks of the recording.
    private var payloads: [UInt64: Int] = [:]
    private let lock = NSLock()
    private var reads: [Int: Int] = [:]

    init(path: String) throws {
        inner = MemoryByteSource(Array(try Data(contentsOf: URL(fileURLWithPath: path))), name: path)
        for entry in try RecordingReader(path: path).chunks { payloads[entry.recordEnd - entry.payloadLength] = entry.number }
    }

    var name: String { inner.name }
    var size: UInt64 { inner.size }

    func read(at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) throws(LumaFormatError) {
        if let chunk = payloads[offset] { lock.withLock { reads[chunk, default: 0] += 1 } }
        try inner.read(at: offset, into: buffer)
    }

    /// Times chunk `number`'s payload was read.
    func payloadReads(ofChunk number: Int) -> Int { lock.withLock { reads[number, default: 0] } }
}

@Suite("The frame walk: decoder to analyzers")
struct FrameWalkTests {
    /// 40 frames in chunks of 10.
    func fourChunks() throws -> String {
        let (width, height) = (32, 24)
        let path = Scratch.path("four-chunks.luma")
        let writer = try RecordingWriter(path: path, header: RecordingHeader(width: width, height: height, timescale: 10, rateNumerator: 10),
                                         options: .fixedDuration(1))
        for i in 0..<40 { try writer.append([UInt8](repeating: UInt8(3 * i), count: width * height), ticks: Int64(i)) }
        try writer.close()
        return path
    }

    @Test("a replay decodes each chunk once, the first too (the stream's name comes from the chunk the walk decodes)",
          arguments: [1, 2])
    func eachChunkDecodedOnce(jobs: Int) throws {
        let recording = try fourChunks()
        let source = try PayloadReadCounter(path: recording)
        let reader = try RecordingReader(source: source)
        #expect(reader.chunks.count == 4)
        _ = try Replay.run(reader, setups: [try setup("brightness")], registry: testRegistry, options: ReplayOptions(jobs: jobs),
                           logPath: recording + ".\(jobs).events.jsonl")
        for chunk in 0..<4 { #expect(source.payloadReads(ofChunk: chunk) == 1, "chunk \(chunk)") }
    }

    @Test("a replay that starts past the first chunk decodes the first once, for the stream's name, and none before its range")
    func laterStartNamesStreamByFirstFrame() throws {
        let recording = try fourChunks()
        let whole = try EventLog.read(replay(recording, [try setup("brightness")]))
        let later = try EventLog.read(replay(recording, [try setup("brightness")], frames: 25...39))
        let source = try PayloadReadCounter(path: recording)
        _ = try Replay.run(RecordingReader(source: source), setups: [try setup("brightness")], registry: testRegistry,
                           options: ReplayOptions(frames: 25...39), logPath: recording + ".later.events.jsonl")
        #expect(source.payloadReads(ofChunk: 0) == 1)
        #expect(source.payloadReads(ofChunk: 1) == 0)
        #expect(whole.events.filter { $0.frame >= 25 && $0.kind == "brightness" }.map(\.data) == later.events.filter { $0.kind == "brightness" }.map(\.data))
    }

    @Test("a decoded chunk lends each frame as one value: its index in the recording, time, size and pixels")
    func chunkLendsFrame() throws {
        let reader = try RecordingReader(path: try fourChunks())
        let decoder = reader.makeDecoder()
        let chunk = try decoder.decode(reader.chunks[2])
        chunk.withFrame(3, of: reader.header) { frame in
            #expect(frame.index == 23)
            #expect(frame.timestamp == Timestamp(ticks: 23, timescale: 10))
            #expect((frame.width, frame.height) == (32, 24))
            #expect(frame.pixels.allSatisfy { $0 == 69 })
        }
    }
}
