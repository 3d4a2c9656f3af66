import CZlib

/// CRC-32 (zlib's, IEEE polynomial) over the header of every record, so a flipped bit in a
/// timestamp, a frame count or an offset is caught before it is believed. Payloads carry zstd's
/// own content checksum instead.
enum CRC32 {
    static func of(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return 0 }
        return UInt32(crc32(0, base.assumingMemoryBound(to: Bytef.self), uInt(bytes.count)))
    }

    static func of(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { of($0) }
    }
}
