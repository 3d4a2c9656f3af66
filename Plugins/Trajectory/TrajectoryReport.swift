import LumaAnalysis
import LumaImaging

/// Turns a track (frame pixels, y down, seconds since its first point) into the events' numbers
/// (normalized, y up, recording seconds).
struct TrajectoryReport: Sendable {
    let geometry: ProcessingGeometry
    let trajectoryLength: Int

    private var width: Double { Double(geometry.frameWidth) }

    func normalized(_ p: TrackPoint) -> [Double] { geometry.normalized(p.x, p.y).array }

    /// Mean radius of the last `trajectoryLength` points, frame pixels.
    func movingAverageRadius(_ track: Track) -> Double { track.meanRadius(window: trajectoryLength) }

    /// `[a, b, c]` of `y = a·x² + b·x + c` over all points, normalized; `nil` when the points do not
    /// move sideways enough for `y` to be a function of `x`.
    func equation(_ track: Track) -> [Double]? {
        let points = track.points
        var low = Double.infinity, high = -Double.infinity
        for p in points { low = min(low, p.x); high = max(high, p.x) }
        guard high - low >= 2 * Double(geometry.factor) + 1 else { return nil }
        guard let f = PolynomialFit.fit(degree: 2, count: points.count, point: {
            let p = geometry.normalized(points[$0].x, points[$0].y)
            return (p.x, p.y)
        }) else { return nil }
        return f.coefficients.reversed()
    }

    func equationCoefficients(_ track: Track) -> [Double] {
        if let e = equation(track) { return e }
        var sum = 0.0
        for p in track.points { sum += geometry.normalized(p.x, p.y).y }
        return [0, 0, sum / Double(track.count)]
    }

    /// The fit's polynomials in normalized coordinates: the constant term is a position, the others
    /// (velocity, acceleration) are displacements per second, flipped but not offset.
    func timeFit(_ fit: BallisticFit) -> TimeFit {
        let x = fit.x.coefficients, y = fit.y.coefficients
        let (w, h) = (geometry.frameWidth, geometry.frameHeight)
        let start = geometry.normalized(x[0], y[0])
        let velocity = NormalizedPoint(pixelDisplacementX: x[1], y: y[1], frameWidth: w, frameHeight: h)
        let acceleration = NormalizedPoint(pixelDisplacementX: x.count > 2 ? x[2] : 0, y: y[2], frameWidth: w, frameHeight: h)
        return TimeFit(x: x.count > 2 ? [start.x, velocity.x, acceleration.x] : [start.x, velocity.x], y: [start.y, velocity.y, acceleration.y])
    }

    func timeRange(_ track: Track) -> TimeRange {
        TimeRange(start: track.first.time, duration: track.last.time - track.first.time)
    }

    /// The `trajectory` event for the track's current state.
    func observation(_ track: Track, id: String, confidence: Double) -> TrajectoryObservation? {
        guard let fit = track.fit else { return nil }
        let recent = track.points.suffix(trajectoryLength)
        let equation = equation(track)
        let projected = track.points.suffix(5).map { p -> [Double] in
            if let e = equation {
                let x = geometry.normalized(p.x, p.y).x
                return [x, (e[0] * x + e[1]) * x + e[2]]
            }
            let q = fit.position(at: p.time)
            return geometry.normalized(q.x, q.y).array
        }
        return TrajectoryObservation(
            id: id, detectedPoints: recent.map(normalized), projectedPoints: projected,
            equationCoefficients: equation ?? equationCoefficients(track), timeFit: timeFit(fit),
            timeRange: timeRange(track), confidence: confidence,
            movingAverageRadius: movingAverageRadius(track) / width)
    }

    /// The `trajectory.end` event.
    func end(_ track: Track, id: String, reason: TrajectoryEnd.Reason, confidence: Double) -> TrajectoryEnd {
        let fit = track.fit
        let points = track.points.map { p -> [Double] in
            let n = geometry.normalized(p.x, p.y)
            return [Double(p.frame), n.x, n.y, p.radius / width]
        }
        var launch = Launch(velocity: [0, 0], pixelVelocity: [0, 0], pixelSpeed: 0, angle: 0)
        var apex: PathPoint?
        var landing: PathPoint?
        if let fit {
            // y up for output: flip the sign of vertical velocities.
            let v = fit.velocity(at: fit.origin)
            let vx = v.x, vy = -v.y
            let normalized = NormalizedPoint(pixelDisplacementX: v.x, y: v.y, frameWidth: geometry.frameWidth, frameHeight: geometry.frameHeight)
            launch = Launch(velocity: normalized.array, pixelVelocity: [vx, vy],
                            pixelSpeed: (vx * vx + vy * vy).squareRoot(),
                            angle: PortableMath.atan2(vy, vx) * 180 / PortableMath.pi)
            let c = fit.y.coefficients
            if c[2] > 0 {
                let t = -c[1] / (2 * c[2])
                let p = fit.position(at: fit.origin + t)
                let n = geometry.normalized(p.x, p.y)
                apex = PathPoint(x: n.x, y: n.y, time: fit.origin + t)
            }
            if let t = bottomCrossing(fit) {
                let p = fit.position(at: fit.origin + t)
                let n = geometry.normalized(p.x, Double(geometry.region.y1))
                landing = PathPoint(x: n.x, y: n.y, time: fit.origin + t)
            }
        }
        return TrajectoryEnd(
            id: id, reason: reason, points: points, equationCoefficients: equationCoefficients(track),
            timeFit: fit.map(timeFit) ?? TimeFit(x: [0, 0], y: [0, 0, 0]), timeRange: timeRange(track),
            confidence: confidence, movingAverageRadius: movingAverageRadius(track) / width,
            launch: launch, apex: apex, landing: landing)
    }

    /// Seconds after the fit's origin at which the path comes down through the bottom edge of the
    /// region of interest (the later crossing), or `nil` if it never does.
    func bottomCrossing(_ fit: BallisticFit) -> Double? {
        let c = fit.y.coefficients
        let bottom = Double(geometry.region.y1)
        let (a, b, k) = (c[2], c[1], c[0] - bottom)
        if a > 0 {
            let discriminant = b * b - 4 * a * k
            guard discriminant >= 0 else { return nil }
            return (-b + discriminant.squareRoot()) / (2 * a)
        }
        if a == 0, b > 0 { return -k / b }
        return nil
    }
}
