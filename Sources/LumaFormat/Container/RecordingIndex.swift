import LumaBase
/// The index record written on close: every chunk's place, frames and time span, plus the totals
/// and the frames digest, so opening a closed recording reads one small record instead of scanning.
struct RecordingIndex: Equatable, Sendable {
    var frameCount: Int
    var chunks: [ChunkEntry]
    var framesDigest: [UInt8]

    static let entrySize = 44

    func serialized() -> [UInt8] {
        var w = ByteWriter(capacity: 48 + chunks.count * RecordingIndex.entrySize)
        w.u64(UInt64(frameCount))
        w.u32(UInt32(chunks.count))
        w.raw(framesDigest)
        for c in chunks {
            w.u64(c.offset)
            w.u64(UInt64(c.firstFrame))
            w.u32(UInt32(c.frameCount))
            w.i64(c.firstTicks)
            w.i64(c.lastTicks)
            w.u64(c.payloadLength)
        }
        return w.bytes
    }

    /// Parses the index and checks it is consistent with a file of `fileSize` bytes; `nil` if not
    /// (the reader then falls back to scanning, so a damaged index never loses frames).
    static func parse(_ fields: [UInt8], fileSize: UInt64) -> RecordingIndex? {
        var r = ByteReader(fields)
        guard let frames = try? r.u64(), let count = try? r.u32(), let digest = try? r.raw(32) else { return nil }
        guard Int(count) * entrySize == r.remaining, frames < UInt64(Int64.max / 2) else { return nil }
        var chunks: [ChunkEntry] = []
        chunks.reserveCapacity(Int(count))
        var nextFrame = 0
        var lastOffset: UInt64 = 0
        var lastTicks = Int64.min
        for i in 0..<Int(count) {
            guard let offset = try? r.u64(), let first = try? r.u64(), let n = try? r.u32(),
                  let t0 = try? r.i64(), let t1 = try? r.i64(), let payload = try? r.u64() else { return nil }
            guard offset > lastOffset || i == 0, offset < fileSize, payload < fileSize,
                  first >= UInt64(nextFrame), first < UInt64(Int64.max / 4), n >= 1, n <= ChunkFields.maximumFrames,
                  t0 <= t1, t0 > lastTicks,
                  t0.magnitude <= Timestamp.maximumTicks.magnitude, t1.magnitude <= Timestamp.maximumTicks.magnitude else { return nil }
            chunks.append(ChunkEntry(number: i, offset: offset, firstFrame: Int(first), frameCount: Int(n),
                                     firstTicks: t0, lastTicks: t1, payloadLength: payload))
            nextFrame = Int(first) + Int(n)
            lastOffset = offset
            lastTicks = t1
        }
        guard UInt64(nextFrame) == frames || (chunks.isEmpty && frames == 0) else { return nil }
        return RecordingIndex(frameCount: Int(frames), chunks: chunks, framesDigest: Array(digest))
    }
}
