import LumaBase
/// How one frame inside a chunk is stored.
public enum FrameCoding: UInt8, Sendable {
    /// The pixels themselves.
    case intra = 0
    /// Byte-wise `current − previous` (mod 256) against the frame before it in the same chunk.
    case deltaFromPrevious = 1
    /// Byte-wise `current − reference` (mod 256) against the file's reference frame, so the first
    /// frame of every chunk costs about as little as a delta while the chunk still decodes on its own.
    case deltaFromReference = 2
}

/// The fields of a chunk record: which frames it holds, their timestamps and how each is coded.
struct ChunkFields: Equatable, Sendable {
    /// Upper bound on frames in one chunk, so a frame table can never be absurd.
    static let maximumFrames = 1 << 16
    /// Upper bound on a chunk's raw frames (unless it is a single frame, which may be up to
    /// 16384 × 16384): what a reader allocates to decode one chunk.
    public static let maximumRawBytes = 256 << 20

    var number: Int
    var firstFrame: Int
    var timestamps: [Int64]
    var codings: [FrameCoding]
    /// Versions 1 and 2: frames whose residual is stored whole (every byte) instead of as mask and
    /// non-zero bytes: busy frames, where a mask would cost more than it saves. Bit 7 of the frame's
    /// coding byte; version 3 has no such frames (the bit must be clear).
    var whole: [Bool]
    /// Bytes after decompression, laid out as ``PayloadLayout`` says.
    var rawLength: Int

    var frameCount: Int { timestamps.count }

    /// Bytes of the fields of a chunk of `frameCount` frames: 24 fixed, then 9 per frame.
    static func serializedLength(frameCount: Int) -> Int { 24 + 9 * frameCount }

    func serialized() -> [UInt8] {
        var w = ByteWriter(capacity: ChunkFields.serializedLength(frameCount: frameCount))
        w.u32(UInt32(number))
        w.u64(UInt64(firstFrame))
        w.u32(UInt32(frameCount))
        w.u64(UInt64(rawLength))
        for i in 0..<frameCount {
            w.i64(timestamps[i])
            w.u8(codings[i].rawValue | (whole[i] ? 0x80 : 0))
        }
        return w.bytes
    }

    /// Parses and checks a chunk's fields against the recording's frame size and payload layout.
    /// Returns the impossible field on failure so the caller can name the chunk.
    static func parse(_ fields: [UInt8], layout: PayloadLayout) -> Result<ChunkFields, FieldError> {
        let frameSize = layout.frameSize
        var r = ByteReader(fields)
        do throws(FieldError) {
            let number = Int(try r.u32())
            let first = try r.u64()
            let count = Int(try r.u32())
            let raw = try r.u64()
            guard first < UInt64(Int64.max / 2) else { throw FieldError(offset: 4, wanted: 8, .impossibleFirstFrame(first)) }
            guard count >= 1, count <= maximumFrames else {
                throw FieldError(offset: 12, wanted: 4, .frameCountOutOfRange(count, maximum: maximumFrames))
            }
            guard count == 1 || UInt64(count) * UInt64(frameSize) <= UInt64(maximumRawBytes) else {
                throw FieldError(offset: 12, wanted: 4, .chunkTooLarge(frames: count, frameSize: frameSize, limitMiB: maximumRawBytes >> 20))
            }
            guard fields.count == serializedLength(frameCount: count) else {
                throw FieldError(offset: 0, wanted: serializedLength(frameCount: count), .fieldsLength(bytes: fields.count, frames: count, needed: serializedLength(frameCount: count)))
            }
            var timestamps: [Int64] = []
            var codings: [FrameCoding] = []
            var whole: [Bool] = []
            whole.reserveCapacity(count)
            timestamps.reserveCapacity(count)
            codings.reserveCapacity(count)
            for i in 0..<count {
                let t = try r.i64()
                // Checked here, where it enters: past ±2^61 a difference of two timestamps could overflow.
                guard t.magnitude <= Timestamp.maximumTicks.magnitude else {
                    throw FieldError(offset: r.offset - 8, wanted: 8, .timestampOutOfRange(frame: Int(first) + i, ticks: t))
                }
                if let last = timestamps.last, t <= last {
                    throw FieldError(offset: r.offset - 8, wanted: 8, .timestampNotIncreasing(frame: Int(first) + i, previous: last, ticks: t))
                }
                let c = try r.u8()
                guard let coding = FrameCoding(rawValue: c & 0x7F) else {
                    throw FieldError(offset: r.offset - 1, wanted: 1, .unknownCoding(frame: Int(first) + i, code: c))
                }
                if i == 0 && coding == .deltaFromPrevious {
                    throw FieldError(offset: r.offset - 1, wanted: 1, .firstFrameIsDelta)
                }
                if layout.usesBlocks && c & 0x80 != 0 {
                    throw FieldError(offset: r.offset - 1, wanted: 1, .storedWholeNotInVersion(frame: Int(first) + i, version: layout.version))
                }
                timestamps.append(t)
                codings.append(coding)
                whole.append(c & 0x80 != 0)
            }
            guard layout.rawLengths(frames: count, whole: whole.filter { $0 }.count).contains(raw) else {
                throw FieldError(offset: 16, wanted: 8, .impossibleRawLength(bytes: raw, frames: count, frameSize: frameSize))
            }
            return .success(ChunkFields(number: number, firstFrame: Int(first), timestamps: timestamps,
                                        codings: codings, whole: whole, rawLength: Int(raw)))
        } catch {
            return .failure(error)
        }
    }
}

/// One chunk as the index (or a recovery scan) knows it, without decoding it.
public struct ChunkEntry: Equatable, Sendable {
    /// 0-based position of the chunk in the file.
    public var number: Int
    /// File offset of the chunk record.
    public var offset: UInt64
    public var firstFrame: Int
    public var frameCount: Int
    public var firstTicks: Int64
    public var lastTicks: Int64
    /// Compressed payload bytes.
    public var payloadLength: UInt64

    /// The frames this chunk holds.
    public var frames: Range<Int> { firstFrame..<firstFrame + frameCount }

    /// File offset of the chunk's payload.
    var payloadOffset: UInt64 {
        offset + UInt64(RecordLayout.prefixSize + ChunkFields.serializedLength(frameCount: frameCount) + RecordLayout.crcSize)
    }

    /// File offset just past the chunk record.
    public var recordEnd: UInt64 { payloadOffset + payloadLength }
}

extension ChunkEntry {
    /// The error for this chunk of the recording at `path`, damaged by `damage`: it names the
    /// chunk and its frames.
    func damaged(_ damage: ChunkDamage, in path: String) -> LumaFormatError {
        .damagedChunk(path: path, chunk: number, frames: firstFrame...(firstFrame + frameCount - 1), damage: damage)
    }
}
