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

    /// Each setting's pooled (F1, −ms per frame) in the units of the printed decimals (`--timings`):
    /// higher F1 and less time are better; `nil` for a setting without trajectories, all `nil`
    /// without timings.
    var printedF1Time: [[Int64]?] {
        let times = pooledTimings
        return pooled.indices.map { s in
            guard let t = pooled[s].trajectories, let time = times?[s],
                  let f1 = FixedDecimal.units(t.f1, decimals: JSONValue.decimals, below: 9e18),
                  let ms = FixedDecimal.units(time.millisecondsPerFrame, decimals: JSONValue.decimals, below: 9e18) else { return nil }
            return [f1, -ms]
        }
    }

    /// Whether each setting is on the Pareto front of pooled (recall, precision), in grid order,
    /// compared as printed (six decimals). A setting without trajectories is on no front; `nil`
    /// when no setting has trajectories.
    public var front: [Bool]? { Self.front(of: printedRecallPrecision) }

    /// Whether each setting is on the Pareto front of pooled F1 against its analysis time per frame
    /// (`--timings`), compared as printed (six decimals); `nil` without timings or trajectories.
    public var timeFront: [Bool]? { Self.front(of: printedF1Time) }

    /// Membership of the front of the points given, in order: `false` for a `nil` point; `nil` when all are.
    static func front(of points: [[Int64]?]) -> [Bool]? {
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
