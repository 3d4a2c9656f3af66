import LumaAnalysis

// The tracking analyzer's events. Boxes are `[x, y, width, height]`, normalized to the frame with
// Vision's lower-left origin, clipped to the frame. Keys appear in declaration order.

/// `track`: where a live track's object is in this frame. The counterpart of one
/// `VNDetectedObjectObservation` from a `VNTrackObjectRequest`.
public struct TrackObservation: EventPayload, Equatable {
    public static let kind = "track"
    public static let version = 1
    public static let shape: EventShape? = .box

    /// UUID-formatted, derived from the recording and the track's ordinal (seeds first, in the
    /// order given); the same for the track's whole life, across `track.lost` and `track.recovered`.
    public var id: String
    /// The seed's label, if it had one.
    public var label: String?
    public var boundingBox: [Double]
    /// 0...1, graded in both levels: how clearly the filter finds what it learnt. It drops when the
    /// object is hidden, changes a lot, or is gone.
    public var confidence: Double
}

/// `track.lost`: confidence stayed below `lostThreshold` for `lostFrames` frames, or the object
/// left the frame. `boundingBox` is the last box held with confidence.
public struct TrackLost: EventPayload, Equatable {
    public static let kind = "track.lost"
    public static let version = 1
    public static let shape: EventShape? = .boxLost

    public var id: String
    public var label: String?
    public var boundingBox: [Double]
    /// The last frame with confidence at or above `lostThreshold`.
    public var lastConfidentFrame: Int
    /// `occluded` (confidence stayed low) or `exit` (the box left the frame).
    public var reason: String
}

/// `track.recovered`: a lost track's object was found again near where it was lost, within
/// `recoverFrames`; the track goes on under the same id.
public struct TrackRecovered: EventPayload, Equatable {
    public static let kind = "track.recovered"
    public static let version = 1
    public static let shape: EventShape? = .boxRecovered

    public var id: String
    public var label: String?
    public var boundingBox: [Double]
    public var confidence: Double
    /// Frames since it was lost.
    public var framesLost: Int
}

/// `rectangleTrack`: where a rectangle's four corners are in this frame, for a track nominated
/// from a rectangle (`nominate=rectangles`); the counterpart of a `VNRectangleObservation` from a
/// `VNTrackRectangleRequest`. Corners are normalized with Vision's lower-left origin.
public struct RectangleTrackObservation: EventPayload, Equatable {
    public static let kind = "rectangleTrack"
    public static let version = 1
    public static let shape: EventShape? = .quadrilateral

    /// The same id as the track's `track` events.
    public var id: String
    public var topLeft: [Double]
    public var topRight: [Double]
    public var bottomRight: [Double]
    public var bottomLeft: [Double]
    /// 0...1: the track's confidence, times the edge support of the rectangle found again near the
    /// tracked box; when none is found there, the last corners moved with the box, at half the
    /// track's confidence.
    public var confidence: Double
}
