import LumaImaging

/// How likely a flight is a real ball in flight, 0…1: its geometry (is it a clean, long, visibly
/// curved parabola under the clip's gravity?), unless it is another flight's shadow.
///
/// Geometry alone cannot tell a ball from its shadow on a wall or a shirt: the shadow flies with the
/// same gravity and fits as well. What gives it away is that it flies with its ball, a nearly
/// fixed offset away, and is darker than what it falls on while the ball is brighter than the
/// shadow (``shadowedBy(_:among:)``). A study of the shared clips found the clip's ball polarity
/// (are its balls brighter or darker than what they pass?) separating shadows too, but a scene with
/// balls of both kinds breaks it; the companion rule does not need one polarity per clip.
struct FlightConfidence: Sendable {
    let geometry: ProcessingGeometry
    let frameInterval: Double

    /// The geometric factors, each 0…1.
    struct Geometry: Sendable {
        var length = 0.0, residual = 0.0, gravity = 0.0, disc = 0.0, travel = 0.0, fill = 0.0, sagitta = 0.0
        var product: Double { length * residual * gravity * disc * travel * fill * sagitta }
    }

    func geometric(_ flight: Flight, clipGravity: Double?) -> Geometry {
        var g = Geometry()
        guard let fit = BallisticFit(flight.points[...]) else { return g }
        let n = Double(flight.count)
        let radii = flight.points.map(\.radius)
        let r = Median.of(radii)
        let gate = max(2 * Double(geometry.factor), 0.5 * r)
        g.length = 1 - PortableMath.exp(-n / 8)
        let relative = fit.rms / (0.35 * r)
        g.residual = 1 / (1 + relative * relative)
        let a = fit.acceleration
        if let clip = clipGravity {
            let off = (a - clip) / (0.35 * clip + 2 * min(fit.accelerationError, clip))
            g.gravity = PortableMath.exp(-off * off)
        } else {
            g.gravity = a > 0 ? 1 : 0
        }
        // Gravity in pixels shrinks with distance as a ball's radius does: far below a ball's
        // g / r for its size, a path is something large swinging (an arm, a body), not a ball.
        if a < TrajectoryQuality.gravityPerRadius.lowerBound * r { g.gravity = 0 }
        let meanR = radii.reduce(0, +) / n
        let spread = (radii.reduce(0) { $0 + ($1 - meanR) * ($1 - meanR) } / n).squareRoot() / max(meanR, 1e-9)
        g.disc = 1 / (1 + (spread / 0.5) * (spread / 0.5))
        let travelled = fit.distanceTravelled(over: flight.points[...])
        g.travel = min(1, travelled / (6 * r))
        let frames = (flight.last.time - flight.first.time) / frameInterval + 1
        g.fill = min(1, n / max(1, frames.rounded()))
        let half = fit.span / 2
        let sagitta = max(0, a) * half * half / 2
        g.sagitta = min(1, sagitta / (3 * gate))
        return g
    }

    /// The flight's confidence: its geometry, and whether it is the shadow of one of `others`.
    func confidence(_ flight: Flight, clipGravity: Double?, others: [Flight]) -> Double {
        let geometric = geometric(flight, clipGravity: clipGravity).product
        return min(1, 2.5 * geometric) * (Self.shadowedBy(flight, among: others) == nil ? 1 : Self.shadowFactor)
    }

    /// What a shadow's confidence is multiplied by.
    static let shadowFactor = 0.1
    /// How far from its ball a shadow may fly, in ball radii.
    static let shadowReach = 8.0

    /// The flight `flight` is the shadow of, if it is one: a shadow is darker than what it falls on,
    /// and flies with its ball, a nearly fixed offset away, while the ball is brighter than it.
    /// (A ball's shadow on a wall or a shirt falls with the same gravity and fits a parabola as
    /// well as the ball; only this tells them apart.)
    static func shadowedBy(_ flight: Flight, among others: [Flight]) -> Int? {
        let own = flight.logLumaRatio
        guard own < 0 else { return nil }
        let r = flight.radius
        for other in others where other.serial != flight.serial && other.logLumaRatio > own + 0.1 {
            // The offsets at the frames both have a point in.
            var i = 0, j = 0
            var dx: [Double] = [], dy: [Double] = []
            let a = flight.points, b = other.points
            while i < a.count && j < b.count {
                if a[i].frame == b[j].frame {
                    dx.append(b[j].x - a[i].x); dy.append(b[j].y - a[i].y)
                    i += 1; j += 1
                } else if a[i].frame < b[j].frame { i += 1 } else { j += 1 }
            }
            guard dx.count >= max(4, a.count / 2) else { continue }
            let n = Double(dx.count)
            let mx = dx.reduce(0, +) / n, my = dy.reduce(0, +) / n
            var spread = 0.0
            for k in dx.indices { spread += (dx[k] - mx) * (dx[k] - mx) + (dy[k] - my) * (dy[k] - my) }
            spread = (spread / n).squareRoot()
            let apart = (mx * mx + my * my).squareRoot()
            // Near its ball, and a fixed offset from it: two balls thrown alike drift apart at a
            // constant speed, a shadow does not.
            if apart >= 0.5 * r, apart <= Self.shadowReach * r, spread <= max(3, 0.6 * r) { return other.serial }
        }
        return nil
    }
}
