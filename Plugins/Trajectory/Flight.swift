import LumaImaging

/// A ball in free flight, as ``FlightFinder`` follows it: its measured points and the parabola
/// through them.
struct Flight: Sendable {
    /// Creation order: ties between flights are always broken by it.
    let serial: Int
    private(set) var points: [TrackPoint]
    /// Per point, the candidate's luma over the background's (see ``Candidate/lumaRatio``).
    private(set) var lumaRatios: [Double]
    /// The path the flight is grown on: falling with the clip's gravity once that is known.
    private(set) var path: Parabola
    /// Analyzed frames in a row without a point, up to and including the current one.
    var misses = 0
    /// Ordinal of the trajectory's id, given when it is first reported.
    var ordinal: Int?
    /// Whether a point was added in the current frame.
    var gainedPoint = false

    init(serial: Int, points: [TrackPoint], lumaRatios: [Double], path: Parabola) {
        self.serial = serial
        self.points = points
        self.lumaRatios = lumaRatios
        self.path = path
        measure()
    }

    var first: TrackPoint { points[0] }
    var last: TrackPoint { points[points.count - 1] }
    var count: Int { points.count }

    /// The median radius of its points, frame pixels (kept up to date as points are added: it is
    /// asked for many times a frame).
    private(set) var radius = 0.0

    /// The median log of its points' luma ratios: above 0 for something brighter than what it
    /// passes in front of, below 0 for something darker.
    private(set) var logLumaRatio = 0.0

    private mutating func measure() {
        radius = Median.of(points.map(\.radius))
        logLumaRatio = Median.of(lumaRatios.map { PortableMath.log(max($0, 1e-3)) })
    }

    /// Root-mean-square distance of the points from ``path``, frame pixels.
    private(set) var scatter = 0.0

    /// Adds a point in time order and fits the path again: falling with the clip's `gravity` while
    /// the flight is short (a free fit of a few noisy points extrapolates badly), with its own
    /// once it is long enough to tell.
    mutating func add(_ point: TrackPoint, lumaRatio: Double, gravity: Double?) {
        let at = points.firstIndex { $0.time > point.time } ?? points.count
        points.insert(point, at: at)
        lumaRatios.insert(lumaRatio, at: at)
        measure()
        refit(gravity: gravity)
    }

    /// Fits ``path`` to the points (see ``add(_:lumaRatio:gravity:)``).
    mutating func refit(gravity: Double?) {
        let fixed = points.count < Self.ownGravityPoints ? gravity : nil
        guard let fitted = Parabola(fitting: points[...], gravity: fixed) ?? Parabola(fitting: points[...], gravity: nil) else { return }
        path = fitted
        var squares = 0.0
        for p in points { let d = path.distance(to: p); squares += d * d }
        scatter = (squares / Double(points.count)).squareRoot()
    }

    /// Points from which a flight follows its own gravity rather than the clip's.
    static let ownGravityPoints = 10
}
