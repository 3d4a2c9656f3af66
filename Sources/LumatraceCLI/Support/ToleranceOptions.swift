import ArgumentParser
import LumaEngine

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
