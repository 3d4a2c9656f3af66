import LumaImaging

/// How likely a flight is a real ball in flight, 0…1: its geometry (is it a clean, long, visibly
/// curved parabola under the clip's gravity?), times what its appearance says.
///
/// Geometry alone cannot tell a ball from its shadow on a wall or a shirt: the shadow flies with the
/// same gravity and fits as well. Its appearance gives it away (``ClipAppearance``: polarity, size,
/// edge and lockstep against the clip's balls).
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
        let gate = geometry.flightGate(radius: r)
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

    /// The flight's confidence: its geometry, times what its appearance says (``ClipAppearance``).
    func confidence(_ flight: Flight, clipGravity: Double?, evidence: ClipAppearance.Evidence) -> Double {
        let geometric = geometric(flight, clipGravity: clipGravity).product
        return min(1, 2.5 * geometric) * ClipAppearance.factor(evidence)
    }
}
