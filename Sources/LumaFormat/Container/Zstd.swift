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

    /// Compresses the concatenation of `parts` as one zstd frame into `output`, resized to fit, and
    /// returns the compressed length. Parts are streamed, so they need not be contiguous.
    func compress(_ parts: [UnsafeRawBufferPointer], into output: inout [UInt8]) throws(ZstdFailure) -> Int {
        let total = parts.reduce(0) { $0 + $1.count }
        let bound = ZSTD_compressBound(total)
        if output.count < bound { output = [UInt8](repeating: 0, count: bound) }
        ZSTD_CCtx_reset(context, ZSTD_reset_session_only)
        ZSTD_CCtx_setPledgedSrcSize(context, UInt64(total))
        var failure = 0
        let written: Int = output.withUnsafeMutableBytes { out in
            var o = ZSTD_outBuffer(dst: out.baseAddress, size: out.count, pos: 0)
            let inputs = parts.isEmpty ? [UnsafeRawBufferPointer(start: nil, count: 0)] : parts
            for (index, part) in inputs.enumerated() {
                var input = ZSTD_inBuffer(src: part.baseAddress, size: part.count, pos: 0)
                let last = index == inputs.count - 1
                while true {
                    let r = ZSTD_compressStream2(context, &o, &input, last ? ZSTD_e_end : ZSTD_e_continue)
                    if ZSTD_isError(r) != 0 { failure = r; return 0 }
                    if last ? r == 0 : input.pos == input.size { break }
                }
            }
            return o.pos
        }
        if failure != 0 { throw ZstdFailure.library(String(cString: ZSTD_getErrorName(failure))) }
        return written
    }

    func compress(_ input: UnsafeRawBufferPointer, into output: inout [UInt8]) throws(ZstdFailure) -> Int {
        try compress([input], into: &output)
    }
}

final class ZstdDecompressor {
    private let context: OpaquePointer

    init() { context = ZSTD_createDCtx() }
    deinit { ZSTD_freeDCtx(context) }

    /// Decompresses one zstd frame that must hold exactly `output.count` bytes and carry a
    /// content checksum (which zstd verifies).
    func decompress(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws(ZstdFailure) {
        // Frame magic 0xFD2FB528, then the frame header descriptor, whose bit 2 is the checksum flag.
        guard input.count >= 6, input.load(as: UInt32.self) == UInt32(0xFD2F_B528).littleEndian else {
            throw ZstdFailure.notAZstdFrame
        }
        guard input[4] & 0x04 != 0 else { throw ZstdFailure.noContentChecksum }
        let declared = ZSTD_getFrameContentSize(input.baseAddress, input.count)
        guard declared == UInt64(output.count) else {
            throw declared >= UInt64.max - 1 ? ZstdFailure.sizeNotDeclared : ZstdFailure.declaredSize(declared, expected: output.count)
        }
        let n = ZSTD_decompressDCtx(context, output.baseAddress, output.count, input.baseAddress, input.count)
        if ZSTD_isError(n) != 0 { throw ZstdFailure.library(String(cString: ZSTD_getErrorName(n))) }
        guard n == output.count else { throw ZstdFailure.decodedSize(n, expected: output.count) }
    }
}

