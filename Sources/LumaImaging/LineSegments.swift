/// A straight piece of edge: where the image's brightness steps across a line, with the step's
/// direction.
public struct LineSegment: Equatable, Sendable {
    /// Endpoints in pixel coordinates (top-left origin, continuous), along ``direction``.
    public var start: (x: Double, y: Double), end: (x: Double, y: Double)
    /// Unit vector from `start` to `end`.
    public var direction: (x: Double, y: Double)
    /// Unit gradient across the line, pointing from the darker side to the brighter one; (0, 0) when
    /// its pixels' gradients do not agree on a side.
    public var brighterSide: (x: Double, y: Double)
    /// Edge pixels behind it.
    public var support: Int

    public var length: Double {
        ((end.x - start.x) * (end.x - start.x) + (end.y - start.y) * (end.y - start.y)).squareRoot()
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.start == b.start && a.end == b.end && a.direction == b.direction && a.brighterSide == b.brighterSide && a.support == b.support
    }
}

/// Finds straight edges as line-support regions, the way LSD (von Gioi et al., 2010) does: edge
/// pixels whose gradients point the same way (within 22.5°) are grown into regions, strongest
/// first; a region that is long and thin becomes a segment fitted through its pixels' moments
/// (weighted by gradient strength, so the line sits on the step to a fraction of a pixel). Pieces of
/// one line broken by whatever crosses it (a fence wire over a goal post, a pen over a card's edge)
/// are then joined when they are collinear, of the same polarity, and fill at least half the
/// joined line.
///
/// Unlike an outline, a region stops where the edge turns, so a shape whose outline touches other
/// strong edges still gives its sides as segments. Deterministic: no libm, fixed visiting order.
/// Buffers are kept between calls; one instance per thread.
public struct LineSegmentDetector {
    /// Shortest segment kept, pixels.
    public var minimumLength: Double

    private var gradientX: [Int16] = []
    private var gradientY: [Int16] = []
    private var used: [Bool] = []
    private var order: [Int32] = []
    private var queue: [Int32] = []
    private var lastWidth = 0, lastHeight = 0

    public init(minimumLength: Double = 8) {
        self.minimumLength = minimumLength
    }

    /// Moments of a region's pixels, weighted by gradient magnitude: what a segment is fitted from,
    /// and what two pieces of one line add up to when they are joined.
    struct Moments {
        var weight = 0.0, x = 0.0, y = 0.0, xx = 0.0, xy = 0.0, yy = 0.0
        var gradientX = 0.0, gradientY = 0.0
        var count = 0

        mutating func add(x px: Double, y py: Double, weight w: Double, gradient: (x: Double, y: Double)) {
            weight += w; x += w * px; y += w * py
            xx += w * px * px; xy += w * px * py; yy += w * py * py
            gradientX += gradient.x; gradientY += gradient.y
            count += 1
        }

        static func + (a: Moments, b: Moments) -> Moments {
            Moments(weight: a.weight + b.weight, x: a.x + b.x, y: a.y + b.y, xx: a.xx + b.xx, xy: a.xy + b.xy, yy: a.yy + b.yy,
                    gradientX: a.gradientX + b.gradientX, gradientY: a.gradientY + b.gradientY, count: a.count + b.count)
        }

        /// Centre and unit direction of the principal axis.
        var axis: (centre: (x: Double, y: Double), direction: (x: Double, y: Double))? {
            guard weight > 0 else { return nil }
            let cx = x / weight, cy = y / weight
            let sxx = xx / weight - cx * cx, sxy = xy / weight - cx * cy, syy = yy / weight - cy * cy
            let half = (sxx - syy) / 2
            let lambda = (sxx + syy) / 2 + (half * half + sxy * sxy).squareRoot()
            // The eigenvector of the larger eigenvalue, from whichever row is better conditioned.
            var v = abs(sxx - lambda) < abs(syy - lambda) ? (x: lambda - syy, y: sxy) : (x: sxy, y: lambda - sxx)
            let norm = (v.x * v.x + v.y * v.y).squareRoot()
            if norm == 0 {
                // Isotropic: take the direction along the edge, across the mean gradient.
                let g = (gradientX * gradientX + gradientY * gradientY).squareRoot()
                guard g > 0 else { return nil }
                v = (-gradientY / g, gradientX / g)
            } else {
                v = (v.x / norm, v.y / norm)
            }
            return ((cx, cy), v)
        }
    }

    /// A segment with the moments and the extent it was fitted from.
    struct Piece {
        var moments: Moments
        var segment: LineSegment
        /// How much of its length is backed by pixels: its length, less the gaps between the pieces
        /// it was joined from.
        var filled: Double
    }

    /// The straight edges among the set pixels of `edges` (`width × height`), gradients taken from
    /// `plane` by Sobel; longest first.
    public mutating func detect(_ plane: UnsafeBufferPointer<UInt8>, edges: UnsafeBufferPointer<UInt8>,
                                width: Int, height: Int) -> [LineSegment] {
        let n = width * height
        precondition(plane.count >= n && edges.count >= n, "the planes hold width × height bytes")
        precondition(n < Int(Int32.max), "pixel indices fit in 32 bits")
        guard width >= 3, height >= 3 else { return [] }
        if gradientX.count < n {
            gradientX = [Int16](repeating: 0, count: n)
            gradientY = [Int16](repeating: 0, count: n)
            used = [Bool](repeating: false, count: n)
        }
        let sorted = edgePixelsByStrength(plane, edges: edges, width: width, height: height)
        return Self.joinCollinear(growPieces(from: sorted, width: width))
            .map(\.segment)
            .sorted { ($0.length, -$0.start.y, -$0.start.x) > ($1.length, -$1.start.y, -$1.start.x) }
    }

    /// The Sobel gradients of the edge pixels (kept for the regions and ``support``), and those
    /// pixels in order of decreasing strength: a counting sort by |gx| + |gy|, index order within
    /// a strength. The border has no gradient and is marked used.
    private mutating func edgePixelsByStrength(_ plane: UnsafeBufferPointer<UInt8>, edges: UnsafeBufferPointer<UInt8>,
                                               width: Int, height: Int) -> [Int32] {
        var histogram = [Int](repeating: 0, count: 2041)
        order.removeAll(keepingCapacity: true)
        for y in 1..<(height - 1) {
            for x in 1..<(width - 1) {
                let i = y * width + x
                used[i] = edges[i] == 0
                guard edges[i] != 0 else { gradientX[i] = 0; gradientY[i] = 0; continue }
                let a = Int(plane[i - width - 1]), b = Int(plane[i - width]), c = Int(plane[i - width + 1])
                let d = Int(plane[i - 1]), f = Int(plane[i + 1])
                let g = Int(plane[i + width - 1]), h = Int(plane[i + width]), k = Int(plane[i + width + 1])
                let gx = (c + 2 * f + k) - (a + 2 * d + g), gy = (g + 2 * h + k) - (a + 2 * b + c)
                gradientX[i] = Int16(gx); gradientY[i] = Int16(gy)
                histogram[abs(gx) + abs(gy)] += 1
                order.append(Int32(i))
            }
        }
        // The border has no Sobel gradient: never an edge, never grown into.
        func clear(_ i: Int) { used[i] = true; gradientX[i] = 0; gradientY[i] = 0 }
        for x in 0..<width { clear(x); clear((height - 1) * width + x) }
        for y in 0..<height { clear(y * width); clear(y * width + width - 1) }
        lastWidth = width; lastHeight = height
        var start = [Int](repeating: 0, count: 2041)
        var total = 0
        for m in stride(from: 2040, through: 0, by: -1) { start[m] = total; total += histogram[m] }
        var sorted = [Int32](repeating: 0, count: order.count)
        for i in order {
            let m = abs(Int(gradientX[Int(i)])) + abs(Int(gradientY[Int(i)]))
            sorted[start[m]] = i
            start[m] += 1
        }
        return sorted
    }

    /// Grows a region from each seed not yet used, strongest first: neighbours join while their
    /// gradient is within 22.5° of the region's mean direction; each region that fits a line
    /// becomes a piece.
    private mutating func growPieces(from sorted: [Int32], width: Int) -> [Piece] {
        // cos 22.5°: a pixel joins a region when its gradient is within 22.5° of the region's.
        let alignment = 0.9238795325112867
        let neighbours = [-width - 1, -width, -width + 1, -1, 1, width - 1, width, width + 1]
        var pieces: [Piece] = []
        for seed in sorted where !used[Int(seed)] {
            let s = Int(seed)
            var mean = unit(s)
            var sum = mean
            var moments = Moments()
            queue.removeAll(keepingCapacity: true)
            queue.append(seed)
            used[s] = true
            var head = 0
            while head < queue.count {
                let i = Int(queue[head]); head += 1
                let u = unit(i)
                let p = Self.centre(of: Int32(i), width: width)
                moments.add(x: p.x, y: p.y, weight: magnitude(i), gradient: u)
                sum = (sum.x + u.x, sum.y + u.y)
                let norm = (sum.x * sum.x + sum.y * sum.y).squareRoot()
                if norm > 0 { mean = (sum.x / norm, sum.y / norm) }
                for offset in neighbours where !used[i + offset] {
                    let j = i + offset
                    let v = unit(j)
                    if v.x * mean.x + v.y * mean.y >= alignment {
                        used[j] = true
                        queue.append(Int32(j))
                    }
                }
            }
            if let piece = piece(from: moments, pixels: queue, width: width) { pieces.append(piece) }
        }
        return pieces
    }

    /// The share of points along `a`→`b` (one a pixel) that have, within one pixel, an edge pixel
    /// of the last ``detect(_:edges:width:height:)`` whose gradient is within 22.5° of the line's
    /// normal (either way): how much of a line the image backs, counting the edges that run along
    /// it, not texture that merely touches it.
    public func alignedEdgeShare(from a: (x: Double, y: Double), to b: (x: Double, y: Double)) -> Double {
        let length = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
        guard length > 0, lastWidth >= 3, lastHeight >= 3 else { return 0 }
        let normal = (x: -(b.y - a.y) / length, y: (b.x - a.x) / length)
        let steps = max(8, Int(length))
        var on = 0
        for t in 0..<steps {
            let f = (Double(t) + 0.5) / Double(steps)
            let x = Int(a.x + (b.x - a.x) * f), y = Int(a.y + (b.y - a.y) * f)
            search: for dy in -1...1 {
                for dx in -1...1 {
                    let (xx, yy) = (x + dx, y + dy)
                    guard xx >= 0, yy >= 0, xx < lastWidth, yy < lastHeight else { continue }
                    let u = unit(yy * lastWidth + xx)
                    if abs(u.x * normal.x + u.y * normal.y) >= 0.9238795325112867 { on += 1; break search }
                }
            }
        }
        return Double(on) / Double(steps)
    }

    private func magnitude(_ i: Int) -> Double {
        let gx = Double(gradientX[i]), gy = Double(gradientY[i])
        return (gx * gx + gy * gy).squareRoot()
    }

    private func unit(_ i: Int) -> (x: Double, y: Double) {
        let m = magnitude(i)
        return m > 0 ? (Double(gradientX[i]) / m, Double(gradientY[i]) / m) : (0, 0)
    }

    /// The centre of pixel `i` of a plane `width` pixels wide.
    static func centre(of i: Int32, width: Int) -> (x: Double, y: Double) {
        (Double(Int(i) % width) + 0.5, Double(Int(i) / width) + 0.5)
    }

    /// The gradient-weighted moments of `pixels`.
    func weightedMoments(of pixels: [Int32], width: Int) -> Moments {
        var m = Moments()
        for i in pixels {
            let p = Self.centre(of: i, width: width)
            m.add(x: p.x, y: p.y, weight: magnitude(Int(i)), gradient: unit(Int(i)))
        }
        return m
    }

    /// The segment a region describes, when the region is a line: long enough, thin (at most 4
    /// pixels plus 8% of its length across) and dense (its pixels fill half its rectangle, up to 3
    /// pixels across). Its extent is its pixels' extent along the fitted axis. A region too thick
    /// (grown on into texture beside it, or into another edge it touches at a shallow angle) is
    /// tried once more with only its pixels along the line through its seed's neighbourhood.
    func piece(from moments: Moments, pixels: [Int32], width: Int, refine: Bool = true) -> Piece? {
        guard moments.count >= 4, let axis = moments.axis else { return nil }
        let (c, d) = axis
        func offsets(_ i: Int32) -> (along: Double, across: Double) {
            let p = Self.centre(of: i, width: width)
            let (x, y) = (p.x - c.x, p.y - c.y)
            return (x * d.x + y * d.y, y * d.x - x * d.y)
        }
        var lo = Double.infinity, hi = -Double.infinity, near = Double.infinity, far = -Double.infinity
        for i in pixels {
            let (t, s) = offsets(i)
            lo = min(lo, t); hi = max(hi, t); near = min(near, s); far = max(far, s)
        }
        let length = hi - lo + 1, thickness = far - near + 1
        guard length >= minimumLength else { return nil }
        guard thickness <= 4 + 0.08 * length, Double(moments.count) >= 0.5 * length * min(thickness, 3) else {
            // The region ran on into another edge: fit the line around the seed (the pixels the
            // growth reached first), keep the region's pixels within 1.5 pixels of it, refit, keep
            // again; at most once per region.
            guard refine, pixels.count > 24 else { return nil }
            var core = Array(pixels.prefix(24))
            for _ in 0..<2 {
                guard let a = weightedMoments(of: core, width: width).axis else { return nil }
                core = pixels.filter { i in
                    let p = Self.centre(of: i, width: width)
                    return abs((p.y - a.centre.y) * a.direction.x - (p.x - a.centre.x) * a.direction.y) <= 1.5
                }
            }
            let trimmed = weightedMoments(of: core, width: width)
            return piece(from: trimmed, pixels: core, width: width, refine: false)
        }
        let centre = (x: c.x + d.x * (lo + hi) / 2, y: c.y + d.y * (lo + hi) / 2)
        return Piece(moments: moments, segment: Self.segment(axis: (centre, d), halfLength: length / 2, moments: moments),
                     filled: length)
    }

    static func segment(axis: (centre: (x: Double, y: Double), direction: (x: Double, y: Double)), halfLength: Double,
                        moments: Moments) -> LineSegment {
        let (c, d) = axis
        // Orient the direction so that the brighter side is on its left on screen (a fixed
        // convention, so a segment's endpoints do not depend on the order its pixels were seen in).
        var direction = d
        let g = (moments.gradientX * moments.gradientX + moments.gradientY * moments.gradientY).squareRoot()
        let brighter = g > 0.5 * Double(moments.count) ? (moments.gradientX / g, moments.gradientY / g) : (0.0, 0.0)
        if brighter == (0, 0) {
            if direction.x < 0 || (direction.x == 0 && direction.y < 0) { direction = (-direction.x, -direction.y) }
        } else if brighter.0 * direction.y - brighter.1 * direction.x < 0 {
            direction = (-direction.x, -direction.y)
        }
        return LineSegment(start: (c.x - direction.x * halfLength, c.y - direction.y * halfLength),
                           end: (c.x + direction.x * halfLength, c.y + direction.y * halfLength),
                           direction: direction, brighterSide: brighter, support: moments.count)
    }

    /// Joins pieces of one line, broken where something crosses it or the contrast fades: two
    /// pieces join when the line fitted through both keeps every end of either within 1.5 pixels,
    /// their directions agree (within about 3°, more for short pieces, whose direction is less
    /// sure), the same side of both is brighter (the two edges of a thin bar stay apart, and so do
    /// the edges of different things that happen to line up), and the joined segment stays at
    /// least half filled by pieces. Repeats until nothing
    /// joins; the order of the result is fixed.
    static func joinCollinear(_ input: [Piece]) -> [Piece] {
        // Longest first, so that long pieces take in the short ones along them.
        var pieces = input.sorted {
            ($0.segment.length, -$0.segment.start.y, -$0.segment.start.x) > ($1.segment.length, -$1.segment.start.y, -$1.segment.start.x)
        }
        var a = 0
        while a < pieces.count {
            // Each join makes pieces[a] longer, so it may now reach a piece it could not before.
            var grew = true
            while grew {
                grew = false
                for b in pieces.indices where b != a {
                    guard let merged = join(pieces[a], pieces[b]) else { continue }
                    pieces[a] = merged
                    pieces.remove(at: b)
                    if b < a { a -= 1 }
                    grew = true
                    break
                }
            }
            a += 1
        }
        return pieces
    }

    static func join(_ a: Piece, _ b: Piece) -> Piece? {
        let (p, q) = (a.segment, b.segment)
        let cross = p.direction.x * q.direction.y - p.direction.y * q.direction.x
        guard abs(cross) <= 0.05 + 1.5 / min(p.length, q.length),
              p.brighterSide.x * q.brighterSide.x + p.brighterSide.y * q.brighterSide.y > 0 else { return nil }
        let moments = a.moments + b.moments
        guard let axis = moments.axis else { return nil }
        let ends = [p.start, p.end, q.start, q.end]
        for e in ends where abs((e.x - axis.centre.x) * axis.direction.y - (e.y - axis.centre.y) * axis.direction.x) > 1.5 {
            return nil
        }
        // The joined extent: both pieces' ends projected on the joined axis; at least half filled.
        let along = ends.map { ($0.x - axis.centre.x) * axis.direction.x + ($0.y - axis.centre.y) * axis.direction.y }
        let lo = along.min()!, hi = along.max()!
        let filled = a.filled + b.filled
        guard filled >= 0.5 * (hi - lo) else { return nil }
        let centre = (x: axis.centre.x + axis.direction.x * (lo + hi) / 2, y: axis.centre.y + axis.direction.y * (lo + hi) / 2)
        let segment = segment(axis: (centre, axis.direction), halfLength: (hi - lo) / 2, moments: moments)
        return Piece(moments: moments, segment: segment, filled: min(filled, hi - lo))
    }
}
