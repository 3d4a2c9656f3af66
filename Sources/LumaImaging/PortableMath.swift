/// Elementary functions built only from IEEE-754 `+ − × ÷`, `squareRoot()` and `rounded()`, so
/// they give the same bits on every platform.
///
/// Why not Foundation's `sin`/`exp`/`log`? Those come from the platform's libm, and libms differ in
/// the last bit between glibc, Apple and musl. One differing bit can flip a pixel's rounding, a
/// truth coordinate's sixth decimal or an event's confidence, and then a scene rendered or a log
/// replayed on a Mac no longer matches the golden files recorded on Linux. Everything that reaches
/// an event log or a synthetic scene goes through these instead.
///
/// Accuracy: about 1e-15 relative in double precision, far below what an 8-bit image or a
/// six-decimal log can show; `exp(Float)` is within one unit in the last place of single
/// precision. The tests (`PortableMathTests`) check every function against known values.
///
/// The results are part of the golden logs and scenes: changing an algorithm here, even to a more
/// accurate one, changes bytes that `swift test` compares.
public enum PortableMath {
    /// π, the `Double` nearest to it (the same as `Double.pi`).
    public static let pi = 3.141_592_653_589_793
    /// ln 2.
    public static let ln2 = 0.693_147_180_559_945_3
    /// log₂ e = 1 / ln 2.
    public static let log2e = 1.442_695_040_888_963_4

    // 2π and ln 2 split into a head with few significant bits and a tail, so that `k * head` is
    // exact for the multiples used in argument reduction.
    private static let twoPiHead = 6.283_185_307_179_586
    private static let twoPiTail = 2.449_293_598_294_706_4e-16
    private static let ln2Head = 0.693_147_180_369_123_8
    private static let ln2Tail = 1.908_214_929_270_587_7e-10

    // MARK: - Sine and cosine

    /// Sine of `x` radians; NaN for infinities and NaN.
    public static func sin(_ x: Double) -> Double {
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

    /// Cosine of `x` radians: `sin(x + π/2)`.
    public static func cos(_ x: Double) -> Double { sin(x + pi / 2) }

    // MARK: - Exponential and logarithm

    /// e raised to `x`: `e^x = 2^k · e^r` with `k = round(x / ln 2)` and `|r| ≤ ln 2 / 2`, where a
    /// series converges fast. 0 below −745.1 (the smallest subnormal), ∞ above 709.7.
    public static func exp(_ x: Double) -> Double {
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

    /// e raised to `x` in single precision, fast enough for a whole kernel plane per frame (the
    /// tracker's Gaussian kernels): the argument is reduced to `|u| ≤ ln 2 / 2` in double precision,
    /// so the reduction adds no error even for large `|x|`, and a shorter series than the double
    /// precision `exp` does the rest. Within one unit in the last place for −87 ≤ x ≤ 0; 0 below
    /// −87, ∞ above 88.
    @inline(__always)
    public static func exp(_ x: Float) -> Float {
        if x < -87 { return 0 }
        if x > 88 { return .infinity }
        // e^x = 2^n · e^u with n = round(x / ln 2), |u| ≤ ln 2 / 2.
        let t = Double(x) * log2e
        let n = t.rounded()
        let u = (t - n) * ln2
        // e^u by its Taylor series to u^8: far below single precision's rounding for |u| ≤ 0.35.
        var p = 1.0 / 40320
        p = p * u + 1.0 / 5040
        p = p * u + 1.0 / 720
        p = p * u + 1.0 / 120
        p = p * u + 1.0 / 24
        p = p * u + 1.0 / 6
        p = p * u + 0.5
        p = p * u + 1
        p = p * u + 1
        return Float(p * Double(sign: .plus, exponent: Int(n), significand: 1))
    }

    /// Natural logarithm of `x`: −∞ for 0, NaN below 0, ∞ for ∞.
    public static func log(_ x: Double) -> Double {
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

    // MARK: - Inverse tangent

    /// `atan(v)` in radians, −π/2...π/2: three halvings of the angle
    /// (`atan v = 2 atan(v / (1 + √(1 + v²)))`) bring |v| under about 0.2 (the first brings ∞ to 1),
    /// where the alternating series converges quickly.
    public static func atan(_ v: Double) -> Double {
        guard v.isFinite else { return v > 0 ? pi / 2 : -pi / 2 }
        var u = v
        var scale = 1.0
        for _ in 0..<3 {
            u = u / (1 + (1 + u * u).squareRoot())
            scale *= 2
        }
        var term = u, sum = u
        let u2 = u * u
        var i = 1
        while i < 40 {
            term *= -u2
            sum += term / Double(2 * i + 1)
            i += 1
        }
        return scale * sum
    }

    /// The angle of the point (`x`, `y`) in radians, −π...π; 0 at the origin.
    public static func atan2(_ y: Double, _ x: Double) -> Double {
        if x == 0 && y == 0 { return 0 }
        if x == 0 { return y > 0 ? pi / 2 : -pi / 2 }
        let a = atan(y / x)
        if x > 0 { return a }
        return y >= 0 ? a + pi : a - pi
    }

    // MARK: - Normal distribution

    /// Inverse of the standard normal cumulative distribution (P. J. Acklam's rational
    /// approximation, relative error < 1.2e-9), for `p` in (0, 1).
    public static func inverseNormalCDF(_ p: Double) -> Double {
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
