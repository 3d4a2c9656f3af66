import LumaAnalysis

/// The options of a regression run that change what it finds: each shard writes them into its
/// part file (``RegressionPart/settings``), and the merge reads them back and checks that every
/// part of the run has the same.
public struct RegressionSettings: Codable, Equatable, Sendable {
    /// The analyzer settings tried on top of each golden's own (`NAME.KEY=VALUE`), as given.
    public var set: [String]
    /// How far observations may move and still count as the same (``LogDiff/Tolerances``): a
    /// point (pixels), a box's IoU and a confidence.
    public var pointPixels: Double
    public var iou: Double
    public var confidence: Double
    /// The score drop each metric may take before a golden fails.
    public var scoreTolerances: [ScoreMetric: Double]
    /// Whether scores decide (some tolerance given) rather than any difference.
    public var judgeByScores: Bool
    /// Whether the run rewrites the goldens it finds changed.
    public var update: Bool
    /// Whether goldens may start programs (the `external` analyzer's command).
    public var allowExternal: Bool
    /// Whether each golden's replay was timed: every part of a run is timed or none is.
    public var timed: Bool

    public init(set: [String], diffTolerances: LogDiff.Tolerances, scoreTolerances: [ScoreMetric: Double], judgeByScores: Bool,
                update: Bool, allowExternal: Bool, timed: Bool) {
        (self.set, pointPixels, iou, confidence) = (set, diffTolerances.pointPixels, diffTolerances.iou, diffTolerances.confidence)
        (self.scoreTolerances, self.judgeByScores, self.update, self.allowExternal, self.timed) = (scoreTolerances, judgeByScores, update, allowExternal, timed)
    }

    /// The settings as the part file holds them: the diff tolerances as one array, the score
    /// tolerances by metric name in name order, and `junitTimings` only when the run was timed.
    public var json: JSONValue {
        // Every member is a string, a number, a truth value or made of them: nothing to refuse.
        (try? JSONValueEncoder.encode(self)) ?? .null
    }

    private enum Keys: String, CodingKey {
        case set, diffTolerances, scoreTolerances, judgeByScores, update, allowExternal, junitTimings
    }

    private struct MetricKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(set, forKey: .set)
        try c.encode([pointPixels, iou, confidence], forKey: .diffTolerances)
        var scores = c.nestedContainer(keyedBy: MetricKey.self, forKey: .scoreTolerances)
        for (metric, drop) in scoreTolerances.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            try scores.encode(drop, forKey: MetricKey(stringValue: metric.rawValue))
        }
        try c.encode(judgeByScores, forKey: .judgeByScores)
        try c.encode(update, forKey: .update)
        try c.encode(allowExternal, forKey: .allowExternal)
        if timed { try c.encode(true, forKey: .junitTimings) }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        set = try c.decode([String].self, forKey: .set)
        let diff = try c.decode([Double].self, forKey: .diffTolerances)
        guard diff.count == 3 else {
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath + [Keys.diffTolerances],
                                                    debugDescription: "expected [pointPixels, iou, confidence]"))
        }
        (pointPixels, iou, confidence) = (diff[0], diff[1], diff[2])
        let scores = try c.nestedContainer(keyedBy: MetricKey.self, forKey: .scoreTolerances)
        scoreTolerances = [:]
        for key in scores.allKeys {
            guard let metric = ScoreMetric(rawValue: key.stringValue) else {
                throw DecodingError.dataCorrupted(.init(codingPath: scores.codingPath + [key], debugDescription: "not a score metric"))
            }
            scoreTolerances[metric] = try scores.decode(Double.self, forKey: key)
        }
        judgeByScores = try c.decode(Bool.self, forKey: .judgeByScores)
        update = try c.decode(Bool.self, forKey: .update)
        allowExternal = try c.decode(Bool.self, forKey: .allowExternal)
        timed = try c.decodeIfPresent(Bool.self, forKey: .junitTimings) ?? false
    }
}
