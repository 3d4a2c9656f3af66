import LumaImaging

/// One measured point of a trajectory, in frame pixels (top-left origin, y down).
struct TrackPoint: Sendable, Equatable {
    var frame: Int
    /// Recording seconds.
    var time: Double
    var x: Double
    var y: Double
    var radius: Double
}

/// A thrown object's path fitted in time: `x(t)` linear, `y(t)` quadratic, `t` in seconds from
/// the first point, in frame pixels with y down (so gravity makes `y.coefficients[2]` positive).
///
/// A ballistic path in the image plane is exactly this, whatever the direction of the throw,
/// which is why the time fit, unlike Vision's `y = f(x)`, also describes a ball tossed straight
/// up. A ball flying towards or away from the camera (a shot at a hoop filmed from behind the
/// shooter) slows down or speeds up sideways in the image, as perspective shrinks or grows its
/// steps: then `x(t)` is quadratic too. The fit takes the quadratic only when the points demand
/// it: from six points, when it explains the sideways motion far better than a line (an F
/// statistic above ``quadraticEvidence``), so a path in the image plane keeps its straight `x`.
struct BallisticFit: Sendable {
    /// Recording seconds of `t = 0`: the first point's time.
    let origin: Double
    let x: Polynomial
    let y: Polynomial
    /// Root-mean-square distance of the points from the path, in frame pixels, corrected for the
    /// fitted coefficients (five, or six with a quadratic `x`), so three points on a parabola do
    /// not look perfect.
    let rms: Double
    /// A robust per-axis scatter: the median distance of the points from the path, as a normal
    /// σ (a 2-D normal's median distance is 1.177 σ). A few bad points barely move it, so a track
    /// whose last points start to stray does not widen its own gate to let more in.
    let robustScatter: Double
    /// Standard error of the vertical acceleration estimate, px/s².
    let accelerationError: Double
    let count: Int
    /// Time from the first to the last point, seconds.
    let span: Double
    /// Mean of the points' times since `origin`, and the inverses of the normal matrices of the
    /// x and y fits in time centred on it: what `leverage(at:)` needs.
    private let centre: Double
    private let inverseX: [Double]
    private let inverseY: [Double]

    /// How much better a quadratic must explain `x(t)` than a line before the fit takes it: the
    /// F statistic of the added term, `(RSS₁ − RSS₂) / (RSS₂ / (n − 3))`. 25 is far beyond chance
    /// (the 0.1% point of F(1, n − 3) is 11–16 for 10–20 points).
    static let quadraticEvidence = 25.0

    /// Vertical acceleration, px/s², positive downwards (gravity).
    var acceleration: Double { 2 * (y.coefficients.count > 2 ? y.coefficients[2] : 0) }

    /// Where the fit puts the object at recording time `time`.
    func position(at time: Double) -> (x: Double, y: Double) {
        let t = time - origin
        return (x(t), y(t))
    }

    /// The length of the fitted path from `points`' first time to its last, measured point by
    /// point along the fit (a short hop goes up and down more than it goes sideways).
    func distanceTravelled(over points: ArraySlice<TrackPoint>) -> Double {
        guard let first = points.first else { return 0 }
        var travelled = 0.0
        var before = position(at: first.time)
        for p in points.dropFirst() {
            let here = position(at: p.time)
            travelled += ((here.x - before.x) * (here.x - before.x) + (here.y - before.y) * (here.y - before.y)).squareRoot()
            before = here
        }
        return travelled
    }

    /// Velocity at recording time `time`, px/s.
    func velocity(at time: Double) -> (x: Double, y: Double) {
        let t = time - origin
        return (x.derivative(t), y.derivative(t))
    }

    /// How much less certain the fit's position at `time` is than one measured point: the
    /// prediction's variance over the points' (the larger of the x and y fits). About `1/n` inside
    /// a long track, and growing fast beyond its ends, most for a young track.
    func leverage(at time: Double) -> Double {
        let u = time - origin - centre
        let v = [1, u, u * u]
        let nx = x.coefficients.count
        var lx = 0.0, ly = 0.0
        for i in 0..<nx { for j in 0..<nx { lx += v[i] * inverseX[i * nx + j] * v[j] } }
        for i in 0..<3 { for j in 0..<3 { ly += v[i] * inverseY[i * 3 + j] * v[j] } }
        return max(lx, ly, 0)
    }

    private static func inverse2(_ a: Double, _ b: Double, _ d: Double) -> [Double] {
        let det = a * d - b * b
        guard det != 0 else { return [Double](repeating: .infinity, count: 4) }
        return [d / det, -b / det, -b / det, a / det]
    }

    /// Inverse of a symmetric 3×3 matrix by cofactors.
    private static func inverse3(_ m: [Double]) -> [Double] {
        let c00 = m[4] * m[8] - m[5] * m[7], c01 = m[5] * m[6] - m[3] * m[8], c02 = m[3] * m[7] - m[4] * m[6]
        let det = m[0] * c00 + m[1] * c01 + m[2] * c02
        guard det != 0 else { return [Double](repeating: .infinity, count: 9) }
        let c10 = m[2] * m[7] - m[1] * m[8], c11 = m[0] * m[8] - m[2] * m[6], c12 = m[1] * m[6] - m[0] * m[7]
        let c20 = m[1] * m[5] - m[2] * m[4], c21 = m[2] * m[3] - m[0] * m[5], c22 = m[0] * m[4] - m[1] * m[3]
        return [c00 / det, c10 / det, c20 / det, c01 / det, c11 / det, c21 / det, c02 / det, c12 / det, c22 / det]
    }

    /// x against time: the straight `line`, or a parabola when there are at least 6 points and
    /// it fits them better by more than ``quadraticEvidence`` times its scatter per degree of freedom.
    private static func horizontalFit(_ points: ArraySlice<TrackPoint>, origin: Double, line: Polynomial) -> Polynomial {
        let base = points.startIndex
        guard points.count >= 6,
              let curve = PolynomialFit.fit(degree: 2, count: points.count, point: { (points[base + $0].time - origin, points[base + $0].x) })
        else { return line }
        var straight = 0.0, curved = 0.0
        for p in points {
            let t = p.time - origin
            straight += (line(t) - p.x) * (line(t) - p.x)
            curved += (curve(t) - p.x) * (curve(t) - p.x)
        }
        return curveExplains(straight: straight, curved: curved, count: points.count) ? curve : line
    }

    /// The quadratic-x rule, the one place it is written: whether a parabola in `x(t)` whose squared
    /// residuals sum to `curved` explains `count` points better than a line (`straight`) by more
    /// than ``quadraticEvidence`` times its scatter per degree of freedom (for at least 6 points).
    static func curveExplains(straight: Double, curved: Double, count: Int) -> Bool {
        straight - curved > quadraticEvidence * max(curved, 1e-12) / Double(count - 3)
    }

    /// Fits `points` (at least 3, with at least 3 distinct times); `nil` otherwise.
    init?(_ points: ArraySlice<TrackPoint>) {
        guard points.count >= 3, let first = points.first, let last = points.last else { return nil }
        let origin = first.time
        let base = points.startIndex
        guard let line = PolynomialFit.fit(degree: 1, count: points.count, point: { (points[base + $0].time - origin, points[base + $0].x) }),
              let fy = PolynomialFit.fit(degree: 2, count: points.count, point: { (points[base + $0].time - origin, points[base + $0].y) })
        else { return nil }
        let fx = Self.horizontalFit(points, origin: origin, line: line)
        self.origin = origin
        x = fx
        y = fy
        count = points.count
        span = last.time - origin
        var squares = 0.0
        var distances: [Double] = []
        distances.reserveCapacity(points.count)
        var meanT = 0.0
        for p in points { meanT += p.time - origin }
        meanT /= Double(points.count)
        var spread2 = 0.0, spread4 = 0.0
        for p in points {
            let t = p.time - origin
            let dx = fx(t) - p.x, dy = fy(t) - p.y
            squares += dx * dx + dy * dy
            distances.append((dx * dx + dy * dy).squareRoot())
            let u = t - meanT
            spread2 += u * u
            spread4 += u * u * u * u
        }
        centre = meanT
        // Normal matrices Σ v vᵀ for v = [1, u] (x) and [1, u, u²] (y), u = t − mean.
        let m0 = Double(points.count), m2 = spread2, m4 = spread4
        var m1 = 0.0, m3 = 0.0
        for p in points {
            let u = p.time - origin - meanT
            m1 += u
            m3 += u * u * u
        }
        inverseY = Self.inverse3([m0, m1, m2, m1, m2, m3, m2, m3, m4])
        inverseX = fx.coefficients.count == 3 ? inverseY : Self.inverse2(m0, m1, m2)
        let freedom = max(1, 2 * points.count - 2 - fx.coefficients.count)
        rms = (squares / Double(freedom)).squareRoot()
        distances.sort()
        let median = Median.ofSorted(distances)
        robustScatter = median / 1.1774 * (Double(2 * points.count) / Double(freedom)).squareRoot()
        // Var(c2) ≈ σ² / Σ(u² − mean u²)² for centred times; σ per axis ≈ rms / √2.
        let n = Double(points.count)
        let centred4 = spread4 - spread2 * spread2 / n
        accelerationError = centred4 > 0 ? 2 * (rms / (2.0).squareRoot()) / centred4.squareRoot() : .infinity
    }
}
