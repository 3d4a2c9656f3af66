import CZstd

/// zstd compression of chunk payloads: one zstd frame per chunk, with zstd's content checksum on,
/// so any damage to a payload is detected when it is decoded.
final class ZstdCompressor {
    private let context: OpaquePointer

    init(level: Int) {
        context = ZSTD_createCCtx()
        ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, Int32(level))
        ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1)
        ZSTD_CCtx_setParameter(context, ZSTD_c_contentSizeFlag, 1)
    }

    deinit { ZSTD_freeCCtx(context) }

    /// Compresses `input` into `output`, resized to fit, and returns the compressed length.
    func compress(_ input: UnsafeRawBufferPointer, into output: inout [UInt8]) throws(ZstdError) -> Int {
        let bound = ZSTD_compressBound(input.count)
        if output.count < bound { output = [UInt8](repeating: 0, count: bound) }
        let n = output.withUnsafeMutableBytes { out in
            ZSTD_compress2(context, out.baseAddress, out.count, input.baseAddress, input.count)
        }
        if ZSTD_isError(n) != 0 { throw ZstdError(reason: String(cString: ZSTD_getErrorName(n))) }
        return n
    }
}

final class ZstdDecompressor {
    private let context: OpaquePointer

    init() { context = ZSTD_createDCtx() }
    deinit { ZSTD_freeDCtx(context) }

    /// Decompresses one zstd frame that must hold exactly `output.count` bytes and carry a
    /// content checksum (which zstd verifies).
    func decompress(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws(ZstdError) {
        // Frame magic 0xFD2FB528, then the frame header descriptor, whose bit 2 is the checksum flag.
        guard input.count >= 6, input.load(as: UInt32.self) == UInt32(0xFD2F_B528).littleEndian else {
            throw ZstdError(reason: "payload is not a zstd frame")
        }
        guard input[4] & 0x04 != 0 else { throw ZstdError(reason: "payload has no content checksum") }
        let declared = ZSTD_getFrameContentSize(input.baseAddress, input.count)
        guard declared == UInt64(output.count) else {
            throw ZstdError(reason: declared >= UInt64.max - 1 ? "payload does not declare its size" : "payload declares \(declared) bytes, expected \(output.count)")
        }
        let n = ZSTD_decompressDCtx(context, output.baseAddress, output.count, input.baseAddress, input.count)
        if ZSTD_isError(n) != 0 { throw ZstdError(reason: String(cString: ZSTD_getErrorName(n))) }
        guard n == output.count else { throw ZstdError(reason: "payload decoded to \(n) bytes, expected \(output.count)") }
    }
}

struct ZstdError: Error, Equatable {
    var reason: String
}
