import LumaImaging

/// A kernelized correlation filter (KCF: Henriques, Caseiro, Martins and Batista, "High-Speed
/// Tracking with Kernelized Correlation Filters", 2015) over multi-channel features on a grid of
/// cells.
///
/// Trained on one patch, it learns a ridge regression from every cyclic shift of the patch's
/// features to a Gaussian peak at the shift's offset; all shifts at once in the Fourier domain,
/// with a Gaussian kernel. Applied to a new patch, its response is highest at the target's
/// displacement. The model is a running blend of the patches it was trained on.
struct CorrelationFilter {
    let cellsX: Int
    let cellsY: Int
    let channels: Int
    /// Ridge regularisation.
    let lambda: Float
    /// Bandwidth of the Gaussian kernel, relative to the features' spread (KCF's 0.5 by default).
    let kernelSigma: Float

    private let fft: FourierTransform2D
    /// Hann window over the cells: the patch's edges, where cyclic shifts wrap, count for nothing.
    private let window: [Float]
    /// Fourier transform of the desired response: a Gaussian peak at zero displacement.
    private let labels: [ComplexFloat]
    /// The model: Fourier transform of the blended training features (`channels` planes) and the
    /// blended dual coefficients.
    private var modelFeatures: [ComplexFloat]
    private var modelSquaredNorm: Float = 0
    private var alpha: [ComplexFloat]
    private(set) var isTrained = false

    // Scratch planes, allocated once.
    private var sampleFeatures: [ComplexFloat]
    private var sampleSquaredNorm: Float = 0
    private var plane: [ComplexFloat]
    private var planeHat: [ComplexFloat]
    /// The last response, real part, `cellsX × cellsY`.
    private(set) var response: [Float]

    /// `sigma`: the Gaussian label's standard deviation in cells; `lambda`: the ridge
    /// regularisation; `kernelSigma`: the Gaussian kernel's bandwidth.
    init(cellsX: Int, cellsY: Int, channels: Int, labelSigma sigma: Double, lambda: Float = 1e-4, kernelSigma: Float = 0.5) {
        self.lambda = lambda
        self.kernelSigma = kernelSigma
        self.cellsX = cellsX
        self.cellsY = cellsY
        self.channels = channels
        let n = cellsX * cellsY
        let fft = FourierTransform2D(width: cellsX, height: cellsY)
        self.fft = fft
        var w = [Float](repeating: 0, count: n)
        let hx = Self.hann(cellsX), hy = Self.hann(cellsY)
        for y in 0..<cellsY { for x in 0..<cellsX { w[y * cellsX + x] = hx[x] * hy[y] } }
        window = w
        var y = [ComplexFloat](repeating: .zero, count: n)
        for j in 0..<cellsY {
            let dy = Double(j <= cellsY / 2 ? j : j - cellsY)
            for i in 0..<cellsX {
                let dx = Double(i <= cellsX / 2 ? i : i - cellsX)
                y[j * cellsX + i] = ComplexFloat(PortableMath.exp(Float(-0.5 * (dx * dx + dy * dy) / (sigma * sigma))))
            }
        }
        var yHat = [ComplexFloat](repeating: .zero, count: n)
        y.withUnsafeBufferPointer { i in yHat.withUnsafeMutableBufferPointer { fft.forward(i, into: $0) } }
        labels = yHat
        modelFeatures = [ComplexFloat](repeating: .zero, count: n * channels)
        alpha = [ComplexFloat](repeating: .zero, count: n)
        sampleFeatures = modelFeatures
        plane = [ComplexFloat](repeating: .zero, count: n)
        planeHat = plane
        response = [Float](repeating: 0, count: n)
    }

    /// A Hann window of `n` points (all ones for n ≤ 2).
    private static func hann(_ n: Int) -> [Float] {
        guard n > 2 else { return [Float](repeating: 1, count: n) }
        // 0.5 − 0.5·cos(2πi/(n−1)) from a rotation recurrence: no libm.
        let step = 2 * PortableMath.pi / Double(n - 1)
        let c = PortableMath.cos(step), s = PortableMath.sin(step)
        var (cx, sx) = (1.0, 0.0)
        var out = [Float](repeating: 0, count: n)
        for i in 0..<n {
            out[i] = Float(0.5 - 0.5 * cx)
            (cx, sx) = (cx * c - sx * s, sx * c + cx * s)
        }
        return out
    }

    // MARK: - Training and detection

    /// Trains on `features` (`channels` planes of `cellsX × cellsY`) and blends the result into the
    /// model at `rate` (1 replaces it; the first training always does).
    mutating func train(_ features: UnsafeBufferPointer<Float>, rate: Float) {
        loadSample(features)
        let n = cellsX * cellsY
        // Kernel of the sample with itself, then α = ŷ / (k̂ + λ).
        kernelHat(againstModel: false)
        let r = isTrained ? rate : 1
        let lambda = lambda
        planeHat.withUnsafeBufferPointer { kHat in
            labels.withUnsafeBufferPointer { y in
                alpha.withUnsafeMutableBufferPointer { alpha in
                    for i in 0..<n {
                        let k = kHat[i]
                        let d = ComplexFloat(k.re + lambda, k.im)
                        let a = Self.divide(y[i], d)
                        alpha[i] = ComplexFloat(alpha[i].re + (a.re - alpha[i].re) * r, alpha[i].im + (a.im - alpha[i].im) * r)
                    }
                }
            }
        }
        // The blend, and ‖model‖² from its transform (Parseval).
        var norm: Float = 0
        sampleFeatures.withUnsafeBufferPointer { sample in
            modelFeatures.withUnsafeMutableBufferPointer { model in
                for i in 0..<(n * channels) {
                    let s = sample[i], m = model[i]
                    let v = ComplexFloat(m.re + (s.re - m.re) * r, m.im + (s.im - m.im) * r)
                    model[i] = v
                    norm += v.re * v.re + v.im * v.im
                }
            }
        }
        modelSquaredNorm = norm / Float(n)
        isTrained = true
    }

    /// The filter's response to `features`: the peak's displacement from the patch centre in
    /// cells (sub-cell), its height, and the peak-to-sidelobe ratio (how far the peak stands out
    /// of the rest of the response, in standard deviations).
    mutating func detect(_ features: UnsafeBufferPointer<Float>) -> (dx: Double, dy: Double, peak: Double, sidelobe: Double) {
        precondition(isTrained, "train before detecting")
        loadSample(features)
        kernelHat(againstModel: true)
        let n = cellsX * cellsY
        let (cellsX, cellsY) = (cellsX, cellsY)
        let fft = fft
        let scale = fft.inverseScale
        return alpha.withUnsafeBufferPointer { alpha in
            planeHat.withUnsafeMutableBufferPointer { planeHat in
                plane.withUnsafeMutableBufferPointer { plane in
                    response.withUnsafeMutableBufferPointer { response in
                        for i in 0..<n { planeHat[i] = Self.multiply(alpha[i], planeHat[i]) }
                        fft.inverse(UnsafeBufferPointer(planeHat), into: plane)
                        var best = 0
                        for i in 0..<n {
                            response[i] = plane[i].re * scale
                            if response[i] > response[best] { best = i }
                        }
                        return Self.peak(UnsafeBufferPointer(response), at: best, cellsX: cellsX, cellsY: cellsY)
                    }
                }
            }
        }
    }

    /// The peak at `best` of a response: its displacement (sub-cell), height and peak-to-sidelobe ratio.
    private static func peak(_ response: UnsafeBufferPointer<Float>, at best: Int, cellsX: Int, cellsY: Int)
        -> (dx: Double, dy: Double, peak: Double, sidelobe: Double) {
        let px = best % cellsX, py = best / cellsX
        let peak = Double(response[best])
        // Sub-cell peak: a parabola through the peak and its two (cyclic) neighbours on each axis.
        func offset(_ l: Float, _ c: Float, _ r: Float) -> Double {
            let d = l - 2 * c + r
            guard d < 0 else { return 0 }
            return Double(max(-0.5, min(0.5, 0.5 * (l - r) / d)))
        }
        let ox = offset(response[py * cellsX + (px + cellsX - 1) % cellsX], response[best], response[py * cellsX + (px + 1) % cellsX])
        let oy = offset(response[((py + cellsY - 1) % cellsY) * cellsX + px], response[best], response[((py + 1) % cellsY) * cellsX + px])
        let dx = Double(px > cellsX / 2 ? px - cellsX : px) + ox
        let dy = Double(py > cellsY / 2 ? py - cellsY : py) + oy
        // Sidelobe: the response outside a window of ±2 cells (cyclic) around the peak.
        var sum = 0.0, sumSquares = 0.0, count = 0
        for j in 0..<cellsY {
            let ddy = min(abs(j - py), cellsY - abs(j - py))
            for i in 0..<cellsX {
                let ddx = min(abs(i - px), cellsX - abs(i - px))
                if ddx <= 2 && ddy <= 2 { continue }
                let v = Double(response[j * cellsX + i])
                sum += v
                sumSquares += v * v
                count += 1
            }
        }
        var psr = 0.0
        if count > 1 {
            let mean = sum / Double(count)
            let variance = max(sumSquares / Double(count) - mean * mean, 1e-12)
            psr = (peak - mean) / variance.squareRoot()
        }
        return (dx, dy, peak, psr)
    }

    // MARK: - Pieces

    /// Windows `features` and transforms each channel into `sampleFeatures`; its squared norm too.
    private mutating func loadSample(_ features: UnsafeBufferPointer<Float>) {
        let n = cellsX * cellsY
        precondition(features.count >= n * channels, "features hold channels × cells values")
        let fft = fft
        var norm: Float = 0
        window.withUnsafeBufferPointer { window in
            plane.withUnsafeMutableBufferPointer { plane in
                sampleFeatures.withUnsafeMutableBufferPointer { sample in
                    for c in 0..<channels {
                        let channel = features.baseAddress! + c * n
                        for i in 0..<n {
                            let v = channel[i] * window[i]
                            norm += v * v
                            plane[i] = ComplexFloat(v)
                        }
                        fft.forward(UnsafeBufferPointer(plane), into: UnsafeMutableBufferPointer(rebasing: sample[(c * n)..<((c + 1) * n)]))
                    }
                }
            }
        }
        sampleSquaredNorm = norm
    }

    /// The Fourier transform of the Gaussian kernel between the sample and itself (or the model),
    /// into `planeHat`: k(τ) = exp(−max(0, ‖x‖² + ‖z‖² − 2·(x ⋆ z)(τ)) / (σ² · cells · channels)).
    private mutating func kernelHat(againstModel: Bool) {
        let n = cellsX * cellsY
        let channels = channels
        let fft = fft
        let xx = againstModel ? modelSquaredNorm : sampleSquaredNorm
        let zz = sampleSquaredNorm
        let scale = fft.inverseScale
        let denominator = kernelSigma * kernelSigma * Float(n * channels)
        // x is the model or, against itself, the sample.
        func correlate(_ x: UnsafeBufferPointer<ComplexFloat>, _ z: UnsafeBufferPointer<ComplexFloat>,
                       _ planeHat: UnsafeMutableBufferPointer<ComplexFloat>, _ plane: UnsafeMutableBufferPointer<ComplexFloat>) {
            planeHat.update(repeating: .zero)
            for c in 0..<channels {
                let base = c * n
                for i in 0..<n {
                    let x = x[base + i], z = z[base + i]
                    // conj(x) · z
                    planeHat[i].re += x.re * z.re + x.im * z.im
                    planeHat[i].im += x.re * z.im - x.im * z.re
                }
            }
            fft.inverse(UnsafeBufferPointer(planeHat), into: plane)
            for i in 0..<n {
                let d = max(0, xx + zz - 2 * plane[i].re * scale)
                plane[i] = ComplexFloat(PortableMath.exp(-d / denominator))
            }
            fft.forward(UnsafeBufferPointer(plane), into: planeHat)
        }
        sampleFeatures.withUnsafeBufferPointer { z in
            planeHat.withUnsafeMutableBufferPointer { planeHat in
                plane.withUnsafeMutableBufferPointer { plane in
                    if againstModel {
                        modelFeatures.withUnsafeBufferPointer { x in correlate(x, z, planeHat, plane) }
                    } else {
                        correlate(z, z, planeHat, plane)
                    }
                }
            }
        }
    }

    @inline(__always) private static func multiply(_ a: ComplexFloat, _ b: ComplexFloat) -> ComplexFloat {
        ComplexFloat(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re)
    }

    @inline(__always) private static func divide(_ a: ComplexFloat, _ b: ComplexFloat) -> ComplexFloat {
        let d = b.re * b.re + b.im * b.im
        return ComplexFloat((a.re * b.re + a.im * b.im) / d, (a.im * b.re - a.re * b.im) / d)
    }
}
