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
///
/// What it needs of the recording is fixed when it is made (the frame size, the payload layout,
/// the reference frame, the path errors name); it asks the reader for one thing per chunk, the
/// chunk's fields and payload bytes (`RecordingReader.readChunk`).
public final class ChunkDecoder {
    public let reader: RecordingReader
    private let path: String
    private let frameSize: Int
    private let layout: PayloadLayout
    private let reference: [UInt8]?
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

    init(reader: RecordingReader) {
        self.reader = reader
        (path, frameSize, layout, reference) = (reader.path, reader.header.frameSize, reader.payloadLayout, reader.reference)
    }

    /// Reads, checks and decodes a chunk. Any damage (header CRC, zstd checksum, size mismatch, a
    /// lost reference frame) is an error naming the chunk and its frames.
    public func decode(_ entry: ChunkEntry) throws(LumaFormatError) -> DecodedChunk {
        lastFailureNeedsReference = false
        let fields = try reader.readChunk(entry, payload: &payload)
        let payloadLength = Int(entry.payloadLength)

        // Decompress masks and values, then rebuild each frame on its predictor.
        let rawLength = fields.rawLength
        // 16 bytes to spare after the residual, so the expansion reads values 8 at a time to the end.
        ScratchBuffer.ensure(&residual, holds: rawLength + 16)
        let problem: ZstdFailure? = payload.withUnsafeBytes { input in
            residual.withUnsafeMutableBytes { output in
                do throws(ZstdFailure) {
                    try zstd.decompress(UnsafeRawBufferPointer(rebasing: input[0..<payloadLength]),
                                        into: UnsafeMutableRawBufferPointer(rebasing: output[0..<rawLength]))
                    return nil
                } catch { return error }
            }
        }
        if let problem { throw entry.damaged(.compression(problem), in: path) }
        if zeros.count < frameSize { zeros = ZeroFrame(count: frameSize) }

        if layout.usesBlocks { return try decodeBlocks(entry, fields: fields, rawLength: rawLength) }
        let maskSize = MaskedResidual.maskSize(frameSize)
        let maskLength = fields.whole.filter { !$0 }.count * maskSize
        let available = rawLength - maskLength
        var used = 0, maskAt = 0
        return try rebuildFrames(entry, fields: fields, frameSize: frameSize, { k, frame, predictor, raw, _ in
            let values = raw.baseAddress! + maskLength
            if fields.whole[k] {
                guard available - used >= frameSize else { return entry.damaged(.frameCutShort(frame: entry.firstFrame + k), in: path) }
                MaskedResidual.add(values + used, plus: predictor, count: frameSize, into: frame)
                used += frameSize
                return nil
            }
            guard let n = MaskedResidual.decode(mask: raw.baseAddress! + maskAt, values: values + used, available: available - used,
                                                readable: raw.count - maskLength - used, count: frameSize, plus: predictor, into: frame) else {
                return entry.damaged(.residualsOverrun(frame: entry.firstFrame + k), in: path)
            }
            maskAt += maskSize
            used += n
            return nil
        }, after: {
            used == available ? nil : entry.damaged(.residualBytesLeftOver(available - used), in: path)
        })
    }

    /// Version 3: rebuilds each frame from its block modes, low nibbles and masked high nibbles
    /// (``BlockResidual``), the payload already decompressed into `residual`.
    private func decodeBlocks(_ entry: ChunkEntry, fields: ChunkFields, rawLength: Int) throws(LumaFormatError) -> DecodedChunk {
        let frameCount = fields.frameCount
        let (modeSize, lowSize, maskSize) = (layout.modeSize, layout.lowSize, layout.maskSize)
        let valuesStart = frameCount * layout.fixedSize
        let available = rawLength - valuesStart
        ScratchBuffer.ensure(&high, holds: layout.frameSize)
        var used = 0
        return try rebuildFrames(entry, fields: fields, frameSize: layout.frameSize, { k, frame, predictor, raw, zero in
            let modes = raw.baseAddress!
            let lows = modes + frameCount * modeSize, masks = lows + frameCount * lowSize, values = modes + valuesStart
            return high.withUnsafeMutableBufferPointer { high in
                guard let n = MaskedResidual.decode(mask: masks + k * maskSize, values: values + used, available: available - used,
                                                    readable: raw.count - valuesStart - used, count: layout.frameSize,
                                                    plus: zero.baseAddress!, into: high.baseAddress!) else {
                    return entry.damaged(.highNibblesOverrun(frame: entry.firstFrame + k), in: path)
                }
                used += n
                guard BlockResidual.decode(modes: modes + k * modeSize, low: lows + k * lowSize, high: high.baseAddress!,
                                           predictor: predictor, width: layout.width, height: layout.height, into: frame) else {
                    return entry.damaged(.unknownBlockMode(frame: entry.firstFrame + k), in: path)
                }
                return nil
            }
        }, after: {
            used == available ? nil : entry.damaged(.highNibbleBytesLeftOver(available - used), in: path)
        })
    }

    /// Rebuilds a chunk's frames in order into recycled storage, for either payload layout:
    /// `rebuild(k, frame, predictor, payload, zeros)` writes frame `k` and returns the error of a
    /// damaged payload; `after` checks what is left once every frame is written. Each frame's
    /// predictor, and a lost reference frame, are handled here.
    private func rebuildFrames(_ entry: ChunkEntry, fields: ChunkFields, frameSize: Int,
                               _ rebuild: (Int, UnsafeMutablePointer<UInt8>, UnsafePointer<UInt8>, UnsafeBufferPointer<UInt8>,
                                           UnsafeBufferPointer<UInt8>) -> LumaFormatError?,
                               after: () -> LumaFormatError?) throws(LumaFormatError) -> DecodedChunk {
        var failure: LumaFormatError?
        var pixels: [UInt8] = []
        swap(&pixels, &spare)
        ScratchBuffer.ensure(&pixels, holds: fields.frameCount * frameSize)
        pixels.withUnsafeMutableBufferPointer { out in
            residual.withUnsafeBufferPointer { raw in
                zeros.withUnsafeBufferPointer { zero in
                    (reference ?? []).withUnsafeBufferPointer { ref in
                        for (k, coding) in fields.codings.enumerated() {
                            let frame = out.baseAddress! + k * frameSize
                            guard let predictor = predictor(of: coding, frame: frame, frameSize: frameSize, zero: zero,
                                                            reference: reference == nil ? nil : ref) else {
                                failure = lostReference(entry, frame: k)
                                return
                            }
                            if let problem = rebuild(k, frame, predictor, raw, zero) {
                                failure = problem
                                return
                            }
                        }
                        failure = after()
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

    /// The frame that `coding` predicts `frame` from (zeros, the frame before it, or the file's
    /// reference frame); nil when that is the reference and both its copies are lost.
    private func predictor(of coding: FrameCoding, frame: UnsafeMutablePointer<UInt8>, frameSize: Int,
                           zero: UnsafeBufferPointer<UInt8>, reference: UnsafeBufferPointer<UInt8>?) -> UnsafePointer<UInt8>? {
        switch coding {
        case .intra: return zero.baseAddress!
        case .deltaFromPrevious: return UnsafePointer(frame - frameSize)
        case .deltaFromReference: return reference?.baseAddress
        }
    }

    /// The error for frame `k` of a chunk coded against a reference frame that is lost; recovery
    /// must keep such a chunk (``lastFailureNeedsReference``).
    private func lostReference(_ entry: ChunkEntry, frame k: Int) -> LumaFormatError {
        lastFailureNeedsReference = true
        return entry.damaged(.referenceLost(frame: entry.firstFrame + k), in: path)
    }


    /// A copy of one frame, decoding only the chunk that holds it.
    public func frame(at index: Int) throws(LumaFormatError) -> (ticks: Int64, pixels: [UInt8]) {
        guard index >= 0, index < reader.frameCount else {
            throw LumaFormatError.frameOutOfRange(path: path, frame: index, frameCount: reader.frameCount)
        }
        guard let entry = reader.chunk(containing: index) else {
            throw LumaFormatError.missingFrames(path: path, frames: index...index, cause: .inDamagedChunk)
        }
        let chunk = try decode(entry)
        let k = index - entry.firstFrame
        return (chunk.timestamps[k], chunk.frame(k))
    }
}
