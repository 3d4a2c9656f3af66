// The views the stock commands read shaped events through (see ``EventShape``). Each decodes
// only its shape's fields; a payload may carry more. A field a shape needs that is missing or of
// the wrong type makes the event unreadable, an error naming the log line, never a silent 0.

/// `pathEnd`: an object's whole measured path, at its end.
public struct PathEnd: Decodable, Sendable, Equatable {
    public var id: String
    /// `[[frame, x, y, radius?], …]`, in frame order.
    public var points: [[Double]]
    public var confidence: Double
    /// Why it ended (`bounce`, `exit`, `lost`, `end`), if the analyzer says.
    public var reason: String?
    /// The path in time, if the analyzer fits one (see ``PathTimeFit``).
    public var timeFit: PathTimeFit?
}

/// A path in time: each coordinate a polynomial in `t`, seconds from the first point,
/// coefficients from the constant term up: `x(t) = x[0] + x[1]·t (+ x[2]·t²)`,
/// `y(t) = y[0] + y[1]·t + y[2]·t²`. (The trajectory analyzer gives `x` a `t²` term only for a
/// ball flying towards or away from the camera, whose sideways steps perspective shrinks.)
public struct PathTimeFit: Codable, Sendable, Equatable {
    public var x: [Double]
    public var y: [Double]

    public init(x: [Double], y: [Double]) {
        self.x = x
        self.y = y
    }

    /// Whether both polynomials have a shape the stock tools draw: `x` of degree 1 or 2, `y` of 2.
    public var isDrawable: Bool { (2...3).contains(x.count) && y.count == 3 }

    /// The fitted position `t` seconds after the first point.
    public func position(at t: Double) -> (x: Double, y: Double) {
        (Self.value(x, at: t), Self.value(y, at: t))
    }

    /// `c[0] + c[1]·t + c[2]·t² + …`.
    public static func value(_ coefficients: [Double], at t: Double) -> Double {
        coefficients.reversed().reduce(0) { $0 * t + $1 }
    }
}

/// `pathUpdate`: the path of an object so far, observed in this frame. Everything but `id` and
/// `confidence` is a drawing hint.
public struct PathUpdate: Decodable, Sendable, Equatable {
    public var id: String
    public var confidence: Double
    /// Recent measured points, `[[x, y], …]`.
    public var detectedPoints: [[Double]]?
    /// Points of the fitted path, `[[x, y], …]`.
    public var projectedPoints: [[Double]]?
    public var timeFit: PathTimeFit?
    /// Seconds from the first point to this one.
    public var timeRange: PathTimeRange?
    /// Fraction of the frame width.
    public var movingAverageRadius: Double?
}

/// A span of recording time (see ``PathUpdate/timeRange``).
public struct PathTimeRange: Decodable, Sendable, Equatable {
    public var start: Double
    public var duration: Double
}

/// `box` and `boxRecovered`: where a tracked object is in this frame.
public struct Box: Decodable, Sendable, Equatable {
    public var id: String
    /// `[x, y, width, height]`.
    public var boundingBox: [Double]
    public var confidence: Double
    /// A name for the object (a seed's label), paired with a truth object of that id.
    public var label: String?
}

/// `boxLost`: which tracked object is lost.
public struct ObjectReference: Decodable, Sendable, Equatable {
    public var id: String
}

/// `quadrilateral`: four corners, `[x, y]` each; with an `id`, one tracked object's corners.
public struct Quadrilateral: Decodable, Sendable, Equatable {
    public var topLeft: [Double]
    public var topRight: [Double]
    public var bottomRight: [Double]
    public var bottomLeft: [Double]
    public var confidence: Double?
    public var id: String?

    /// The four corners in order, top left first, clockwise.
    public var corners: [[Double]] { [topLeft, topRight, bottomRight, bottomLeft] }
}

/// `blobs`: regions that changed in this frame.
public struct Blobs: Decodable, Sendable, Equatable {
    /// Share of the analyzed region that changed.
    public var changedFraction: Double
    public var blobs: [Blob]

    public struct Blob: Decodable, Sendable, Equatable {
        /// `[x, y, width, height]`.
        public var boundingBox: [Double]
    }
}
