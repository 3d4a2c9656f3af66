import LumaAnalysis

/// Options of the ``DifferencingAnalyzer``. Every option has a default; set one with
/// `--set differencing.KEY=VALUE`.
public struct DifferencingConfiguration: AnalyzerConfiguration {
    /// What each frame is compared with.
    public enum Mode: String, Codable, Sendable, CaseIterable {
        /// The previous analyzed frame: shows what moved since then (the classic frame difference).
        case previous
        /// A running-average background: shows everything that differs from the static scene.
        case background
    }

    /// A pixel counts as changed when its absolute difference is above this (grey levels, 1...254).
    public var threshold = 25
    public var mode = Mode.previous
    /// How fast the background follows the scene in `background` mode (0 < rate ≤ 1 per analyzed frame).
    public var learningRate = 0.05
    /// Smallest blob reported, in pixels.
    public var minArea = 4
    /// At most this many blobs per event, the largest first.
    public var maxBlobs = 50

    public init() {}

    public static var optionHelp: KeyValuePairs<String, String> {
        [
            "threshold": "changed-pixel threshold on the absolute difference, grey levels 1...254 (default 25)",
            "mode": "previous (frame to frame) or background (running average) (default previous)",
            "learningRate": "background update rate per analyzed frame, (0, 1] (default 0.05; background mode only)",
            "minArea": "smallest blob reported, in pixels, ≥ 1 (default 4)",
            "maxBlobs": "most blobs per event, largest first, 0...10000 (default 50)",
        ]
    }

    public func validate() throws(OptionError) {
        guard (1...254).contains(threshold) else { throw .outOfRange("threshold", threshold, allowed: "1...254") }
        guard learningRate.isFinite, learningRate > 0, learningRate <= 1 else { throw .outOfRange("learningRate", learningRate, allowed: "(0, 1]") }
        guard minArea >= 1, minArea <= 1 << 28 else { throw .outOfRange("minArea", minArea, allowed: "1...268435456") }
        guard (0...10000).contains(maxBlobs) else { throw .outOfRange("maxBlobs", maxBlobs, allowed: "0...10000") }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        threshold = try c.decode(Int.self, forKey: .threshold)
        mode = try c.decodeChoice(Mode.self, forKey: .mode)
        learningRate = try c.decode(Double.self, forKey: .learningRate)
        minArea = try c.decode(Int.self, forKey: .minArea)
        maxBlobs = try c.decode(Int.self, forKey: .maxBlobs)
    }
}
