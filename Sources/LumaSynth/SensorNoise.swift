import LumaBase
import LumaImaging

/// Per-pixel sensor noise: approximately Gaussian with standard deviation `sigma` grey levels,
/// independent per pixel and per frame, and the last step of composing every frame.
///
/// Counter-based, so any frame can be rendered alone: the noise of pixel (x, y) in frame f is a
/// function of (seed, f, y, x/4) only. Each row gets a key from (seed, frame, row); every group of
/// four pixels takes one SplitMix64 hash of (row key, group) and uses four 12-bit fields of it to
/// index a 4096-entry table of integer Gaussian quantiles. No floating point, no allocation and
/// one hash per four pixels keeps it at a few nanoseconds per pixel.
///
/// The table holds integers, because the output is 8-bit: the sample added to a pixel is
/// round(N(0, s)) with `s` tuned so that the table's own standard deviation is exactly `sigma`.
/// Measured noise therefore matches the setting even for small sigmas, where plain rounding
/// would add up to 1/12 grey level² of quantization variance.
struct SensorNoise: Sendable {
    /// Requested standard deviation in grey levels.
    let sigma: Double
    /// 4096 signed integer noise values, symmetric around 0, standard deviation `sigma`.
    let table: [Int16]
    private let seedKey: UInt64

    static let tableBits = 12

    init(sigma: Double, seed: UInt64) {
        self.sigma = sigma
        seedKey = Hash.combine(seed, Hash.label("sensor-noise"))
        let count = 1 << Self.tableBits
        var quantiles = [Double](repeating: 0, count: count)
        for i in 0..<count { quantiles[i] = PortableMath.inverseNormalCDF((Double(i) + 0.5) / Double(count)) }
        func rounded(scale: Double) -> [Int16] { quantiles.map { Int16(($0 * scale).rounded()) } }
        func deviation(_ values: [Int16]) -> Double {
            var sum = 0.0
            for v in values { sum += Double(v) * Double(v) }
            return (sum / Double(values.count)).squareRoot()
        }
        guard sigma > 0 else {
            table = [Int16](repeating: 0, count: count)
            return
        }
        // Bisection on the scale; deviation(scale) is a non-decreasing step function.
        var lo = 0.0, hi = sigma * 2 + 2
        var best = rounded(scale: sigma)
        var bestError = abs(deviation(best) - sigma)
        for _ in 0..<60 {
            let mid = (lo + hi) / 2
            let candidate = rounded(scale: mid)
            let d = deviation(candidate)
            if abs(d - sigma) < bestError {
                best = candidate
                bestError = abs(d - sigma)
            }
            if d < sigma { lo = mid } else { hi = mid }
        }
        table = best
    }

    /// Maps every pixel through `tone` (a 256-entry grey-level curve, or nil for identity), then
    /// adds this frame's noise and clamps to 0...255.
    func apply(frame: Int, to plane: Plane, tone: UnsafePointer<UInt8>?) {
        let frameKey = Hash.combine(seedKey, UInt64(truncatingIfNeeded: frame))
        table.withUnsafeBufferPointer { tableBuffer in
            guard let t = tableBuffer.baseAddress else { return }
            for y in 0..<plane.height {
                let key = Hash.combine(frameKey, UInt64(y))
                if let tone {
                    Self.addRow(plane.row(y), count: plane.width, key: key, table: t) { tone[Int($0)] }
                } else {
                    Self.addRow(plane.row(y), count: plane.width, key: key, table: t) { $0 }
                }
            }
        }
    }

    /// Adds noise to one row. Group g (pixels 4g...4g+3) uses hash g of the row's SplitMix64
    /// stream; pixel 4g+k takes bits 16k..<16k+12 of it. `map` is applied to each clean value.
    @inline(__always)
    private static func addRow(
        _ row: UnsafeMutablePointer<UInt8>, count: Int, key: UInt64, table t: UnsafePointer<Int16>,
        map: (UInt8) -> UInt8
    ) {
        var counter = key
        var x = 0
        @inline(__always) func add(_ x: Int, _ bits: UInt64) {
            let n = Int(t[Int(truncatingIfNeeded: bits & 0xFFF)])
            row[x] = UInt8(clamping: Int(map(row[x])) + n)
        }
        while x + 4 <= count {
            counter = counter &+ Hash.golden
            let h = Hash.mix(counter)
            add(x, h)
            add(x + 1, h >> 16)
            add(x + 2, h >> 32)
            add(x + 3, h >> 48)
            x += 4
        }
        if x < count {
            counter = counter &+ Hash.golden
            var h = Hash.mix(counter)
            while x < count {
                add(x, h)
                h >>= 16
                x += 1
            }
        }
    }

    /// Maps every pixel through `tone` without adding noise.
    static func applyTone(_ tone: UnsafePointer<UInt8>, to plane: Plane) {
        for y in 0..<plane.height {
            let row = plane.row(y)
            for x in 0..<plane.width { row[x] = tone[Int(row[x])] }
        }
    }
}
