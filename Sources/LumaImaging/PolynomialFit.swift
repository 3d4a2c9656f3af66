/// A polynomial `c[0] + c[1]·t + c[2]·t² + …` in one variable.
public struct Polynomial: Equatable, Sendable {
    /// Coefficients from the constant term up.
    public var coefficients: [Double]

    public init(_ coefficients: [Double]) { self.coefficients = coefficients }

    public var degree: Int { coefficients.count - 1 }

    /// The value at `t` (Horner's rule).
    @inlinable
    public func callAsFunction(_ t: Double) -> Double {
        var v = 0.0
        for c in coefficients.reversed() { v = v * t + c }
        return v
    }

    /// The first derivative.
    public var derivative: Polynomial {
        guard coefficients.count > 1 else { return Polynomial([0]) }
        return Polynomial((1..<coefficients.count).map { Double($0) * coefficients[$0] })
    }
}

/// Least-squares polynomial fits of low degree, solved in a fixed order so the result is the same
/// on every machine.
///
/// The abscissae are centred on their mean and scaled to about ±1 before the normal equations are
/// formed: raw times like 12.3 s or pixel columns like 900 would otherwise make t⁴ sums swamp the
/// constant ones and lose most of a double's digits.
public enum PolynomialFit {
    /// Fits `value ≈ p(t)` of `degree` (0...3) to `count` points, weighting point `i` by
    /// `weight(i)` (default 1). `point(i)` gives `(t, value)`. Returns `nil` when the points cannot
    /// determine the polynomial (fewer distinct abscissae than coefficients).
    public static func fit(degree: Int, count: Int, point: (Int) -> (t: Double, value: Double),
                           weight: ((Int) -> Double)? = nil) -> Polynomial? {
        precondition((0...3).contains(degree), "degree 0...3")
        let k = degree + 1
        guard count >= k else { return nil }
        var sumW = 0.0, sumT = 0.0
        for i in 0..<count {
            let w = weight?(i) ?? 1
            sumW += w
            sumT += w * point(i).t
        }
        guard sumW > 0 else { return nil }
        let mean = sumT / sumW
        var spread = 0.0
        for i in 0..<count { spread = max(spread, abs(point(i).t - mean)) }
        let scale = spread > 0 ? spread : 1

        // Normal equations in u = (t − mean) / scale: A[r][c] = Σ w u^(r+c), b[r] = Σ w v u^r.
        var a = [Double](repeating: 0, count: k * k)
        var b = [Double](repeating: 0, count: k)
        var powers = [Double](repeating: 0, count: 2 * k - 1)
        for i in 0..<count {
            let (t, v) = point(i)
            let w = weight?(i) ?? 1
            let u = (t - mean) / scale
            var p = w
            for j in 0..<(2 * k - 1) {
                powers[j] += p
                if j < k { b[j] += p * v }
                p *= u
            }
        }
        for r in 0..<k { for c in 0..<k { a[r * k + c] = powers[r + c] } }
        guard let scaled = solve(&a, &b, size: k) else { return nil }
        return Polynomial(expand(scaled, mean: mean, scale: scale))
    }

    /// Gaussian elimination with partial pivoting; `nil` when the system is singular.
    static func solve(_ a: inout [Double], _ b: inout [Double], size k: Int) -> [Double]? {
        var largest = 0.0
        for v in a { largest = max(largest, abs(v)) }
        guard largest > 0 else { return nil }
        for col in 0..<k {
            var pivot = col
            for r in (col + 1)..<max(col + 1, k) where abs(a[r * k + col]) > abs(a[pivot * k + col]) { pivot = r }
            guard abs(a[pivot * k + col]) > 1e-12 * largest else { return nil }
            if pivot != col {
                for c in 0..<k { a.swapAt(col * k + c, pivot * k + c) }
                b.swapAt(col, pivot)
            }
            for r in (col + 1)..<max(col + 1, k) {
                let f = a[r * k + col] / a[col * k + col]
                if f == 0 { continue }
                for c in col..<k { a[r * k + c] -= f * a[col * k + c] }
                b[r] -= f * b[col]
            }
        }
        var x = [Double](repeating: 0, count: k)
        for r in stride(from: k - 1, through: 0, by: -1) {
            var s = b[r]
            for c in (r + 1)..<max(r + 1, k) { s -= a[r * k + c] * x[c] }
            x[r] = s / a[r * k + r]
        }
        return x
    }

    /// Rewrites `Σ s[j] ((t − mean) / scale)^j` as `Σ c[j] t^j`.
    static func expand(_ s: [Double], mean: Double, scale: Double) -> [Double] {
        let k = s.count
        var c = [Double](repeating: 0, count: k)
        // (t − m)^j = Σ_i binom(j, i) t^i (−m)^(j−i)
        for j in 0..<k {
            let coefficient = s[j] / pow(scale, j)
            var binomial = 1.0
            for i in 0...j {
                c[i] += coefficient * binomial * pow(-mean, j - i)
                binomial = binomial * Double(j - i) / Double(i + 1)
            }
        }
        return c
    }

    /// `x^n` by repeated multiplication (exact for small n, no libm).
    static func pow(_ x: Double, _ n: Int) -> Double {
        var r = 1.0
        for _ in 0..<n { r *= x }
        return r
    }
}
