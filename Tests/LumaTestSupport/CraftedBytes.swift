/// Bytes of `.luma` records built by hand, with correct CRCs, so a test can feed a reader exactly
/// the hostile value it means to (a size, a timestamp, a zstd frame's claim) and nothing else wrong.
/// The CRC is computed here, bit by bit, not by the zlib the format uses: an independent oracle.
public enum CraftedBytes {
    /// CRC-32 (IEEE 802.3, reflected, the one zlib and the format use).
    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
        }
        return ~crc
    }

    /// Appends `value` little-endian.
    public static func put<T: FixedWidthInteger>(_ value: T, into bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    /// A record as the format frames it: magic, fields length (u32), payload length (u64), the
    /// fields, the CRC of all of that, then the payload.
    public static func record(_ magic: String, fields: [UInt8], payload: [UInt8] = []) -> [UInt8] {
        var r = Array(magic.utf8)
        put(UInt32(fields.count), into: &r)
        put(UInt64(payload.count), into: &r)
        r += fields
        put(crc32(r), into: &r)
        return r + payload
    }

    /// A zstd frame that declares `size` bytes with a checksum but holds only `blocks` raw blocks
    /// of 8 KiB and no last block: a claim with almost no data behind it.
    public static func zstdClaim(size: UInt32, blocks: Int = 1) -> [UInt8] {
        var z: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD, 0xA4]  // magic; 4-byte size, single segment, checksum
        put(size, into: &z)
        for _ in 0..<blocks { z += [0x00, 0x00, 0x01] + [UInt8](repeating: 7, count: 8192) }  // raw, 8192 bytes, not last
        return z
    }

    /// A header record (`LUMA`, format version 1) with any frame size and timescale.
    public static func header(width: UInt32, height: UInt32, timescale: Int64 = 90000) -> [UInt8] {
        var fields: [UInt8] = []
        put(UInt16(1), into: &fields); put(UInt16(0), into: &fields); put(width, into: &fields); put(height, into: &fields)
        fields += [0, 0, 0, 0]
        put(timescale, into: &fields); put(UInt32(30), into: &fields); put(UInt32(1), into: &fields); put(UInt32(0), into: &fields)
        return record("LUMA", fields: fields)
    }

    /// A ~26 KB unindexed recording claiming 16384×16384 frames: a reference frame and one chunk
    /// whose zstd payloads declare full sizes (256 MiB, 32 MiB of masks) over a few kilobytes.
    public static func hugeFrameClaims() -> [UInt8] {
        var bytes = header(width: 16384, height: 16384)
        let frameSize = 16384 * 16384
        var reference: [UInt8] = []
        put(UInt32(0), into: &reference); put(UInt64(frameSize), into: &reference)
        bytes += record("LREF", fields: reference, payload: zstdClaim(size: UInt32(frameSize), blocks: 1))
        var chunk: [UInt8] = []
        put(UInt32(0), into: &chunk); put(UInt64(0), into: &chunk); put(UInt32(1), into: &chunk); put(UInt64(frameSize / 8), into: &chunk)
        put(Int64(0), into: &chunk); chunk.append(2)  // one frame, coded against the reference
        return bytes + record("LCHK", fields: chunk, payload: zstdClaim(size: UInt32(frameSize / 8), blocks: 2))
    }

    /// `recording` (the bytes of a closed `.luma` file) with its first chunk's first timestamp
    /// replaced by `ticks`, the record's CRC recomputed so only the value is wrong; `nil` when it
    /// has no chunk.
    public static func stampingFirstChunk(of recording: [UInt8], ticks: Int64) -> [UInt8]? {
        var bytes = recording
        let magic = Array("LCHK".utf8)
        guard bytes.count >= 8, let at = (0..<(bytes.count - 8)).first(where: { bytes[$0..<$0 + 4].elementsEqual(magic) }) else { return nil }
        let fieldsLength = Int(bytes[at + 4]) | Int(bytes[at + 5]) << 8 | Int(bytes[at + 6]) << 16 | Int(bytes[at + 7]) << 24
        guard at + 20 + fieldsLength <= bytes.count else { return nil }
        withUnsafeBytes(of: ticks.littleEndian) { bytes.replaceSubrange(at + 40..<at + 48, with: $0) }
        withUnsafeBytes(of: crc32(Array(bytes[at..<at + 16 + fieldsLength])).littleEndian) {
            bytes.replaceSubrange(at + 16 + fieldsLength..<at + 20 + fieldsLength, with: $0)
        }
        return bytes
    }
}
