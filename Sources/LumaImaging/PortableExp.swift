/// `e^x` in single precision from IEEE arithmetic only, so it gives the same bits on every machine
/// (libm's `expf` may differ in the last place between systems, and event logs must not), and
/// fast enough for a whole kernel plane per frame. Within one unit in the last place of the true
/// value for −87 ≤ x ≤ 0 (the tests check 2e-7 relative).
public enum PortableExp {
    @inline(__always)
    public static func exp(_ x: Float) -> Float {
        if x < -87 { return 0 }
        if x > 88 { return .infinity }
        // e^x = 2^n · 2^f with n = round(x / ln 2), |f| ≤ 1/2; reduced in double precision, so
        // the reduction adds no error even for large |x|.
        let t = Double(x) * 1.4426950408889634
        let n = t.rounded()
        let u = (t - n) * 0.6931471805599453
        // e^u by its Taylor series (degree 8 is exact to double rounding here for |u| ≤ 0.35).
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
}
