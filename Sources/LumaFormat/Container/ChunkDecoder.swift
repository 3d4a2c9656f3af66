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
    private var residual: [UInt8] = []
    /// Version 3: one frame's high nibbles.
    private var high: [UInt8] = []
    /// The predictor of intra frames, grown to the frame size on first use (see ``ZeroFrame``).
    private var zeros = ZeroFrame(count: 0)
    /// Pixel storage handed back with ``recycle(_:)``: decoding into memory already mapped avoids
    /// the page faults (and the kernel zeroing every page) that dominate decoding into fresh memory.
    private var spare: [UInt8] = []

    /// Gives a decoded chunk's storage back for the next ``decode(_:)`` to reuse. Call it when done
    /// with the chunk (and any frames lent from it); keeping other copies of it is safe, only slower.
    public func recycle(_ chunk: consuming DecodedChunk) {
        var pixels = chunk.pixels
        _ = consume chunk
        if pixels.count > spare.count { swap(&pixels, &spare) }
    }

    /// Whether the last ``decode(_:)`` failed only because the file's reference frame is lost: the
    /// chunk itself is intact (its header CRC and payload checksum pass), so its frames are still
    /// there should a copy of the reference turn up. Recovery must not throw such a chunk away.
    private(set) var lastFailureNeedsReference = false

    init(reader: RecordingReader) { self.reader = reader }

    /// Reads, checks and decodes a chunk. Any damage (header CRC, zstd checksum, size mismatch, a
    /// lost reference frame) is an error naming the chunk and its frames.
    public func decode(_ entry: ChunkEntry) throws(LumaFormatError) -> DecodedChunk {
        lastFailureNeedsReference = false
        let fields = try reader.chunkFields(entry)
        let frameSize = reader.header.frameSize
        let frameCount = fields.frameCount
        guard entry.payloadLength <= reader.fileSize else { throw reader.damaged(entry, "payload length is larger than the file") }
        let payloadLength = Int(entry.payloadLength)
        ScratchBuffer.ensure(&payload, holds: payloadLength)
        var failure: LumaFormatError?
        payload.withUnsafeMutableBytes { buffer in
            do throws(LumaFormatError) {
                try reader.file.read(at: entry.payloadOffset, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<payloadLength]))
            } catch { failure = error }
        }
        if let failure { throw failure }

        // Decompress masks and values, then rebuild each frame on its predictor.
        let rawLength = fields.rawLength
        // 16 bytes to spare after the residual, so the expansion reads values 8 at a time to the end.
        ScratchBuffer.ensure(&residual, holds: rawLength + 16)
        let problem: ZstdError? = payload.withUnsafeBytes { input in
            residual.withUnsafeMutableBytes { output in
                do throws(ZstdError) {
                    try zstd.decompress(UnsafeRawBufferPointer(rebasing: input[0..<payloadLength]),
                                        into: UnsafeMutableRawBufferPointer(rebasing: output[0..<rawLength]))
                    return nil
                } catch { return error }
            }
        }
        if let problem { throw reader.damaged(entry, "payload: \(problem.reason)") }
        if zeros.count < frameSize { zeros = ZeroFrame(count: frameSize) }

        let layout = reader.payloadLayout
        if layout.usesBlocks {
            ScratchBuffer.ensure(&high, holds: frameSize)
            return try decodeBlocks(entry, fields: fields, layout: layout, rawLength: rawLength)
        }
        let maskSize = MaskedResidual.maskSize(frameSize)
        let maskLength = fields.whole.filter { !$0 }.count * maskSize
        let available = rawLength - maskLength
        let reference = reader.reference
        var pixels: [UInt8] = []
        swap(&pixels, &spare)
        ScratchBuffer.ensure(&pixels, holds: frameCount * frameSize)
        pixels.withUnsafeMutableBufferPointer { out in
            residual.withUnsafeBufferPointer { raw in
                zeros.withUnsafeBufferPointer { zero in
                  (reference ?? []).withUnsafeBufferPointer { ref in
                    let masks = raw.baseAddress!
                    let values = masks + maskLength
                    var used = 0
                    var maskAt = 0
                    for (k, coding) in fields.codings.enumerated() {
                        let frame = out.baseAddress! + k * frameSize
                        let predictor: UnsafePointer<UInt8>
                        switch coding {
                        case .intra: predictor = zero.baseAddress!
                        case .deltaFromPrevious: predictor = UnsafePointer(frame - frameSize)
                        case .deltaFromReference:
                            guard reference != nil, let base = ref.baseAddress else {
                                lastFailureNeedsReference = true
                                failure = reader.damaged(entry, "both copies of the file's reference frame are damaged, and frame \(entry.firstFrame + k) is coded against it")
                                return
                            }
                            predictor = base
                        }
                        if fields.whole[k] {
                            guard available - used >= frameSize else {
                                failure = reader.damaged(entry, "payload: frame \(entry.firstFrame + k) is cut short")
                                return
                            }
                            MaskedResidual.add(values + used, plus: predictor, count: frameSize, into: frame)
                            used += frameSize
                            continue
                        }
                        guard let n = MaskedResidual.decode(mask: masks + maskAt, values: values + used, available: available - used,
                                                            readable: raw.count - maskLength - used, count: frameSize, plus: predictor, into: frame) else {
                            failure = reader.damaged(entry, "payload: the mask of frame \(entry.firstFrame + k) asks for more residual bytes than stored")
                            return
                        }
                        maskAt += maskSize
                        used += n
                    }
                    if failure == nil && used != available {
                        failure = reader.damaged(entry, "payload: \(available - used) residual bytes are left over")
                    }
                  }
                }
            }
        }
        if let failure {
            spare = pixels
            throw failure
        }
        return DecodedChunk(entry: entry, timestamps: fields.timestamps, codings: fields.codings, frameSize: frameSize, pixels: pixels)
    }

    /// Version 3: rebuilds each frame from its block modes, low nibbles and masked high nibbles
    /// (``BlockResidual``), the payload already decompressed into `residual`.
    private func decodeBlocks(_ entry: ChunkEntry, fields: ChunkFields, layout: PayloadLayout, rawLength: Int) throws(LumaFormatError) -> DecodedChunk {
        let (frameSize, frameCount) = (layout.frameSize, fields.frameCount)
        let (modeSize, lowSize, maskSize) = (layout.modeSize, layout.lowSize, layout.maskSize)
        let (width, height) = (layout.width, layout.height)
        let valuesStart = frameCount * layout.fixedSize
        let available = rawLength - valuesStart
        let reference = reader.reference
        var failure: LumaFormatError?
        var pixels: [UInt8] = []
        swap(&pixels, &spare)
        ScratchBuffer.ensure(&pixels, holds: frameCount * frameSize)
        pixels.withUnsafeMutableBufferPointer { out in
            residual.withUnsafeBufferPointer { raw in
                high.withUnsafeMutableBufferPointer { high in
                    zeros.withUnsafeBufferPointer { zero in
                        (reference ?? []).withUnsafeBufferPointer { ref in
                            let modes = raw.baseAddress!
                            let lows = modes + frameCount * modeSize
                            let masks = lows + frameCount * lowSize
                            let values = modes + valuesStart
                            var used = 0
                            for (k, coding) in fields.codings.enumerated() {
                                let frame = out.baseAddress! + k * frameSize
                                let predictor: UnsafePointer<UInt8>
                                switch coding {
                                case .intra: predictor = zero.baseAddress!
                                case .deltaFromPrevious: predictor = UnsafePointer(frame - frameSize)
                                case .deltaFromReference:
                                    guard reference != nil, let base = ref.baseAddress else {
                                        lastFailureNeedsReference = true
                                        failure = reader.damaged(entry, "both copies of the file's reference frame are damaged, and frame \(entry.firstFrame + k) is coded against it")
                                        return
                                    }
                                    predictor = base
                                }
                                guard let n = MaskedResidual.decode(mask: masks + k * maskSize, values: values + used, available: available - used,
                                                                    readable: raw.count - valuesStart - used, count: frameSize,
                                                                    plus: zero.baseAddress!, into: high.baseAddress!) else {
                                    failure = reader.damaged(entry, "payload: the mask of frame \(entry.firstFrame + k) asks for more high nibbles than stored")
                                    return
                                }
                                used += n
                                guard BlockResidual.decode(modes: modes + k * modeSize, low: lows + k * lowSize, high: high.baseAddress!,
                                                           predictor: predictor, width: width, height: height, into: frame) else {
                                    failure = reader.damaged(entry, "payload: frame \(entry.firstFrame + k) has a block mode that is not a mode")
                                    return
                                }
                            }
                            if failure == nil && used != available {
                                failure = reader.damaged(entry, "payload: \(available - used) high-nibble bytes are left over")
                            }
                        }
                    }
                }
            }
        }
        if let failure {
            spare = pixels
            throw failure
        }
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
