/// A quadrilateral found in an image: four corners in pixel coordinates (top-left origin,
/// continuous), in order around the shape starting from the top-left one, and how well its four
/// sides are backed by edges.
public struct DetectedQuadrilateral: Equatable, Sendable {
    /// Top-left, top-right, bottom-right, bottom-left.
    public var corners: [(x: Double, y: Double)]
    /// 0...1: the share of points along the four sides that lie on an edge.
    public var confidence: Double

    public init(corners: [(x: Double, y: Double)], confidence: Double) {
        self.corners = corners
        self.confidence = confidence
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.confidence == b.confidence && a.corners.count == b.corners.count
            && zip(a.corners, b.corners).allSatisfy { $0.x == $1.x && $0.y == $1.y }
    }
}

/// Finds rectangles seen in perspective: the classical detector behind requests like Vision's
/// `VNDetectRectanglesRequest`.
///
/// 1. **Edges**: gradient magnitude by central differences (`|gx| + |gy|`), kept where it is at
///    least ``Settings/edgeThreshold`` and in the strongest 10% of the image.
/// 2. **Outlines**: each connected set of edge pixels is one candidate outline; its convex hull is
///    reduced to the largest quadrilateral inside it (the corners are hull vertices).
/// 3. **Sides**: an outline that touches other strong edges (a card on a busy desk, a goal frame
///    against a fence, a backboard with its hoop) is no quadrilateral, so the straight edges are
///    also found one by one (``LineSegmentDetector``) and put together: two segments meeting
///    within the quadrature tolerance of a right angle near their ends make a corner, and four
///    segments that corner one another in a cycle make a quadrilateral whose corners are the
///    intersections of their lines. Each side must lie along its segment over at least a quarter
///    of its length and along edges running its way over three quarters (pieces of a side broken
///    by what crosses it still count), and the four sides must agree on which side is brighter
///    (the inside, or the outside).
/// 4. **Checks**: an outline's quadrilateral must fill most of the hull (a disc's best
///    quadrilateral covers only 64% of it); every quadrilateral's corners must be within
///    `quadratureTolerance` of right angles, its shorter/longer side ratio within the aspect range,
///    its shorter side at least the minimum size; the confidence, the share of points along its
///    sides with an edge running along the side within a pixel (averaged over the four sides), at
///    least the minimum.
///
/// Results are sorted by confidence (then size, then position), and a quadrilateral whose corners
/// all lie within a few pixels of a better one's is dropped, so they are deterministic and each
/// shape is reported once.
public struct RectangleDetector {
    public struct Settings: Sendable, Equatable {
        /// Shorter side ÷ longer side, bounds (Vision: 0.5 and 1).
        public var minimumAspectRatio = 0.5
        public var maximumAspectRatio = 1.0
        /// Shorter side at least this many pixels.
        public var minimumSide = 8.0
        /// Largest deviation of a corner from 90°, degrees (Vision's `quadratureTolerance`, 30).
        public var quadratureTolerance = 30.0
        public var minimumConfidence = 0.0
        /// Weakest gradient (`|gx| + |gy|`, grey levels) that counts as an edge.
        public var edgeThreshold = 24
        /// Whether quadrilaterals are also assembled from line segments (step 3), which finds
        /// shapes whose outline touches other edges; off, only whole outlines are tried.
        public var assemblesLineSegments = true

        public init() {}
    }

    public var settings: Settings
    private var magnitude: [UInt16] = []
    private var edges: [UInt8] = []
    private var labeler = ConnectedComponents()
    private var segmentDetector = LineSegmentDetector()
    private var segmentEdges: [UInt8] = []

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// The rectangles in `plane` (`width × height` bytes), best first.
    public mutating func detect(_ plane: UnsafeBufferPointer<UInt8>, width: Int, height: Int) -> [DetectedQuadrilateral] {
        let n = width * height
        precondition(plane.count >= n, "the plane holds width × height bytes")
        guard width >= 3, height >= 3 else { return [] }
        if magnitude.count < n {
            magnitude = [UInt16](repeating: 0, count: n)
            edges = [UInt8](repeating: 0, count: n)
        }
        guard markEdges(plane, width: width, height: height) > 0 else { return [] }
        let components = edges.withUnsafeBufferPointer { labeler.label($0, width: width, region: PixelRect(width: width, height: height)) }
        // Run endpoints per component: their hull is the component's hull.
        var points = [[(x: Double, y: Double)]](repeating: [], count: components.count)
        for run in labeler.labeledRuns {
            let c = components[run.component]
            let boxW = c.maxX - c.minX + 1, boxH = c.maxY - c.minY + 1
            guard Double(min(boxW, boxH)) >= settings.minimumSide * 0.9, c.area >= 8 else { continue }
            points[run.component].append((Double(run.start) + 0.5, Double(run.row) + 0.5))
            if run.end - 1 > run.start { points[run.component].append((Double(run.end) - 0.5, Double(run.row) + 0.5)) }
        }
        // Straight edges (and the gradients every side's support is measured on). Segments grow
        // over every pixel above the fixed floor, not only the strongest 10%: the alignment of
        // gradients, not their strength, is what keeps a line's region clean.
        segmentDetector.minimumLength = max(8, settings.minimumSide / 2)
        let floor = UInt16(max(settings.edgeThreshold, 1))
        if segmentEdges.count < n { segmentEdges = [UInt8](repeating: 0, count: n) }
        for i in 0..<n { segmentEdges[i] = magnitude[i] >= floor ? 1 : 0 }
        let segments = segmentEdges.withUnsafeBufferPointer { segmentDetector.detect(plane, edges: $0, width: width, height: height) }

        var found: [DetectedQuadrilateral] = []
        for p in points where p.count >= 4 {
            if let q = quadrilateral(of: p, width: width, height: height) { found.append(q) }
        }
        if settings.assemblesLineSegments {
            let inside = { (p: (x: Double, y: Double)) in p.x >= -1 && p.y >= -1 && p.x <= Double(width + 1) && p.y <= Double(height + 1) }
            let lines = segmentDetector
            let candidates = Self.quadrilaterals(from: segments, settings: settings) { lines.alignedEdgeShare(from: $0, to: $1) }
            for corners in candidates where corners.allSatisfy(inside) {
                if let q = checked(corners, width: width, height: height) { found.append(q) }
            }
        }
        found.sort {
            let a = Self.area($0.corners), b = Self.area($1.corners)
            return ($0.confidence, a, -$0.corners[0].y, -$0.corners[0].x) > ($1.confidence, b, -$1.corners[0].y, -$1.corners[0].x)
        }
        return Self.distinct(found)
    }

    /// Marks in ``edges`` the pixels whose gradient magnitude (central differences, in
    /// ``magnitude``) is among the strongest 10 %, and never below the fixed floor; returns how many.
    private mutating func markEdges(_ plane: UnsafeBufferPointer<UInt8>, width: Int, height: Int) -> Int {
        let n = width * height
        // Gradient magnitude and its histogram.
        var histogram = [Int](repeating: 0, count: 511)
        for y in 0..<height {
            for x in 0..<width {
                let i = y * width + x
                guard x > 0, y > 0, x < width - 1, y < height - 1 else { magnitude[i] = 0; continue }
                let gx = Int(plane[i + 1]) - Int(plane[i - 1]), gy = Int(plane[i + width]) - Int(plane[i - width])
                let m = abs(gx) + abs(gy)
                magnitude[i] = UInt16(m)
                histogram[m] += 1
            }
        }
        // The strongest 10%, and never below the fixed floor.
        var cut = 510, count = 0
        while cut > 0 && count + histogram[cut] <= n / 10 { count += histogram[cut]; cut -= 1 }
        let threshold = UInt16(max(settings.edgeThreshold, cut + 1))
        var edgePixels = 0
        for i in 0..<n {
            let on: UInt8 = magnitude[i] >= threshold ? 1 : 0
            edges[i] = on
            edgePixels += Int(on)
        }
        return edgePixels
    }

    /// `found` (best first) without the quadrilaterals whose corners all lie within 2 pixels or 5%
    /// of the shorter side of a better one's: one shape found by both stages, or by two cycles of
    /// segments, is reported once.
    static func distinct(_ found: [DetectedQuadrilateral]) -> [DetectedQuadrilateral] {
        var kept: [DetectedQuadrilateral] = []
        for q in found {
            let reach = max(2, 0.05 * sideLengths(q.corners).min()!)
            let repeated = kept.contains { k in
                zip(k.corners, q.corners).allSatisfy { abs($0.x - $1.x) <= reach && abs($0.y - $1.y) <= reach }
            }
            if !repeated { kept.append(q) }
        }
        return kept
    }

    /// The checked quadrilateral of one outline's points, or nil.
    private func quadrilateral(of points: [(x: Double, y: Double)], width: Int, height: Int) -> DetectedQuadrilateral? {
        var hull = Self.convexHull(points)
        guard hull.count >= 4 else { return nil }
        // Keep the search small: at most 48 hull vertices, evenly spread.
        if hull.count > 48 {
            let step = Double(hull.count) / 48
            hull = (0..<48).map { hull[Int(Double($0) * step)] }
        }
        let hullArea = Self.area(hull)
        guard hullArea > 0 else { return nil }
        // Largest quadrilateral with hull vertices as corners: for each diagonal (i, j), the farthest
        // vertex on each side.
        let m = hull.count
        var best: (area: Double, corners: [Int])?
        for i in 0..<m {
            for j in stride(from: i + 2, to: m, by: 1) where !(i == 0 && j == m - 1) {
                var left: (Double, Int) = (-1, -1), right: (Double, Int) = (-1, -1)
                for k in (i + 1)..<j {
                    let a = Self.triangleArea(hull[i], hull[k], hull[j])
                    if a > left.0 { left = (a, k) }
                }
                for k in 0..<m where k > j || k < i {
                    let a = Self.triangleArea(hull[j], hull[k], hull[i])
                    if a > right.0 { right = (a, k) }
                }
                guard left.1 >= 0, right.1 >= 0 else { continue }
                let area = left.0 + right.0
                if best == nil || area > best!.area { best = (area, [i, left.1, j, right.1]) }
            }
        }
        guard let quad = best, quad.area >= 0.85 * hullArea else { return nil }
        return checked(quad.corners.sorted().map { hull[$0] }, width: width, height: height)
    }

    /// The quadrilateral with these corners (in order around it, either way), put in the reported
    /// order and checked against the settings; nil when it fails a check.
    func checked(_ around: [(x: Double, y: Double)], width: Int, height: Int) -> DetectedQuadrilateral? {
        var corners = around
        // Clockwise on screen (positive shoelace sum with y down), from the corner nearest the top-left.
        var turn = 0.0
        for i in 0..<4 { turn += corners[i].x * corners[(i + 1) % 4].y - corners[(i + 1) % 4].x * corners[i].y }
        if turn < 0 { corners.reverse() }
        let start = corners.indices.min { (corners[$0].x + corners[$0].y, $0) < (corners[$1].x + corners[$1].y, $1) }!
        corners = Array(corners[start...] + corners[..<start])

        // Right angles within the tolerance.
        let tolerance = settings.quadratureTolerance
        for c in 0..<4 {
            let p = corners[(c + 3) % 4], q = corners[c], r = corners[(c + 1) % 4]
            let (ux, uy, vx, vy) = (p.x - q.x, p.y - q.y, r.x - q.x, r.y - q.y)
            let lu = (ux * ux + uy * uy).squareRoot(), lv = (vx * vx + vy * vy).squareRoot()
            guard lu > 0, lv > 0 else { return nil }
            // |cos| of the angle against sin of the tolerance: |90° − angle| ≤ tolerance.
            let cosine = abs(ux * vx + uy * vy) / (lu * lv)
            guard cosine <= Self.sine(degrees: tolerance) else { return nil }
        }
        // Sides: mean of opposite sides.
        let length = Self.sideLengths(corners)
        let sideA = (length[0] + length[2]) / 2, sideB = (length[1] + length[3]) / 2
        let shorter = min(sideA, sideB), longer = max(sideA, sideB)
        let aspect = shorter / longer
        guard shorter >= settings.minimumSide, aspect >= settings.minimumAspectRatio - 1e-9,
              aspect <= settings.maximumAspectRatio + 1e-9 else { return nil }
        // Edge support along the sides: the share of points (one a pixel) with an edge running
        // along the side within one pixel, averaged over the four sides.
        let confidence = (0..<4).map { segmentDetector.alignedEdgeShare(from: corners[$0], to: corners[($0 + 1) % 4]) }.reduce(0, +) / 4
        guard confidence >= settings.minimumConfidence else { return nil }
        return DetectedQuadrilateral(corners: corners, confidence: confidence)
    }

    /// The lengths of the sides from each corner to the next.
    static func sideLengths(_ corners: [(x: Double, y: Double)]) -> [Double] {
        corners.indices.map { i in
            let (p, q) = (corners[i], corners[(i + 1) % corners.count])
            return ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)).squareRoot()
        }
    }

    /// sin of an angle in degrees, 0...90, by its series (no libm: results must not vary by machine).
    static func sine(degrees: Double) -> Double {
        let x = min(max(degrees, 0), 90) * PortableMath.pi / 180
        var term = x, sum = x
        for i in 1...10 {
            term *= -x * x / Double((2 * i) * (2 * i + 1))
            sum += term
        }
        return sum
    }

    static func triangleArea(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double), _ c: (x: Double, y: Double)) -> Double {
        abs((b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y)) / 2
    }

    /// Area of a simple polygon (shoelace).
    static func area(_ p: [(x: Double, y: Double)]) -> Double {
        var s = 0.0
        for i in p.indices {
            let a = p[i], b = p[(i + 1) % p.count]
            s += a.x * b.y - b.x * a.y
        }
        return abs(s) / 2
    }

    /// Convex hull by the monotone chain, counter-clockwise in a y-up sense (clockwise on screen),
    /// without collinear points.
    static func convexHull(_ points: [(x: Double, y: Double)]) -> [(x: Double, y: Double)] {
        let p = points.sorted { ($0.x, $0.y) < ($1.x, $1.y) }
        guard p.count >= 3 else { return p }
        func cross(_ o: (x: Double, y: Double), _ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> Double {
            (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
        }
        var lower: [(x: Double, y: Double)] = [], upper: [(x: Double, y: Double)] = []
        for q in p {
            while lower.count >= 2 && cross(lower[lower.count - 2], lower[lower.count - 1], q) <= 0 { lower.removeLast() }
            lower.append(q)
        }
        for q in p.reversed() {
            while upper.count >= 2 && cross(upper[upper.count - 2], upper[upper.count - 1], q) <= 0 { upper.removeLast() }
            upper.append(q)
        }
        return Array(lower.dropLast() + upper.dropLast())
    }
}
