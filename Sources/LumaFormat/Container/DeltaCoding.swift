/// Choosing a frame's predictor in the `.luma` format: the previous frame, the file's reference
/// frame, or none (intra). The residual itself is stored by ``MaskedResidual``.
enum DeltaCoding {
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
