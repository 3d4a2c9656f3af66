// Transcendental functions built only from IEEE-754 `+ - * /`, `squareRoot()` and `rounded()`.
//
// Why not Foundation's `sin`/`exp`/`log`? Those come from the platform's libm, and libms differ in
// the last bit between glibc, Apple and musl. One differing bit can flip a pixel's rounding or a
// truth coordinate's sixth decimal, and then a scene rendered on a Mac no longer matches the golden
// files recorded on Linux. Everything the generator computes goes through these instead, so a
// seed gives the same bytes on every platform. Accuracy is ~1e-15 relative, far below what an
// 8-bit image or a 6-decimal truth file can show.

enum PortableMath {
    static let pi = 3.141_592_653_589_793
    static let ln2 = 0.693_147_180_559_945_3

    // 2π and ln 2 split into a head with few significant bits and a tail, so that `k * head` is
    // exact for the multiples used in argument reduction.
    private static let twoPiHead = 6.283_185_307_179_586
    private static let twoPiTail = 2.449_293_598_294_706_4e-16
    private static let ln2Head = 0.693_147_180_369_123_8
    private static let ln2Tail = 1.908_214_929_270_587_7e-10

    /// Sine of `x` radians.
    static func sin(_ x: Double) -> Double {
        guard x.isFinite else { return .nan }
        let k = (x / twoPiHead).rounded()
        var r = (x - k * twoPiHead) - k * twoPiTail  // r in [-π, π]
        if r > pi / 2 { r = pi - r } else if r < -pi / 2 { r = -pi - r }
        // Taylor series to r^19 on [-π/2, π/2]: truncation error < 1e-16.
        let r2 = r * r
        var p = -1.0 / 121_645_100_408_832_000.0
        p = p * r2 + 1.0 / 355_687_428_096_000.0
        p = p * r2 - 1.0 / 1_307_674_368_000.0
        p = p * r2 + 1.0 / 6_227_020_800.0
        p = p * r2 - 1.0 / 39_916_800.0
        p = p * r2 + 1.0 / 362_880.0
        p = p * r2 - 1.0 / 5_040.0
        p = p * r2 + 1.0 / 120.0
        p = p * r2 - 1.0 / 6.0
        return r + r * r2 * p
    }

    /// Cosine of `x` radians.
    static func cos(_ x: Double) -> Double { sin(x + pi / 2) }

    /// e raised to `x`.
    static func exp(_ x: Double) -> Double {
        if x.isNaN { return .nan }
        if x > 709.7 { return .infinity }
        if x < -745.1 { return 0 }
        let k = (x / ln2).rounded()
        let r = (x - k * ln2Head) - k * ln2Tail  // |r| <= ln2 / 2
        // Taylor series to r^14: truncation error < 1e-18 for |r| <= 0.35.
        var p = 1.0 / 87_178_291_200.0
        var factorial = 87_178_291_200.0
        for n in stride(from: 13, through: 1, by: -1) {
            factorial /= Double(n + 1)
            p = p * r + 1.0 / factorial
        }
        p = p * r + 1.0
        return scaleByPowerOfTwo(p, Int(k))
    }

    /// Natural logarithm of `x` (> 0).
    static func log(_ x: Double) -> Double {
        guard x > 0, x.isFinite else { return x == 0 ? -.infinity : (x.isInfinite ? .infinity : .nan) }
        var e = Int(x.exponent)
        var m = x.significand  // [1, 2)
        if m > 1.414_213_562_373_095 {
            m /= 2
            e += 1
        }
        // log(m) = 2 atanh(s), s = (m-1)/(m+1), |s| <= 0.172: series to s^25.
        let s = (m - 1) / (m + 1)
        let s2 = s * s
        var p = 1.0 / 25.0
        for n in stride(from: 23, through: 1, by: -2) { p = p * s2 + 1.0 / Double(n) }
        return Double(e) * ln2Head + (Double(e) * ln2Tail + 2 * s * p)
    }

    /// Inverse of the standard normal cumulative distribution (P. J. Acklam's rational
    /// approximation, relative error < 1.2e-9), for `p` in (0, 1).
    static func inverseNormalCDF(_ p: Double) -> Double {
        let a = [-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                 1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00]
        let b = [-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                 6.680131188771972e+01, -1.328068155288572e+01]
        let c = [-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                 -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00]
        let d = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                 3.754408661907416e+00]
        let low = 0.024_25
        if p < low {
            let q = (-2 * log(p)).squareRoot()
            return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
                / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
        }
        if p > 1 - low { return -inverseNormalCDF(1 - p) }
        let q = p - 0.5
        let r = q * q
        return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q
            / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
    }

    /// `x * 2^k`, exact while the result is a normal number.
    private static func scaleByPowerOfTwo(_ x: Double, _ k: Int) -> Double {
        var result = x
        var k = k
        while k > 1000 { result *= Double(sign: .plus, exponent: 1000, significand: 1); k -= 1000 }
        while k < -1000 { result *= Double(sign: .plus, exponent: -1000, significand: 1); k += 1000 }
        return result * Double(sign: .plus, exponent: k, significand: 1)
    }
}

// MARK: - Small numeric helpers used across the generator

extension Double {
    /// Clamped to `lo...hi`.
    @inline(__always) func clamped(_ lo: Double, _ hi: Double) -> Double { Swift.min(Swift.max(self, lo), hi) }

    /// Hermite smoothstep of `self` between `edge0` and `edge1`: 0 below, 1 above, C1-smooth between.
    @inline(__always) func smoothstep(_ edge0: Double, _ edge1: Double) -> Double {
        let t = ((self - edge0) / (edge1 - edge0)).clamped(0, 1)
        return t * t * (3 - 2 * t)
    }
}

extension Int {
    @inline(__always) func clamped(_ lo: Int, _ hi: Int) -> Int { Swift.min(Swift.max(self, lo), hi) }
}
