import LumaAnalysis

/// Options of the ``DifferencingAnalyzer``. Every option has a default; set one with
/// `--set differencing.KEY=VALUE`, and see them all with `lumatrace analyzers differencing`.
public struct DifferencingConfiguration: AnalyzerConfiguration {
    /// What each frame is compared with.
    public enum Mode: String, OptionChoice {
        /// The previous analyzed frame: shows what moved since then (the classic frame difference).
        case previous
        /// A running-average background: shows everything that differs from the static scene.
        case background
    }

    /// A pixel counts as changed when its absolute difference is above this, in grey levels.
    public var threshold = 25
    public var mode = Mode.previous
    /// How fast the background follows the scene in `background` mode, per analyzed frame.
    public var learningRate = 0.05
    /// Smallest blob reported, in pixels.
    public var minArea = 4
    /// At most this many blobs per event, the largest first.
    public var maxBlobs = 50

    public init() {}

    public static let options: [AnalyzerOption<Self>] = [
        AnalyzerOption("threshold", \.threshold, in: 1...254, help: "changed-pixel threshold on the absolute difference, grey levels"),
        AnalyzerOption("mode", \.mode, help: "what each frame is compared with, the previous analyzed frame or a running average"),
        AnalyzerOption("learningRate", \.learningRate, in: .above(0, atMost: 1),
                       help: "background update rate per analyzed frame (background mode only)"),
        AnalyzerOption("minArea", \.minArea, in: 1...(1 << 28), help: "smallest blob reported, in pixels"),
        AnalyzerOption("maxBlobs", \.maxBlobs, in: 0...10_000, help: "most blobs per event, largest first"),
    ]
}
