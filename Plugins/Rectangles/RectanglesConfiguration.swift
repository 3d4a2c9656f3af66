import LumaAnalysis
import LumaImaging

/// Options of the ``RectanglesAnalyzer``, with Vision's `VNDetectRectanglesRequest` names, meanings
/// and defaults (the detector's, `RectangleDetector/Settings`); set one with
/// `--set rectangles.KEY=VALUE`, and see them all with `lumatrace analyzers rectangles`.
public struct RectanglesConfiguration: AnalyzerConfiguration {
    /// Shorter side ÷ longer side, at least.
    public var minimumAspectRatio = Self.vision.minimumAspectRatio
    /// Shorter side ÷ longer side, at most.
    public var maximumAspectRatio = Self.vision.maximumAspectRatio
    /// Shorter side at least this fraction of the frame's smaller dimension.
    public var minimumSize = 0.2
    /// Lowest confidence reported.
    public var minimumConfidence = Self.vision.minimumConfidence
    /// Largest deviation of a corner from 90°, degrees.
    public var quadratureTolerance = Self.vision.quadratureTolerance
    /// Most rectangles per frame, best first; 0 = all (Vision's default is 1).
    public var maximumObservations = 1

    /// Vision's defaults, as the detector holds them.
    private static let vision = RectangleDetector.Settings()

    public init() {}

    public static let options: [AnalyzerOption<Self>] = [
        AnalyzerOption("minimumAspectRatio", \.minimumAspectRatio, in: 0...1, help: "shorter ÷ longer side, at least"),
        AnalyzerOption("maximumAspectRatio", \.maximumAspectRatio, in: .atLeast(\.minimumAspectRatio, atMost: 1),
                       help: "shorter ÷ longer side, at most"),
        AnalyzerOption("minimumSize", \.minimumSize, in: 0...1, help: "shorter side, fraction of the frame's smaller dimension"),
        AnalyzerOption("minimumConfidence", \.minimumConfidence, in: 0...1, help: "lowest confidence reported"),
        AnalyzerOption("quadratureTolerance", \.quadratureTolerance, in: 0...45, help: "largest deviation of a corner from 90°, degrees"),
        AnalyzerOption("maximumObservations", \.maximumObservations, in: 0...1000, help: "most rectangles per frame, best first, 0 = all"),
    ]
}
