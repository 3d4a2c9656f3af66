import CResidualKernels

/// The payload layout of a chunk: each frame's residual (`current − predictor`, mod 256) split into a
/// *mask* of one bit per pixel (set where the residual is not zero) and the non-zero residual bytes.
///
/// On a fixed camera most residuals are exactly zero (static background, a codec's skipped blocks),
/// and zstd's entropy stage, which codes each byte with at least one bit, pays for every zero; the
/// packed mask lets zstd code long zero stretches as a few bytes of mask instead. Measured on OpenCV's
/// vtest: ratio 4.9 → 5.7 at the same chunking (README, Benchmarks).
///
/// Mask bytes are little-endian bit order: bit `k` of byte `i` is pixel `8i + k`, so a 64-bit word
/// read little-endian covers pixels `64w ..< 64w + 64` with bit `k` = pixel `64w + k`.
/// The two hot loops are C kernels (`CResidualKernels`): they work on raw spans and never allocate.
enum MaskedResidual {
    /// Eight byte-wise additions mod 256 in one 64-bit word (no carry crosses a byte).
    @inline(__always)
    static func bytewiseSum(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        return ((a & low) &+ (b & low)) ^ ((a ^ b) & ~low)
    }

    /// `frame = predictor + residual`, for a frame whose residual is stored whole.
    static func add(_ residual: UnsafePointer<UInt8>, plus predictor: UnsafePointer<UInt8>, count: Int, into frame: UnsafeMutablePointer<UInt8>) {
        var i = 0
        while i + 8 <= count {
            let sum = bytewiseSum(UnsafeRawPointer(predictor + i).loadUnaligned(as: UInt64.self),
                                  UnsafeRawPointer(residual + i).loadUnaligned(as: UInt64.self))
            UnsafeMutableRawPointer(frame + i).storeBytes(of: sum, as: UInt64.self)
            i += 8
        }
        while i < count {
            frame[i] = predictor[i] &+ residual[i]
            i += 1
        }
    }

    /// `residual = current − predictor` for every byte, for a frame stored whole.
    static func subtract(_ current: UnsafePointer<UInt8>, minus predictor: UnsafePointer<UInt8>, count: Int, into residual: UnsafeMutablePointer<UInt8>) {
        for i in 0..<count { residual[i] = current[i] &- predictor[i] }
    }

    /// Whether a residual is busy enough that storing it whole beats a mask: from a sparse sample,
    /// more than 3 in 4 bytes non-zero (measured on a noisy 1080p scene: at 86% non-zero, whole is
    /// 0.4% smaller and decodes several times faster).
    static func isBusy(_ current: UnsafePointer<UInt8>, minus predictor: UnsafePointer<UInt8>, count: Int) -> Bool {
        var nonzero = 0, samples = 0, i = 0
        while i < count {
            nonzero &+= current[i] != predictor[i] ? 1 : 0
            samples &+= 1
            i &+= 31
        }
        return nonzero * 4 > samples * 3
    }

    /// Bytes of mask for a frame of `pixels` pixels.
    @inline(__always)
    static func maskSize(_ pixels: Int) -> Int { (pixels + 7) / 8 }

    /// Writes the mask of `current − predictor` into `mask` (`maskSize(count)` bytes) and its
    /// non-zero bytes to `values` (room for `count` bytes). Intra frames use an all-zero predictor.
    /// Returns how many values were written. (SSSE3: 16 pixels per step; see `CResidualKernels`.)
    static func encode(_ current: UnsafePointer<UInt8>, minus predictor: UnsafePointer<UInt8>, count: Int,
                       mask: UnsafeMutablePointer<UInt8>, values: UnsafeMutablePointer<UInt8>) -> Int {
        lt_residual_compact(current, predictor, count, mask, values)
    }

    /// Rebuilds a frame: `frame[i] = predictor[i] + (mask bit i ? next value : 0)`. Returns the
    /// number of values consumed, or nil if the mask asks for more values than `available` (a
    /// damaged payload). `readable` bytes from `values` may be read (at least `available`): with
    /// 8 bytes to spare, the fast path loads values 8 at a time right up to the last one.
    static func decode(mask: UnsafePointer<UInt8>, values: UnsafePointer<UInt8>, available: Int, readable: Int = 0,
                       count: Int, plus predictor: UnsafePointer<UInt8>, into frame: UnsafeMutablePointer<UInt8>) -> Int? {
        let used = lt_residual_expand(mask, values, available, max(readable, available), count, predictor, frame)
        return used < 0 ? nil : used
    }
}
