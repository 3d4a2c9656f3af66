/// Byte-wise frame differences, the temporal prediction of the `.luma` format.
///
/// `residual = current − predictor (mod 256)` and back. On a fixed camera most residual bytes are
/// near zero, which zstd's entropy stage compresses well. The loops work on raw spans and
/// vectorize; they never allocate.
enum DeltaCoding {
    @inline(__always)
    static func encode(_ current: UnsafePointer<UInt8>, minus predictor: UnsafePointer<UInt8>,
                       into residual: UnsafeMutablePointer<UInt8>, count: Int) {
        for i in 0..<count { residual[i] = current[i] &- predictor[i] }
    }

    /// `frame += predictor` in place (mod 256).
    @inline(__always)
    static func decode(_ frame: UnsafeMutablePointer<UInt8>, plus predictor: UnsafePointer<UInt8>, count: Int) {
        for i in 0..<count { frame[i] = frame[i] &+ predictor[i] }
    }

    /// A cheap estimate of how well `current − predictor` will compress: the mean absolute signed
    /// residual over a sparse sample of pixels. Lower is better. Without a predictor the frame is
    /// scored by its horizontal gradient, a stand-in for how much texture intra coding must pay for.
    static func estimatedCost(_ current: UnsafePointer<UInt8>, minus predictor: UnsafePointer<UInt8>?, count: Int) -> Int {
        let stride = 61  // a prime, so the sample does not align with rows
        var total = 0
        var n = 0
        var i = 0
        while i < count {
            let d: Int
            if let predictor {
                d = Int(Int8(bitPattern: current[i] &- predictor[i]))
            } else {
                d = i > 0 ? Int(current[i]) - Int(current[i - 1]) : 0
            }
            total += abs(d)
            n += 1
            i += stride
        }
        return n == 0 ? 0 : total / n
    }
}
