import LumaAnalysis

/// Options of the ``TrajectoryAnalyzer``: Vision's, under Vision's names, plus our own. Every
/// option has a default; set one with `--set trajectory.KEY=VALUE`.
///
/// `frameAnalysisSpacing` and `regionOfInterest` are not here: every analyzer has them, and the
/// engine applies them (``AnalyzerContext``). Apple's `targetFrameTime` is deliberately absent:
/// it trades accuracy for wall-clock speed, and results must not depend on how fast the machine is.
public struct TrajectoryConfiguration: AnalyzerConfiguration {
    /// Which trajectories are reported.
    public enum Filter: String, Codable, Sendable, CaseIterable {
        /// Every trajectory that passes `direction`, `minimumConfidence` and `minimumLength`.
        case none
        /// The business logic of Apple's "Detecting moving objects in a video" sample on top: moves
        /// left to right (unless `direction` says otherwise), starts in the first half of the
        /// region of interest, has at least 8 points, opens downwards (`a ≤ 0`), confidence > 0.9.
        case `throw`
    }

    /// Which way a reported trajectory must move, comparing its first and last point.
    public enum Direction: String, Codable, Sendable, CaseIterable {
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
    /// Lowest confidence reported, 0...1.
    public var minimumConfidence = 0.0
    /// Fewest measured points a trajectory must have to be reported, beyond `trajectoryLength`.
    public var minimumLength = 0

    public init() {}

    private enum CodingKeys: String, CodingKey {
        case trajectoryLength, objectMinimumNormalizedRadius, objectMaximumNormalizedRadius, threshold, maximumProcessingDimension
        case filter, direction, minimumConfidence, minimumLength
    }

    public static var optionHelp: KeyValuePairs<String, String> {
        [
            "trajectoryLength": "points needed before a trajectory is reported, and points per observation, 5...10000 (default 10)",
            "objectMinimumNormalizedRadius": "smallest object radius, fraction of the frame width, 0...1 (default 0)",
            "objectMaximumNormalizedRadius": "largest object radius, fraction of the frame width, minimum...1 (default 1)",
            "threshold": "moving-pixel threshold, mean grey levels over 3×3 against the background, 0...254; 0 = from the noise (default 0)",
            "maximumProcessingDimension": "shrink frames until the region's longer side is at most this, 0 (never) or 16...16384 (default 640)",
            "filter": "none or throw (Apple sample's logic: left to right, starts in the first half, ≥ 8 points, a ≤ 0, confidence > 0.9) (default none)",
            "direction": "any, leftToRight or rightToLeft (default any)",
            "minimumConfidence": "lowest confidence reported, 0...1 (default 0)",
            "minimumLength": "fewest points reported, 0...100000 (default 0)",
        ]
    }

    public func validate() throws(OptionError) {
        guard (5...10000).contains(trajectoryLength) else {
            throw .outOfRange("trajectoryLength", trajectoryLength, allowed: "5...10000")
        }
        guard objectMinimumNormalizedRadius.isFinite, (0...1).contains(objectMinimumNormalizedRadius) else {
            throw .outOfRange("objectMinimumNormalizedRadius", objectMinimumNormalizedRadius, allowed: "0...1")
        }
        guard objectMaximumNormalizedRadius.isFinite, objectMaximumNormalizedRadius <= 1,
              objectMaximumNormalizedRadius >= objectMinimumNormalizedRadius else {
            throw .outOfRange("objectMaximumNormalizedRadius", objectMaximumNormalizedRadius,
                              allowed: "objectMinimumNormalizedRadius...1 (\(objectMinimumNormalizedRadius)...1)")
        }
        guard (0...254).contains(threshold) else { throw .outOfRange("threshold", threshold, allowed: "0...254") }
        guard maximumProcessingDimension == 0 || (16...16384).contains(maximumProcessingDimension) else {
            throw .outOfRange("maximumProcessingDimension", maximumProcessingDimension, allowed: "0 or 16...16384")
        }
        guard minimumConfidence.isFinite, (0...1).contains(minimumConfidence) else {
            throw .outOfRange("minimumConfidence", minimumConfidence, allowed: "0...1")
        }
        guard (0...100_000).contains(minimumLength) else { throw .outOfRange("minimumLength", minimumLength, allowed: "0...100000") }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        trajectoryLength = try c.decode(Int.self, forKey: .trajectoryLength)
        objectMinimumNormalizedRadius = try c.decode(Double.self, forKey: .objectMinimumNormalizedRadius)
        objectMaximumNormalizedRadius = try c.decode(Double.self, forKey: .objectMaximumNormalizedRadius)
        threshold = try c.decode(Int.self, forKey: .threshold)
        maximumProcessingDimension = try c.decode(Int.self, forKey: .maximumProcessingDimension)
        filter = try c.decodeChoice(Filter.self, forKey: .filter)
        direction = try c.decodeChoice(Direction.self, forKey: .direction)
        minimumConfidence = try c.decode(Double.self, forKey: .minimumConfidence)
        minimumLength = try c.decode(Int.self, forKey: .minimumLength)
    }
}
