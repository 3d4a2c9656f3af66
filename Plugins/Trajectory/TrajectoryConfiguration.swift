import LumaAnalysis

/// Options of the ``TrajectoryAnalyzer``: Vision's, under Vision's names, plus our own. Every
/// option has a default; set one with `--set trajectory.KEY=VALUE`, and see them all with
/// `lumatrace analyzers trajectory`.
///
/// `frameAnalysisSpacing` and `regionOfInterest` are not here: every analyzer has them, and the
/// engine applies them (`AnalyzerContext`). Apple's `targetFrameTime` is deliberately absent:
/// it trades accuracy for wall-clock speed, and results must not depend on how fast the machine is.
public struct TrajectoryConfiguration: AnalyzerConfiguration {
    /// Which trajectories are reported.
    public enum Filter: String, OptionChoice {
        /// Every trajectory that passes `direction`, `minimumConfidence` and `minimumLength`.
        case none
        /// The business logic of Apple's "Detecting moving objects in a video" sample on top: moves
        /// left to right (unless `direction` says otherwise), starts in the first half of the
        /// region of interest, has at least 8 points, opens downwards (`a ≤ 0`), confidence > 0.9.
        case `throw`
    }

    /// How the analyzer finds balls and links them into paths (see the analyzer's documentation).
    public enum Design: String, OptionChoice {
        /// Version 2's: compact moving blobs, each searched for a ball's disc, linked frame by frame
        /// by a tracker. Tuned on synthetic scenes, where it still finds more throws; on real
        /// footage it finds fewer, reports more paths that are no ball, and runs 10–30× slower
        /// with people moving. Kept as an option until the window design holds its synthetic
        /// floors (docs/analyzers.md gives both designs' figures).
        case tracking
        /// Version 3's, the default: discs of motion energy against a median background, linked
        /// into flights by a window over the frames, confidence judged against the clip's own
        /// gravity and its balls' appearance (so a ball's shadow is not taken for it). Fast
        /// whatever the scene; better on every shared real clip.
        case window
    }

    /// Which way a reported trajectory must move, comparing its first and last point.
    public enum Direction: String, OptionChoice {
        case any, leftToRight, rightToLeft
    }

    /// Points a trajectory needs before it is reported, and the number of `detectedPoints` in each
    /// observation (Vision: at least 5).
    public var trajectoryLength = 10
    /// Smallest object radius followed, as a fraction of the frame width (Vision's meaning).
    public var objectMinimumNormalizedRadius = 0.0
    /// Largest object radius followed, as a fraction of the frame width. Unlike Vision's, it filters.
    public var objectMaximumNormalizedRadius = 1.0
    /// Mean absolute difference from the background, over a pixel's 3×3 neighbourhood, above which
    /// it counts as moving, in grey levels; 0 derives it from the measured sensor noise.
    public var threshold = 0
    /// Frames are shrunk (by block averaging) until the region of interest's longer side is at most
    /// this many pixels, but never so far that an object of the minimum radius (or of 2 pixels, if
    /// that is larger) would shrink below one pixel. 0 never shrinks.
    public var maximumProcessingDimension = 640
    public var filter = Filter.none
    public var direction = Direction.any
    /// Lowest confidence reported.
    public var minimumConfidence = 0.0
    /// Fewest measured points a trajectory must have to be reported, beyond `trajectoryLength`.
    public var minimumLength = 0
    /// How balls are found and linked into paths.
    public var design = Design.window

    public init() {}

    public static let options: [AnalyzerOption<Self>] = [
        AnalyzerOption("trajectoryLength", \.trajectoryLength, in: 5...10_000,
                       help: "points needed before a trajectory is reported, and points per observation"),
        AnalyzerOption("objectMinimumNormalizedRadius", \.objectMinimumNormalizedRadius, in: 0...1,
                       help: "smallest object radius, fraction of the frame width"),
        AnalyzerOption("objectMaximumNormalizedRadius", \.objectMaximumNormalizedRadius, in: .atLeast(\.objectMinimumNormalizedRadius, atMost: 1),
                       help: "largest object radius, fraction of the frame width"),
        AnalyzerOption("threshold", \.threshold, in: 0...254,
                       help: "moving-pixel threshold, mean grey levels over 3×3 against the background, 0 = from the noise"),
        AnalyzerOption("maximumProcessingDimension", \.maximumProcessingDimension, in: .either(0, or: 16...16384),
                       help: "shrink frames until the region's longer side is at most this, 0 = never"),
        AnalyzerOption("filter", \.filter, help: """
            which trajectories are reported, all or those the Apple sample's logic keeps (throw: left to right, \
            starts in the first half, ≥ 8 points, a ≤ 0, confidence > 0.9)
            """),
        AnalyzerOption("direction", \.direction, help: "which way a reported trajectory must move"),
        AnalyzerOption("minimumConfidence", \.minimumConfidence, in: 0...1, help: "lowest confidence reported"),
        AnalyzerOption("minimumLength", \.minimumLength, in: 0...100_000, help: "fewest points reported"),
        AnalyzerOption("design", \.design, help: "how balls are found and linked: window (motion-energy discs, flights over a window; the default) or tracking (version 2's blobs and tracker)"),
    ]
}
