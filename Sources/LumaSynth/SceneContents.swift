import LumaTruth

/// What the generator put into a scene, in **pixel units with a top-left origin** (y down), for
/// tests that look at pixels: where the floor line and the post are, how big and how contrasted
/// each ball is, which object plays which part.
///
/// The scoring truth is `GroundTruth` (normalized, lower-left origin); this is the cast list
/// behind it. Continuous pixel coordinates: the left edge of column `c` is at x = `c`, its centre
/// at `c + 0.5`.
public struct SceneContents: Sendable, Equatable {
    /// A thrown ball.
    public struct BallInfo: Sendable, Equatable {
        /// `"ball<n>"`, as in the truth's `BallSegment.ball`.
        public var id: String
        /// Radius in pixels.
        public var radius: Double
        /// Grey levels the ball's centre differs from the local background mean (negative =
        /// darker). The rendered disc is that grey plus gentle shading lit from the upper left.
        public var contrast: Double
        /// Fraction of vertical speed kept at each bounce.
        public var restitution: Double
        /// When the ball is thrown (or enters from a side), in seconds from frame 0; negative
        /// when it is already flying as the recording starts.
        public var launchTime: Double
    }

    /// A tracked rectangle.
    public struct ObjectInfo: Sendable, Equatable {
        /// `"object<n>"`, as in the truth's `ObjectTrack.id`.
        public var id: String
        /// Face pattern: `checker`, `stripes`, `blotches` or `rings`.
        public var pattern: String
        /// Size in pixels at scale 1.
        public var width: Double
        public var height: Double
        /// Largest scale reached (1 when the object never changes size).
        public var maximumScale: Double
        /// Front-to-back order where objects overlap: larger is nearer the camera.
        public var depth: Int
        /// Its part in the scene, e.g. "passes behind the post".
        public var role: String
    }

    /// Pixel row (continuous) of the floor line where balls bounce: a ball's lowest point
    /// touches it at a bounce, so its centre is one radius above.
    public var floorLine: Double
    /// Gravity in px/s², downward; nil when the scene has no balls.
    public var gravity: Double?
    /// The static foreground post, drawn in front of tracked objects (not of balls); nil when the
    /// scene has no tracked objects.
    public var post: SceneRect?
    public var balls: [BallInfo]
    public var objects: [ObjectInfo]
    /// Bounding box of the flickering lamp's light on the wall; nil without distractors.
    public var lamp: SceneRect?
    /// Horizontal semi-axis in pixels of the slow soft mover; nil without distractors.
    public var moverRadius: Double?
}
