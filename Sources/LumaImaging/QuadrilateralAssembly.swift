extension RectangleDetector {
    /// Most segments taken into the search (the longest), and most cycles of four tried: bounds on
    /// the work a cluttered frame can cause.
    static let segmentLimit = 160
    static let cycleLimit = 20_000

    /// Where two segments meet: the intersection of their lines, and how far along each segment it
    /// lies (from its start, in pixels).
    struct Corner {
        var point: (x: Double, y: Double)
        var alongFirst: Double, alongSecond: Double
    }

    /// Quadrilaterals (corners in order around them) put together from `segments`: four segments
    /// that meet one another in a cycle, each pair near a right angle and near the segments' ends.
    /// Each side must be backed by edges running along it over at least 75% of its length
    /// (`edgeShare`, ``LineSegmentDetector/alignedEdgeShare(from:to:)``): pieces of a side too far
    /// apart to be joined still back it. The corners are not yet checked against the settings
    /// (``checked(_:width:height:)`` does).
    static func quadrilaterals(from all: [LineSegment], settings: Settings,
                               edgeShare: ((x: Double, y: Double), (x: Double, y: Double)) -> Double) -> [[(x: Double, y: Double)]] {
        let segments = Array(all.prefix(segmentLimit))
        let cosineTolerance = sine(degrees: 90 - min(max(settings.quadratureTolerance, 0), 45))
        // Corners between every pair that meets: |sin| of the angle between the lines at least
        // cos(tolerance), the intersection within reach of both segments.
        var meets = [[Int]](repeating: [], count: segments.count)
        var corners: [Int: Corner] = [:]
        func key(_ a: Int, _ b: Int) -> Int { a * segmentLimit + b }
        for a in segments.indices {
            for b in segments.indices where b > a {
                guard let c = corner(segments[a], segments[b], minimumSine: cosineTolerance) else { continue }
                meets[a].append(b); meets[b].append(a)
                corners[key(a, b)] = c
            }
        }
        /// Where `a` meets `b`, and how far along `a`.
        func meeting(_ a: Int, _ b: Int) -> (point: (x: Double, y: Double), alongA: Double) {
            let c = corners[a < b ? key(a, b) : key(b, a)]!
            return (c.point, a < b ? c.alongFirst : c.alongSecond)
        }

        var found: [[(x: Double, y: Double)]] = []
        var cycles = 0
        /// Whether segment `s` lies along at least a quarter of its side, between its corners with
        /// `before` and `after`: a side is one segment's, though other pieces may back the rest.
        func liesOnSide(_ s: Int, between before: Int, and after: Int) -> Bool {
            let (from, to) = (meeting(s, before).alongA, meeting(s, after).alongA)
            let (lo, hi) = (min(from, to), max(from, to))
            return hi > lo && min(hi, segments[s].length) - max(lo, 0) >= 0.25 * (hi - lo)
        }
        // Cycles s0 – s1 – s2 – s3 – s0 with s0 the smallest index and s1 < s3, so each is seen once.
        search: for s0 in segments.indices {
            for s1 in meets[s0] where s1 > s0 {
                for s2 in meets[s1] where s2 > s0 && s2 != s1 && liesOnSide(s1, between: s0, and: s2) {
                    for s3 in meets[s2] where s3 > s1 && s3 != s2 && meets[s0].contains(s3) {
                        let sides = [s0, s1, s2, s3]
                        guard liesOnSide(s2, between: s1, and: s3), liesOnSide(s3, between: s2, and: s0),
                              liesOnSide(s0, between: s3, and: s1) else { continue }
                        cycles += 1
                        if cycles > cycleLimit { break search }
                        let points = (0..<4).map { meeting(sides[$0], sides[($0 + 1) % 4]).point }
                        guard isConvex(points), brightnessAgrees(sides.map { segments[$0] }, points: points),
                              (0..<4).allSatisfy({ k in
                                  edgeShare(points[(k + 3) % 4], points[k]) >= 0.75
                              }) else { continue }
                        found.append(points)
                    }
                }
            }
        }
        return found
    }

    /// The corner two segments make, or nil: their lines cross within the tolerance of a right
    /// angle, at a point no farther beyond either segment's ends than 4 pixels plus 1.5 times its length (a
    /// segment may back only part of its side; the side's edge share decides).
    static func corner(_ a: LineSegment, _ b: LineSegment, minimumSine: Double) -> Corner? {
        let cross = a.direction.x * b.direction.y - a.direction.y * b.direction.x
        guard abs(cross) >= minimumSine else { return nil }
        // a.start + s·a.direction = b.start + t·b.direction
        let (dx, dy) = (b.start.x - a.start.x, b.start.y - a.start.y)
        let s = (dx * b.direction.y - dy * b.direction.x) / cross
        let t = (dx * a.direction.y - dy * a.direction.x) / cross
        let (la, lb) = (a.length, b.length)
        let (reachA, reachB) = (4 + 1.5 * la, 4 + 1.5 * lb)
        guard s >= -reachA, s <= la + reachA, t >= -reachB, t <= lb + reachB else { return nil }
        return Corner(point: (a.start.x + s * a.direction.x, a.start.y + s * a.direction.y), alongFirst: s, alongSecond: t)
    }

    /// Whether the four points turn the same way at every corner (a convex, simple quadrilateral).
    static func isConvex(_ p: [(x: Double, y: Double)]) -> Bool {
        var sign = 0.0
        for i in 0..<4 {
            let a = p[i], b = p[(i + 1) % 4], c = p[(i + 2) % 4]
            let turn = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x)
            guard turn != 0, sign == 0 || (turn > 0) == (sign > 0) else { return false }
            sign = turn
        }
        return true
    }

    /// Whether the sides agree on where the brighter side is: all towards the inside, or all
    /// towards the outside (a segment whose pixels do not agree on a brighter side has no say).
    static func brightnessAgrees(_ sides: [LineSegment], points: [(x: Double, y: Double)]) -> Bool {
        let cx = points.map(\.x).reduce(0, +) / 4, cy = points.map(\.y).reduce(0, +) / 4
        var inward = 0, outward = 0
        for s in sides where s.brighterSide != (0, 0) {
            let mx = (s.start.x + s.end.x) / 2, my = (s.start.y + s.end.y) / 2
            if (cx - mx) * s.brighterSide.x + (cy - my) * s.brighterSide.y > 0 { inward += 1 } else { outward += 1 }
        }
        return inward == 0 || outward == 0
    }
}
