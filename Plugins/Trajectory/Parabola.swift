/// A path under constant acceleration in frame pixels (y down): `x(t) = x0 + vx·u + ax·u²/2`,
/// `y(t) = y0 + vy·u + g·u²/2` with `u = t − origin` seconds. `ax` is 0 unless a long flight's
/// sideways steps clearly shrink or grow (perspective: a ball flying towards or away from the
/// camera). The cheap model hypotheses and the
/// growing of flights work with; reports use ``BallisticFit``, which also weighs perspective.
struct Parabola: Sendable, Equatable {
    var origin: Double
    var x0: Double
    var vx: Double
    var y0: Double
    var vy: Double
    /// Vertical acceleration, px/s², positive downwards.
    var gravity: Double
    /// Sideways acceleration, px/s² (perspective).
    var ax = 0.0

    @inline(__always)
    func position(at time: Double) -> (x: Double, y: Double) {
        let u = time - origin
        return (x0 + vx * u + 0.5 * ax * u * u, y0 + vy * u + 0.5 * gravity * u * u)
    }

    /// Velocity at `time`, px/s.
    @inline(__always)
    func velocity(at time: Double) -> (x: Double, y: Double) {
        let u = time - origin
        return (vx + ax * u, vy + gravity * u)
    }

    /// The parabola through three points at distinct times: `x` the least-squares line, `y` exact.
    init?(_ a: TrackPoint, _ b: TrackPoint, _ c: TrackPoint) {
        let (t1, t2) = (b.time - a.time, c.time - a.time)
        guard t1 > 0, t2 > t1 else { return nil }
        // y = y0 + vy·u + g/2·u² through (0, a.y), (t1, b.y), (t2, c.y).
        let s1 = (b.y - a.y) / t1, s2 = (c.y - a.y) / t2
        let half = (s2 - s1) / (t2 - t1)
        origin = a.time
        y0 = a.y
        gravity = 2 * half
        vy = s1 - half * t1
        let mean = (t1 + t2) / 3, mx = (a.x + b.x + c.x) / 3
        let suu = (0 - mean) * (0 - mean) + (t1 - mean) * (t1 - mean) + (t2 - mean) * (t2 - mean)
        vx = ((0 - mean) * (a.x - mx) + (t1 - mean) * (b.x - mx) + (t2 - mean) * (c.x - mx)) / suu
        x0 = mx - vx * mean
    }

    /// The parabola through two points at distinct times falling with `gravity`.
    init?(_ a: TrackPoint, _ b: TrackPoint, gravity: Double) {
        let dt = b.time - a.time
        guard dt > 0 else { return nil }
        origin = a.time
        x0 = a.x
        vx = (b.x - a.x) / dt
        y0 = a.y
        vy = (b.y - a.y - 0.5 * gravity * dt * dt) / dt
        self.gravity = gravity
    }

    /// The least-squares path through `points` (at least two distinct times), falling with
    /// `gravity` when it is given, with its own (at least three points) when not.
    init?(fitting points: ArraySlice<TrackPoint>, gravity: Double?) {
        guard points.count >= (gravity == nil ? 3 : 2), let first = points.first else { return nil }
        let origin = first.time
        var n = 0.0, st = 0.0, stt = 0.0, sx = 0.0, stx = 0.0
        for p in points {
            let u = p.time - origin
            n += 1; st += u; stt += u * u; sx += p.x; stx += u * p.x
        }
        let det = n * stt - st * st
        guard det > 1e-18 else { return nil }
        self.origin = origin
        vx = (n * stx - st * sx) / det
        x0 = (sx - vx * st) / n
        // x quadratic too when the points demand it (see ``BallisticFit/quadraticEvidence``).
        if points.count >= 6, let curve = Self.quadratic(points, origin: origin, value: \.x) {
            var straight = 0.0, curved = 0.0
            for p in points {
                let u = p.time - origin
                let a = x0 + vx * u - p.x, b = curve.0 + curve.1 * u + curve.2 * u * u - p.x
                straight += a * a
                curved += b * b
            }
            if BallisticFit.curveExplains(straight: straight, curved: curved, count: points.count) {
                (x0, vx, ax) = (curve.0, curve.1, 2 * curve.2)
            }
        }
        if let g = gravity {
            var sy = 0.0, sty = 0.0
            for p in points {
                let u = p.time - origin
                let y = p.y - 0.5 * g * u * u
                sy += y; sty += u * y
            }
            vy = (n * sty - st * sy) / det
            y0 = (sy - vy * st) / n
            self.gravity = g
        } else {
            guard let c = Self.quadratic(points, origin: origin, value: \.y) else { return nil }
            (y0, vy, self.gravity) = (c.0, c.1, 2 * c.2)
        }
    }

    /// `(c0, c1, c2)` of the least-squares `value = c0 + c1·u + c2·u²`, by Cramer's rule on the
    /// normal equations.
    private static func quadratic(_ points: ArraySlice<TrackPoint>, origin: Double, value: KeyPath<TrackPoint, Double>) -> (Double, Double, Double)? {
        var n = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0, sv = 0.0, s1v = 0.0, s2v = 0.0
        for p in points {
            let u = p.time - origin, v = p[keyPath: value]
            n += 1; s1 += u; s2 += u * u; s3 += u * u * u; s4 += u * u * u * u; sv += v; s1v += u * v; s2v += u * u * v
        }
        let d = determinant([n, s1, s2, s1, s2, s3, s2, s3, s4])
        guard abs(d) > 1e-18 else { return nil }
        return (determinant([sv, s1, s2, s1v, s2, s3, s2v, s3, s4]) / d,
                determinant([n, sv, s2, s1, s1v, s3, s2, s2v, s4]) / d,
                determinant([n, s1, sv, s1, s2, s1v, s2, s3, s2v]) / d)
    }

    private static func determinant(_ m: [Double]) -> Double {
        m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6])
    }

    /// Distance of `p` from where the path is at its time.
    @inline(__always)
    func distance(to p: TrackPoint) -> Double {
        let q = position(at: p.time)
        return ((q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y)).squareRoot()
    }
}
