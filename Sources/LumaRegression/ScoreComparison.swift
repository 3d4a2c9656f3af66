import Foundation
import LumaAnalysis
import LumaBase
import LumaEngine
/// A score that a regression run watches, and which way is better.
///
/// Metrics are compared at the precision they are printed with (three decimals, point error two),
/// so a change too small to see in the table is never a drop.
public enum ScoreMetric: String, CaseIterable, Sendable {
    /// Trajectory recall, precision and F1 (``TrajectoryScore``): higher is better.
    case recall, precision, f1
    /// Median trajectory point error in pixels: lower is better.
    case pointError = "point-error"
    /// Tracking success AUC and precision at 20 px (``TrackingScore``): higher is better.
    case auc, p20

    /// How the metric is named in tables: `trajectory F1`.
    public var label: String {
        switch self {
        case .recall: return "trajectory recall"
        case .precision: return "trajectory precision"
        case .f1: return "trajectory F1"
        case .pointError: return "point error"
        case .auc: return "tracking AUC"
        case .p20: return "P@20px"
        }
    }

    /// Decimals it is printed and compared with.
    public var decimals: Int { self == .pointError ? 2 : 3 }

    public var higherIsBetter: Bool { self != .pointError }

    /// Its value in `score`, or `nil` when the score has no part for it (no ball segments or no
    /// object tracks in the truth).
    public func value(in score: LogScore) -> Double? {
        switch self {
        case .recall: return score.trajectories?.recall
        case .precision: return score.trajectories?.precision
        case .f1: return score.trajectories?.f1
        case .pointError:
            // A log with no correct trajectory has no point error to compare.
            guard let t = score.trajectories, t.correct > 0 else { return nil }
            return t.medianError
        case .auc: return score.tracking?.successAUC
        case .p20: return score.tracking?.precision20
        }
    }
}

/// A metric that got worse by more than its tolerance.
public struct ScoreDrop: Sendable, Equatable {
    public var metric: ScoreMetric
    public var golden: Double
    public var new: Double
    public var tolerance: Double

    /// `trajectory F1 0.952 → 0.900 (tolerance 0.010)`.
    public var description: String {
        let d = metric.decimals
        return "\(metric.label) \(DecimalText.fixed(golden, d)) → \(DecimalText.fixed(new, d)) (tolerance \(DecimalText.fixed(tolerance, d)))"
    }

    /// The metrics of `new` that are worse than in `golden` by more than their tolerance (0 for a
    /// metric not in `tolerances`: any visible drop counts), in ``ScoreMetric`` order.
    public static func drops(golden: LogScore, new: LogScore, tolerances: [ScoreMetric: Double] = [:]) -> [ScoreDrop] {
        ScoreMetric.allCases.compactMap { metric in
            guard let a = metric.value(in: golden), let b = metric.value(in: new) else { return nil }
            let scale = metric.decimals == 2 ? 100.0 : 1000.0
            let (x, y) = ((a * scale).rounded() / scale, (b * scale).rounded() / scale)
            let worsening = metric.higherIsBetter ? x - y : y - x
            let tolerance = tolerances[metric] ?? 0
            // Compared in units of the last printed decimal, so 0.952 → 0.942 is exactly 0.010.
            guard ((worsening - tolerance) * scale).rounded() > 0 else { return nil }
            return ScoreDrop(metric: metric, golden: a, new: b, tolerance: tolerance)
        }
    }
}
