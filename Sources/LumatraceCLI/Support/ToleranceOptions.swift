import ArgumentParser
import LumaAnalysis
import LumaEngine
import LumaRegression

/// The tolerances of a semantic log diff, as command-line options (`diff`, `regress`).
struct ToleranceOptions: ParsableArguments {
    @Option(help: "Pixels a trajectory point may move and still count as unchanged (> 0).")
    var pointTolerance: Double = LogDiff.Tolerances().pointPixels

    @Option(help: "A track box drifts when its IoU with the old box falls below this (0...1).")
    var iouTolerance: Double = LogDiff.Tolerances().iou

    @Option(help: "Confidence changes up to this are not reported (0...1).")
    var confidenceTolerance: Double = LogDiff.Tolerances().confidence

    func validate() throws {
        guard pointTolerance > 0, pointTolerance.isFinite else { throw ValidationError("--point-tolerance \(pointTolerance) must be a positive number of pixels") }
        guard (0...1).contains(iouTolerance) else { throw ValidationError("--iou-tolerance \(iouTolerance) is outside 0...1") }
        guard (0...1).contains(confidenceTolerance) else { throw ValidationError("--confidence-tolerance \(confidenceTolerance) is outside 0...1") }
    }

    var tolerances: LogDiff.Tolerances {
        var t = LogDiff.Tolerances()
        t.pointPixels = pointTolerance
        t.iou = iouTolerance
        t.confidence = confidenceTolerance
        return t
    }
}

/// How far each score may drop before `regress` calls a change a regression (`--tolerance`).
struct ScoreToleranceOptions: ParsableArguments {
    @Option(name: .customLong("tolerance"), help: ArgumentHelp(
        "METRIC=DROP: how far a score may get worse and still pass (repeatable). With any --tolerance, a recording with truth fails only on such a drop, not on any change.",
        discussion: "Metrics: \(ScoreMetric.allCases.map(\.rawValue).joined(separator: ", ")) (point-error in pixels, the others 0...1). A metric not given may not drop at all.",
        valueName: "metric=drop"))
    var entries: [String] = []

    func validate() throws { _ = try tolerances }

    /// Whether scores decide (some `--tolerance` given) rather than any difference.
    var judgeByScores: Bool { !entries.isEmpty }

    var tolerances: [ScoreMetric: Double] {
        get throws {
            var out: [ScoreMetric: Double] = [:]
            for entry in entries {
                let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
                let names = ScoreMetric.allCases.map(\.rawValue).joined(separator: ", ")
                guard parts.count == 2, let metric = ScoreMetric(rawValue: parts[0]) else {
                    throw ValidationError("--tolerance \(entry): expected METRIC=DROP with METRIC one of \(names), e.g. --tolerance f1=0.01")
                }
                guard let drop = Double(parts[1]), drop.isFinite, drop >= 0, metric == .pointError || drop <= 1 else {
                    throw ValidationError("--tolerance \(entry): \(parts[1]) is not a drop of \(metric == .pointError ? "0 or more pixels" : "0...1")")
                }
                guard out.updateValue(drop, forKey: metric) == nil else {
                    throw ValidationError("--tolerance \(metric.rawValue) is given twice")
                }
            }
            return out
        }
    }
}
