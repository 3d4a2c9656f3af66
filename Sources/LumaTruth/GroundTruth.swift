/// Everything a synthetic scene knows about its frames, for scoring analyzers against.
///
/// ## Coordinates
/// All positions are **normalized with Apple Vision's lower-left origin**, the convention the
/// analyzers report in:
/// - `x = px / width`, where `px` is the horizontal pixel coordinate measured from the left edge of
///   the frame (the left edge of pixel column `c` is at `px = c`, its centre at `c + 0.5`);
/// - `y = 1 - py / height`, where `py` is measured down from the top edge of the top row.
///
/// So (0, 0) is the bottom-left corner and (1, 1) the top-right; the pixel that contains a truth
/// point is column `Int(x * width)`, row `Int((1 - y) * height)` of a top-row-first buffer.
/// Lengths are fractions of the frame: a ball radius is divided by the **width**, a box width by
/// the width and a box height by the height. Every number is rounded to 6 decimals.
///
/// Truth is computed analytically (closed-form parabolas and paths), never measured from pixels.
public struct GroundTruth: Codable, Sendable, Equatable {
    /// Always `"lumatrace-truth"`.
    public var format = "lumatrace-truth"
    /// Schema version, currently 1.
    public var version = 1
    /// Frame size in pixels and number of frames of the recording this truth describes.
    public var width: Int
    public var height: Int
    public var frames: Int
    /// Free text: generator, scene kind, seed, settings and a description of what is in the scene.
    public var notes: String
    /// Free-flight pieces of thrown balls, ordered by ball then time. Empty when there are none.
    public var ballSegments: [BallSegment]
    /// Tracked rectangles, one per object. Empty when there are none.
    public var objectTracks: [ObjectTrack]

    public init(
        width: Int, height: Int, frames: Int, notes: String, ballSegments: [BallSegment] = [],
        objectTracks: [ObjectTrack] = []
    ) {
        self.width = width
        self.height = height
        self.frames = frames
        self.notes = notes
        self.ballSegments = ballSegments
        self.objectTracks = objectTracks
    }
}

/// One parabolic piece of a ball's flight: from a throw, an entry into the frame or a bounce, to
/// the next bounce, exit or end.
///
/// A ball that bounces twice and then leaves the frame has three segments: `ball1.1` (end
/// `"bounce"`), `ball1.2` (`"bounce"`), `ball1.3` (`"exit"`). Within one segment the centre follows
/// a single parabola with constant acceleration (gravity, downward in the image).
public struct BallSegment: Codable, Sendable, Equatable {
    /// `"ball<b>.<s>"`: segment `s` (from 1) of ball `b` (from 1), e.g. `"ball2.1"`.
    public var id: String
    /// `"ball<b>"`, shared by all segments of the same ball.
    public var ball: String
    /// How the segment ends:
    /// - `"bounce"`: the ball hits the floor line; the next segment of the same ball starts there.
    /// - `"exit"`: the centre leaves the frame; if the ball comes back (e.g. after going over the
    ///   top edge) that is a new segment.
    /// - `"end"`: the recording ends during the flight, or the ball stops (comes to rest on the
    ///   floor after its last small bounce).
    /// - `"caught"`: (real clips) the ball lands in a hand.
    public var end: String
    /// `[frame, x, y, radius]` for every frame in which the segment's centre is inside the frame,
    /// in frame order. Normalized lower-left coordinates; radius divided by the frame width.
    public var points: [[Double]]

    public init(id: String, ball: String, end: String, points: [[Double]]) {
        self.id = id
        self.ball = ball
        self.end = end
        self.points = points
    }
}

/// The box of one tracked rectangle in every frame of the recording.
public struct ObjectTrack: Codable, Sendable, Equatable {
    /// `"object<n>"`, from 1.
    public var id: String
    /// `[frame, x, y, w, h]` per frame: (x, y) is the **lower-left** corner of the box in
    /// normalized lower-left coordinates, `w` is divided by the frame width and `h` by the height.
    /// The box is the whole object, including any part hidden behind something.
    public var points: [[Double]]
    /// Frames in which more than 30% of the object's area is hidden (by the static post, by an
    /// object in front of it, or by balls), ascending; `nil` when it is never that hidden.
    public var occluded: [Int]?

    public init(id: String, points: [[Double]], occluded: [Int]? = nil) {
        self.id = id
        self.points = points
        self.occluded = occluded
    }
}
