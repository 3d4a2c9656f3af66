import CResidualKernels

/// The frame coding of format version 3: every 16×16 block of a frame chooses its predictor, and
/// the residuals are stored in nibbles.
///
/// A block is predicted by the frame's predictor (the previous frame, the reference frame, or zeros
/// for an intra frame: *temporal*), by the row above in the frame itself (*spatial*, the best
/// choice where noise or motion makes the previous frame a poor guess), or by the predictor plus
/// the temporal change of the row above (*both*, for a region that brightens or moves as a whole).
/// The encoder picks, per block, the mode with the smallest sum of |residual|. The residual
/// (`current − prediction`, mod 256) is zigzag-mapped (0, −1, 1, −2, … → 0, 1, 2, 3, …) so that
/// small magnitudes of either sign are small numbers; its low nibbles are stored two to a byte and
/// its high nibbles, zero for |residual| < 8, as a mask with the non-zero ones (``MaskedResidual``).
/// zstd's literal coder then sees dense 4-bit symbols instead of sparse 8-bit ones.
///
/// Every prediction uses only the row above and the predictor frame, so decoding runs 16 pixels
/// per instruction (SSSE3; a portable path gives the same bytes). Measured before it was adopted:
/// `Benchmarks/codec-study` (README, Speed).
enum BlockResidual {
    /// Bytes of one frame's block modes: one per 16×16 block, in raster order.
    static func modeCount(width: Int, height: Int) -> Int { lt_prediction_block_count(width, height) }

    /// Bytes of one frame's low nibbles, two to a byte.
    static func lowSize(_ pixels: Int) -> Int { (pixels + 1) / 2 }

    /// Chooses the blocks' modes of `current` against `predictor` and writes them, the low nibbles
    /// and the high nibbles (one per byte, `width × height` bytes, for ``MaskedResidual``).
    static func encode(_ current: UnsafePointer<UInt8>, predictor: UnsafePointer<UInt8>, width: Int, height: Int,
                       modes: UnsafeMutablePointer<UInt8>, low: UnsafeMutablePointer<UInt8>, high: UnsafeMutablePointer<UInt8>) {
        lt_blocks_encode(current, predictor, width, height, Int32(LT_SPATIAL_UP), modes, low, high)
    }

    /// Rebuilds a frame from its modes, low nibbles and high nibbles. False when a mode byte is not
    /// a mode (a damaged payload; nothing is written then).
    static func decode(modes: UnsafePointer<UInt8>, low: UnsafePointer<UInt8>, high: UnsafePointer<UInt8>,
                       predictor: UnsafePointer<UInt8>, width: Int, height: Int, into frame: UnsafeMutablePointer<UInt8>) -> Bool {
        lt_blocks_decode(modes, low, high, predictor, width, height, Int32(LT_SPATIAL_UP), frame) == 0
    }

    /// Tests: runs the portable path even where SSSE3 is available (`true`), to compare their bytes.
    static func usePortablePath(_ portable: Bool) { lt_blocks_use_portable_path(portable ? 1 : 0) }
}
