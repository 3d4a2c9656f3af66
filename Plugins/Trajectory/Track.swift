/// One object followed from frame to frame: its measured points and the parabola through them.
struct Track: Sendable {
    /// Creation order: ties between tracks are always broken by it.
    let serial: Int
    private(set) var points: [TrackPoint]
    /// The fit through all points, refreshed whenever a point is added.
    private(set) var fit: BallisticFit?
    /// Analyzed frames in a row without a point, up to and including the current one.
    var misses = 0
    /// Ordinal of the trajectory's id, given when it is first reported.
    var ordinal: Int?
    /// Whether a point was added in the current frame.
    var gainedPoint = false
    /// The ball's look at its last clean detection, to find it when differencing cannot.
    var template: BallTemplate?
    /// Points in a row found by appearance rather than detected.
    private(set) var recoveredRun = 0

    init(serial: Int, points: [TrackPoint]) {
        self.serial = serial
        self.points = points
        fit = BallisticFit(points[...])
    }

    var first: TrackPoint { points[0] }
    var last: TrackPoint { points[points.count - 1] }
    var count: Int { points.count }
    var isReported: Bool { ordinal != nil }

    /// Mean radius of the last `window` points, frame pixels.
    func meanRadius(window: Int) -> Double {
        let recent = points.suffix(window)
        var sum = 0.0
        for p in recent { sum += p.radius }
        return sum / Double(recent.count)
    }

    /// Speed at the last point from the fit (or the last two points), px/s.
    var speed: Double {
        if let fit {
            let v = fit.velocity(at: last.time)
            return (v.x * v.x + v.y * v.y).squareRoot()
        }
        guard points.count >= 2 else { return 0 }
        let a = points[points.count - 2], b = last
        let dt = b.time - a.time
        guard dt > 0 else { return 0 }
        return ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot() / dt
    }

    /// Removes points that the path clearly does not go through, worst first, while the fit's
    /// scatter is above `expected`: a track that took the wrong blobs for a few frames (a ball
    /// merged with another ball, or with the ghost it left in the first frame) sheds them once the
    /// rest of its points make the true path clear. A point goes when it is off the path by more
    /// than four times the typical scatter of the others.
    mutating func rejectOutliers(expected: Double) {
        trimStart(expected: expected)
        while points.count > 6, let current = fit, current.rms > 1.5 * expected {
            var residuals: [Double] = []
            residuals.reserveCapacity(points.count)
            for p in points {
                let q = current.position(at: p.time)
                residuals.append(((q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y)).squareRoot())
            }
            var worst = 0
            for i in residuals.indices where residuals[i] > residuals[worst] { worst = i }
            let typical = residuals.sorted()[residuals.count / 2] * 1.5
            guard residuals[worst] > 4 * max(expected, typical) else { return }
            points.remove(at: worst)
            fit = BallisticFit(points[...])
        }
    }

    /// Drops up to three first points at a time while that makes the fit much tighter: a track
    /// that started on the wrong blobs (a ball merged with the ghost it left in the first frame)
    /// pulls its whole fit towards them, so single outliers do not stand out there.
    private mutating func trimStart(expected: Double) {
        while points.count > 6, let current = fit, current.rms > 1.5 * expected {
            var best: (drop: Int, fit: BallisticFit)?
            for drop in 1...min(3, points.count - 6) {
                guard let trial = BallisticFit(points[drop...]) else { continue }
                if best == nil || trial.rms < best!.fit.rms { best = (drop, trial) }
            }
            guard let found = best, found.fit.rms < 0.5 * current.rms else { return }
            points.removeFirst(found.drop)
            fit = found.fit
        }
    }

    /// Removes the last point (handed to another track).
    mutating func removeLast() {
        points.removeLast()
        fit = BallisticFit(points[...])
    }

    /// Adds a point before the first.
    mutating func prepend(_ point: TrackPoint) {
        points.insert(point, at: 0)
        fit = BallisticFit(points[...])
    }

    mutating func append(_ point: TrackPoint, recovered: Bool = false) {
        recoveredRun = recovered ? recoveredRun + 1 : 0
        points.append(point)
        fit = BallisticFit(points[...])
        misses = 0
        gainedPoint = true
    }
}
