import LumaAnalysis

/// Options of the ``RectanglesAnalyzer``, with Vision's `VNDetectRectanglesRequest` names, meanings
/// and defaults; set one with `--set rectangles.KEY=VALUE`.
public struct RectanglesConfiguration: AnalyzerConfiguration {
    /// Shorter side ÷ longer side, at least (0...1).
    public var minimumAspectRatio = 0.5
    /// Shorter side ÷ longer side, at most (minimumAspectRatio...1).
    public var maximumAspectRatio = 1.0
    /// Shorter side at least this fraction of the frame's smaller dimension (0...1).
    public var minimumSize = 0.2
    /// Lowest confidence reported (0...1).
    public var minimumConfidence = 0.0
    /// Largest deviation of a corner from 90°, degrees (0...45).
    public var quadratureTolerance = 30.0
    /// Most rectangles per frame, best first; 0 = all (Vision's default is 1).
    public var maximumObservations = 1

    public init() {}

    public static var optionHelp: KeyValuePairs<String, String> {
        [
            "minimumAspectRatio": "shorter ÷ longer side, at least, 0...1 (default 0.5)",
            "maximumAspectRatio": "shorter ÷ longer side, at most, minimumAspectRatio...1 (default 1)",
            "minimumSize": "shorter side, fraction of the frame's smaller dimension, 0...1 (default 0.2)",
            "minimumConfidence": "lowest confidence reported, 0...1 (default 0)",
            "quadratureTolerance": "largest deviation of a corner from 90°, degrees, 0...45 (default 30)",
            "maximumObservations": "most rectangles per frame, best first, 0 = all, 0...1000 (default 1)",
        ]
    }

    public func validate() throws(OptionError) {
        guard minimumAspectRatio.isFinite, (0...1).contains(minimumAspectRatio) else {
            throw .outOfRange("minimumAspectRatio", minimumAspectRatio, allowed: "0...1")
        }
        guard maximumAspectRatio.isFinite, maximumAspectRatio >= minimumAspectRatio, maximumAspectRatio <= 1 else {
            throw .outOfRange("maximumAspectRatio", maximumAspectRatio, allowed: "minimumAspectRatio...1 (\(minimumAspectRatio)...1)")
        }
        guard minimumSize.isFinite, (0...1).contains(minimumSize) else { throw .outOfRange("minimumSize", minimumSize, allowed: "0...1") }
        guard minimumConfidence.isFinite, (0...1).contains(minimumConfidence) else {
            throw .outOfRange("minimumConfidence", minimumConfidence, allowed: "0...1")
        }
        guard quadratureTolerance.isFinite, (0...45).contains(quadratureTolerance) else {
            throw .outOfRange("quadratureTolerance", quadratureTolerance, allowed: "0...45")
        }
        guard (0...1000).contains(maximumObservations) else {
            throw .outOfRange("maximumObservations", maximumObservations, allowed: "0...1000")
        }
    }
}
