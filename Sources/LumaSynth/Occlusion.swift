/// How much of a box is hidden by things in front of it: rectangles (the post, nearer objects)
/// and discs (balls).
///
/// The box is cut into vertical strips at every rectangle edge, so inside a strip the hidden
/// length of a column is constant for rectangles and one evaluation is exact. Strips that a disc
/// reaches are subdivided 32 times and integrated with the midpoint rule (error far below the
/// 30% threshold this feeds). Overlapping occluders are counted once: each column's hidden length
/// is the union of its intervals.
enum Occlusion {
    struct Disc {
        var x: Double
        var y: Double
        var radius: Double
    }

    /// Fraction of `box`'s area (0...1) covered by the union of `rects` and `discs`.
    static func hiddenFraction(of box: SceneRect, rects: [SceneRect], discs: [Disc]) -> Double {
        guard box.area > 0 else { return 0 }
        let rects = rects.filter { $0.overlapArea(box) > 0 }
        let discs = discs.filter {
            $0.x + $0.radius > box.left && $0.x - $0.radius < box.right
                && $0.y + $0.radius > box.top && $0.y - $0.radius < box.bottom
        }
        if rects.isEmpty && discs.isEmpty { return 0 }

        var cuts = [box.left, box.right]
        for r in rects { cuts += [r.left, r.right] }
        for d in discs { cuts += [d.x - d.radius, d.x + d.radius] }
        cuts = cuts.map { $0.clamped(box.left, box.right) }.sorted()

        var hidden = 0.0
        var intervals: [(Double, Double)] = []
        for i in 0..<(cuts.count - 1) {
            let a = cuts[i], b = cuts[i + 1]
            guard b > a else { continue }
            let reachesDisc = discs.contains { $0.x - $0.radius < b && $0.x + $0.radius > a }
            let steps = reachesDisc ? 32 : 1
            let step = (b - a) / Double(steps)
            for s in 0..<steps {
                let x = a + (Double(s) + 0.5) * step
                intervals.removeAll(keepingCapacity: true)
                for r in rects where r.left <= x && x < r.right {
                    intervals.append((max(r.top, box.top), min(r.bottom, box.bottom)))
                }
                for d in discs where abs(x - d.x) < d.radius {
                    let half = (d.radius * d.radius - (x - d.x) * (x - d.x)).squareRoot()
                    intervals.append((max(d.y - half, box.top), min(d.y + half, box.bottom)))
                }
                hidden += unionLength(&intervals) * step
            }
        }
        return (hidden / box.area).clamped(0, 1)
    }

    /// Total length covered by a set of intervals, overlaps counted once.
    private static func unionLength(_ intervals: inout [(Double, Double)]) -> Double {
        intervals.sort { $0.0 < $1.0 }
        var total = 0.0
        var current: (Double, Double)?
        for (lo, hi) in intervals where hi > lo {
            if let c = current, lo <= c.1 {
                current = (c.0, max(c.1, hi))
            } else {
                if let c = current { total += c.1 - c.0 }
                current = (lo, hi)
            }
        }
        if let c = current { total += c.1 - c.0 }
        return total
    }
}
