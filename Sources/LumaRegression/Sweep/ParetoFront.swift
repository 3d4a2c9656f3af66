import LumaAnalysis
import LumaBase

/// The Pareto front of a set of points: the points no other point dominates. A point dominates
/// another when it is at least as good in every coordinate and better in one; every coordinate is
/// "higher is better" (negate one that is "lower is better", such as a time).
///
/// Equal points do not dominate each other, so duplicates on the front are all on it; a single
/// point is its own front.
public enum ParetoFront {
    /// For each point, whether it is on the front. Every point has the same number of coordinates.
    public static func members(_ points: [[Int64]]) -> [Bool] {
        points.map { point in
            !points.contains { other in dominates(other, point) }
        }
    }

    /// Whether `a` is at least as good as `b` in every coordinate and better in at least one.
    public static func dominates(_ a: [Int64], _ b: [Int64]) -> Bool {
        var better = false
        for (x, y) in zip(a, b) {
            if x < y { return false }
            if x > y { better = true }
        }
        return better
    }
}

extension SweepResult {
    /// Each setting's pooled (recall, precision) in the units of the printed decimals, so that a
    /// difference the outputs do not show never decides; `nil` for a setting without trajectories.
    var printedRecallPrecision: [[Int64]?] {
        pooled.map { score in
            guard let t = score.trajectories,
                  let recall = FixedDecimal.units(t.recall, decimals: JSONValue.decimals, below: 9e18),
                  let precision = FixedDecimal.units(t.precision, decimals: JSONValue.decimals, below: 9e18) else { return nil }
            return [recall, precision]
        }
    }

    /// Whether each setting is on the Pareto front of pooled (recall, precision), in grid order,
    /// compared as printed (six decimals). A setting without trajectories is on no front; `nil`
    /// when no setting has trajectories.
    public var front: [Bool]? {
        let points = printedRecallPrecision
        let scored = points.compactMap { $0 }
        guard !scored.isEmpty else { return nil }
        let onFront = ParetoFront.members(scored)
        var next = 0
        return points.map { point in
            guard point != nil else { return false }
            defer { next += 1 }
            return onFront[next]
        }
    }
}
