/// Elementary functions computed from IEEE arithmetic and square roots only, so that they give the
/// same bits on every platform: libm's may differ in the last place between systems, and event
/// logs must not.
enum PortableMath {
    /// `e^x` by argument reduction and a series.
    static func exp(_ x: Double) -> Double {
        guard x.isFinite else { return x > 0 ? .infinity : 0 }
        if x < -700 { return 0 }
        if x > 700 { return .infinity }
        // e^x = (e^(x / 2^n))^(2^n) with |x / 2^n| ≤ 1/8.
        var n = 0
        var y = x
        while abs(y) > 0.125 { y /= 2; n += 1 }
        var term = 1.0, sum = 1.0
        for i in 1...14 {
            term *= y / Double(i)
            sum += term
        }
        for _ in 0..<n { sum *= sum }
        return sum
    }

    /// `atan2(y, x)` in radians, −π...π.
    static func atan2(_ y: Double, _ x: Double) -> Double {
        let pi = 3.141592653589793
        if x == 0 && y == 0 { return 0 }
        if x == 0 { return y > 0 ? pi / 2 : -pi / 2 }
        let a = atan(y / x)
        if x > 0 { return a }
        return y >= 0 ? a + pi : a - pi
    }

    /// `atan(v)`: three halvings of the angle (atan v = 2 atan(v / (1 + √(1 + v²)))) bring |v| under
    /// about 0.2 (the first brings ∞ to 1), where the alternating series converges quickly.
    static func atan(_ v: Double) -> Double {
        guard v.isFinite else { return v > 0 ? 3.141592653589793 / 2 : -3.141592653589793 / 2 }
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
}
