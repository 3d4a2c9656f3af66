/// The frames of one decoded chunk: timestamps and pixels, `frameSize` bytes per frame, back to back.
public struct DecodedChunk: Sendable {
    public let entry: ChunkEntry
    public let timestamps: [Int64]
    public let codings: [FrameCoding]
    public let frameSize: Int
    let pixels: [UInt8]

    public var count: Int { timestamps.count }

    /// Lends frame `k` (0-based within the chunk) for the duration of `body`.
    public func withFrame<R>(_ k: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        precondition(k >= 0 && k < count, "frame \(k) is outside this chunk of \(count) frames")
        return try pixels.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[k * frameSize..<(k + 1) * frameSize])) }
    }

    /// A copy of frame `k`'s pixels.
    public func frame(_ k: Int) -> [UInt8] { withFrame(k) { Array($0) } }
}

/// Decodes chunks of one recording. Holds reusable buffers and a zstd context: use one per thread.
public final class ChunkDecoder {
    public let reader: RecordingReader
    private let zstd = ZstdDecompressor()
    private var payload: [UInt8] = []

    init(reader: RecordingReader) { self.reader = reader }

    /// Reads, checks and decodes a chunk. Any damage (header CRC, zstd checksum, size mismatch, a
    /// lost reference frame) is an error naming the chunk and its frames.
    public func decode(_ entry: ChunkEntry) throws(LumaFormatError) -> DecodedChunk {
        let fields = try reader.chunkFields(entry)
        let frameSize = reader.header.frameSize
        let rawLength = fields.rawLength
        guard entry.payloadLength <= reader.fileSize else { throw reader.damaged(entry, "payload length is larger than the file") }
        let payloadLength = Int(entry.payloadLength)
        if payload.count < payloadLength { payload = [UInt8](repeating: 0, count: payloadLength) }
        let location = entry.payloadOffset
        var failure: LumaFormatError?
        payload.withUnsafeMutableBytes { buffer in
            do throws(LumaFormatError) {
                try reader.file.read(at: location, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<payloadLength]))
            } catch { failure = error }
        }
        if let failure { throw failure }
        let reference = reader.reference
        let pixels = [UInt8](unsafeUninitializedCapacity: rawLength) { out, initialized in
            initialized = rawLength
            let problem: ZstdError? = payload.withUnsafeBytes { input in
                do throws(ZstdError) {
                    try zstd.decompress(UnsafeRawBufferPointer(rebasing: input[0..<payloadLength]), into: UnsafeMutableRawBufferPointer(out))
                    return nil
                } catch { return error }
            }
            if let problem {
                failure = reader.damaged(entry, "payload: \(problem.reason)")
                return
            }
            let base = out.baseAddress!
            for (k, coding) in fields.codings.enumerated() {
                let frame = base + k * frameSize
                switch coding {
                case .intra: break
                case .deltaFromPrevious: DeltaCoding.decode(frame, plus: frame - frameSize, count: frameSize)
                case .deltaFromReference:
                    guard let reference else {
                        failure = reader.damaged(entry, "both copies of the file's reference frame are damaged, and frame \(entry.firstFrame + k) is coded against it")
                        return
                    }
                    reference.withUnsafeBufferPointer { DeltaCoding.decode(frame, plus: $0.baseAddress!, count: frameSize) }
                }
            }
        }
        if let failure { throw failure }
        return DecodedChunk(entry: entry, timestamps: fields.timestamps, codings: fields.codings, frameSize: frameSize, pixels: pixels)
    }

    /// A copy of one frame, decoding only the chunk that holds it.
    public func frame(at index: Int) throws(LumaFormatError) -> (ticks: Int64, pixels: [UInt8]) {
        guard index >= 0, index < reader.frameCount else {
            throw LumaFormatError.frameOutOfRange(path: reader.path, frame: index, frameCount: reader.frameCount)
        }
        guard let entry = reader.chunk(containing: index) else {
            throw LumaFormatError.damagedChunk(path: reader.path, chunk: -1, frames: "\(index)", reason: "frame \(index) lies in a damaged or missing chunk")
        }
        let chunk = try decode(entry)
        let k = index - entry.firstFrame
        return (chunk.timestamps[k], chunk.frame(k))
    }
}
