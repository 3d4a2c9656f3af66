import LumaAnalysis

// The two events of the trajectory analyzer. Coordinates are normalized to the whole frame with
// Vision's lower-left origin (x = column / width, y = 1 − row / height); radii are fractions of
// the frame width. (Vision's own points are relative to its region of interest; ours are not, so
// every analyzer's coordinates mean the same thing.) Keys appear in declaration order.

/// `trajectory`: a trajectory with at least `trajectoryLength` points gained a point in this frame.
/// The counterpart of one `VNTrajectoryObservation`.
public struct TrajectoryObservation: EventPayload, Equatable {
    public static let kind = "trajectory"
    public static let version = 1
    public static let shape: EventShape? = .pathUpdate

    /// UUID-formatted, derived from the recording and the trajectory's ordinal; the same for every
    /// observation of one trajectory.
    public var id: String
    /// The last `trajectoryLength` measured centroids, `[[x, y], …]`, oldest first.
    public var detectedPoints: [[Double]]
    /// The fitted path at the last five detections, `[[x, y], …]`: `[x, f(x)]` with the equation
    /// below, as Vision does, or the time fit's position when the path is too steep for `y = f(x)`.
    public var projectedPoints: [[Double]]
    /// `[a, b, c]` of `y = a·x² + b·x + c` fitted to all points so far. `[0, 0, mean y]` when the
    /// points barely move sideways (a vertical toss): use `timeFit` then.
    public var equationCoefficients: [Double]
    /// The path in time, which also describes a vertical toss.
    public var timeFit: TimeFit
    /// From the first detection to this one, in recording seconds.
    public var timeRange: TimeRange
    /// 0...1, from how closely the points follow one parabola and how many there are.
    public var confidence: Double
    /// Mean radius over the last `trajectoryLength` points, fraction of the frame width.
    public var movingAverageRadius: Double
}

/// `x(t) = x[0] + x[1]·t` and `y(t) = y[0] + y[1]·t + y[2]·t²`, normalized coordinates, `t` in
/// seconds since the trajectory's first detection (`timeRange.start`). `y[2]` is half the vertical
/// acceleration: negative under gravity, since y grows upwards. For a ball flying towards or away
/// from the camera, `x` has a third coefficient, `x[2]·t²`: perspective shrinks or grows its
/// sideways steps (see the analyzer's README section).
public struct TimeFit: Codable, Sendable, Equatable {
    public var x: [Double]
    public var y: [Double]
}

/// A span of recording time, like `CMTimeRange`.
public struct TimeRange: Codable, Sendable, Equatable {
    /// Seconds from the start of the recording.
    public var start: Double
    public var duration: Double
}

/// `trajectory.end`: a reported trajectory is over. Emitted once per trajectory, in the frame where
/// that became clear (for a bounce, when the next trajectory was recognised).
public struct TrajectoryEnd: EventPayload, Equatable {
    public static let kind = "trajectory.end"
    public static let version = 1
    public static let shape: EventShape? = .pathEnd

    public var id: String
    /// Why it ended.
    public var reason: Reason
    /// The whole measured path, `[[frame, x, y, radius], …]`.
    public var points: [[Double]]
    public var equationCoefficients: [Double]
    public var timeFit: TimeFit
    public var timeRange: TimeRange
    public var confidence: Double
    public var movingAverageRadius: Double
    /// Velocity and direction at the first detection.
    public var launch: Launch
    /// Highest point of the fitted path (possibly outside the measured part), or `nil` when the
    /// fit does not curve downwards.
    public var apex: PathPoint?
    /// Where the fitted path comes down through the bottom edge of the region of interest after
    /// the last detection, or `nil` if it never does.
    public var landing: PathPoint?

    public enum Reason: String, Codable, Sendable, CaseIterable {
        /// Another trajectory starts where this one stopped: the object bounced (or was hit).
        case bounce
        /// The object left the region of interest.
        case exit
        /// The object was not seen again, inside the region.
        case lost
        /// The recording ended during the flight.
        case end
    }

    /// Keys in declaration order, with `null` for an absent apex or landing (the synthesized
    /// encoder would leave the key out).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(reason, forKey: .reason)
        try c.encode(points.map(MeasuredPoint.init), forKey: .points)
        try c.encode(equationCoefficients, forKey: .equationCoefficients)
        try c.encode(timeFit, forKey: .timeFit)
        try c.encode(timeRange, forKey: .timeRange)
        try c.encode(confidence, forKey: .confidence)
        try c.encode(movingAverageRadius, forKey: .movingAverageRadius)
        try c.encode(launch, forKey: .launch)
        if let apex { try c.encode(apex, forKey: .apex) } else { try c.encodeNil(forKey: .apex) }
        if let landing { try c.encode(landing, forKey: .landing) } else { try c.encodeNil(forKey: .landing) }
    }
}

/// Launch velocity of a trajectory, at its first detection.
public struct Launch: Codable, Sendable, Equatable {
    /// `[vx, vy]` in normalized units per second (y up).
    public var velocity: [Double]
    /// `[vx, vy]` in pixels per second (y up).
    public var pixelVelocity: [Double]
    /// Speed in pixels per second.
    public var pixelSpeed: Double
    /// Direction above the horizontal, degrees (−180...180; 90 = straight up), measured in pixels so
    /// that it is the angle seen in the picture.
    public var angle: Double
}

/// A point of the fitted path and when the object is (or would be) there.
public struct PathPoint: Codable, Sendable, Equatable {
    public var x: Double
    public var y: Double
    /// Recording seconds.
    public var time: Double
}

/// One measured point of a path as logged: `[frame, x, y, radius]`, the frame an integer.
private struct MeasuredPoint: Encodable {
    var values: [Double]
    init(_ values: [Double]) { self.values = values }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.unkeyedContainer()
        for (i, v) in values.enumerated() {
            if i == 0 { try c.encode(Int(v)) } else { try c.encode(v) }
        }
    }
}
