import LumaImaging

/// How likely a flight is a real ball in flight, 0…1: its geometry (is it a clean, long, visibly
/// curved parabola under the clip's gravity?) times its appearance, judged against the clip's own
/// balls.
///
/// Geometry alone cannot tell a ball from its shadow on a wall or a shirt: the shadow flies with the
/// same gravity and fits as well. The clip tells them apart: its most convincing flights show
/// whether its balls are brighter or darker than what they pass (``ClipPolarity``), and a flight
/// of the other polarity is most likely a shadow.
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
        let r = Flight.median(radii)
        let gate = max(2 * Double(geometry.factor), 0.5 * r)
        g.length = 1 - PortableMath.exp(-n / 8)
        let relative = fit.rms / (0.35 * r)
        g.residual = 1 / (1 + relative * relative)
        let a = fit.acceleration
        if let clip = clipGravity {
            let off = (a - clip) / (0.25 * clip + 2 * min(fit.accelerationError, clip))
            g.gravity = PortableMath.exp(-off * off)
        } else {
            g.gravity = a > 0 ? 1 : 0
        }
        let meanR = radii.reduce(0, +) / n
        let spread = (radii.reduce(0) { $0 + ($1 - meanR) * ($1 - meanR) } / n).squareRoot() / max(meanR, 1e-9)
        g.disc = 1 / (1 + (spread / 0.3) * (spread / 0.3))
        var travelled = 0.0
        var before = fit.position(at: flight.first.time)
        for p in flight.points.dropFirst() {
            let here = fit.position(at: p.time)
            travelled += ((here.x - before.x) * (here.x - before.x) + (here.y - before.y) * (here.y - before.y)).squareRoot()
            before = here
        }
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

    /// The flight `flight` is the shadow of, if it is one: a shadow is darker than what it falls on,
    /// and flies with its ball, a nearly fixed offset away, while the ball is brighter than it.
    /// (A ball's shadow on a wall or a shirt falls with the same gravity and fits a parabola as
    /// well as the ball; only this tells them apart.)
    static func shadowedBy(_ flight: Flight, among others: [Flight]) -> Int? {
        let own = ClipPolarity.logRatio(flight)
        guard own < 0 else { return nil }
        let r = flight.radius
        for other in others where other.serial != flight.serial && ClipPolarity.logRatio(other) > own + 0.1 {
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
            if apart >= 0.5 * r, spread <= max(3, 0.35 * r, 0.2 * apart) { return other.serial }
        }
        return nil
    }
}

/// Whether the clip's balls are brighter or darker than what they fly in front of, learnt from its
/// most convincing flights (the top third by geometric confidence), once they agree.
struct ClipPolarity: Sendable {
    /// +1 (brighter), −1 (darker), or 0 (not known yet, or the flights disagree).
    private(set) var sign = 0

    /// The median log luma ratio of a flight's points.
    static func logRatio(_ flight: Flight) -> Double {
        Flight.median(flight.lumaRatios.map { PortableMath.log(max($0, 1e-3)) })
    }

    /// Learns the polarity from `flights`, each with its weight (how convincing a flight it is).
    mutating func learn(_ flights: [(weight: Double, logRatio: Double)]) {
        let ranked = flights.filter { $0.weight > 0 }.sorted { ($0.weight, $0.logRatio) > ($1.weight, $1.logRatio) }
        let top = ranked.prefix(max(1, ranked.count / 3))
        var weight = 0.0, brighter = 0.0
        for f in top where f.logRatio != 0 {
            weight += f.weight
            if f.logRatio > 0 { brighter += f.weight }
        }
        guard ranked.count >= 3, weight > 0 else { sign = 0; return }
        let share = brighter / weight
        sign = share >= Self.agreement ? 1 : share <= 1 - Self.agreement ? -1 : 0
    }

    /// Share of the weight one polarity must hold.
    static let agreement = 0.6

    /// 1 for a flight of the clip's polarity (or while it is unknown); for one of the other, the
    /// closer its luma is to its background's the more it may still be a ball.
    func appearance(of flight: Flight) -> Double {
        let l = Self.logRatio(flight)
        guard sign != 0, (l > 0 ? 1 : -1) != sign else { return 1 }
        return PortableMath.exp(-(l / 0.08) * (l / 0.08))
    }
}
