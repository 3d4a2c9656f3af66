/// What a ball looked like when it was last seen clearly: the grey levels of the inside of its
/// disc, in the shrunk frame. Used to find the ball where differencing cannot separate it from
/// something else that moves: in front of a person, a moving textured object or a drifting
/// shadow, or overlapping another ball, its blob merges with theirs, but the ball itself still
/// looks the same.
///
/// Only the inside of the disc is kept (the edge pixels mix in whatever is behind the ball), so a
/// template says nothing about the surroundings and matches the ball over any background.
struct BallTemplate: Sendable {
    /// Offsets from the anchor pixel and grey levels of the kept pixels.
    private let dx: [Int16]
    private let dy: [Int16]
    private let values: [UInt8]
    /// The ball's centre relative to the anchor pixel's corner, processing pixels.
    private let fractionX: Double
    private let fractionY: Double
    /// How far the kept pixels reach from the anchor, for bounds checks.
    private let reach: Int
    /// Mean absolute difference of the ball from the background when captured, grey levels.
    let contrast: Double

    var pixelCount: Int { values.count }

    /// Captures the inside of a disc centred at (`x`, `y`) with `radius` (processing pixels,
    /// continuous) from `plane`. `nil` when fewer than 5 pixels are wholly inside the ball or the
    /// disc is not wholly inside the plane.
    init?(plane: UnsafeBufferPointer<UInt8>, width: Int, height: Int, x: Double, y: Double, radius: Double, contrast: Double) {
        let ax = Int(x.rounded(.down)), ay = Int(y.rounded(.down))
        let inner = max(radius - 0.75, 1.0)
        let reach = Int(inner.rounded(.up)) + 1
        guard ax - reach >= 0, ay - reach >= 0, ax + reach < width, ay + reach < height else { return nil }
        var dx: [Int16] = [], dy: [Int16] = [], values: [UInt8] = []
        for oy in -reach...reach {
            for ox in -reach...reach {
                let px = Double(ax + ox) + 0.5 - x, py = Double(ay + oy) + 0.5 - y
                guard px * px + py * py <= inner * inner else { continue }
                dx.append(Int16(ox))
                dy.append(Int16(oy))
                values.append(plane[(ay + oy) * width + ax + ox])
            }
        }
        guard values.count >= 5 else { return nil }
        self.dx = dx
        self.dy = dy
        self.values = values
        fractionX = x - Double(ax)
        fractionY = y - Double(ay)
        self.reach = reach
        self.contrast = contrast
    }

    /// Mean absolute difference between the template and `plane` with the anchor at (`ax`, `ay`),
    /// after removing the difference of their means, and that difference; `nil` if the template
    /// would reach outside the plane.
    ///
    /// The comparison ignores overall brightness because a ball's grey level may change along its
    /// flight (light and shade on it; in synthetic scenes, balls are drawn relative to the
    /// background they cross), while its pattern of shading does not. The brightness change is
    /// returned so the caller can bound it.
    private func meanDifference(_ plane: UnsafeBufferPointer<UInt8>, width: Int, height: Int, ax: Int, ay: Int) -> (shape: Double, offset: Double)? {
        guard ax - reach >= 0, ay - reach >= 0, ax + reach < width, ay + reach < height else { return nil }
        let n = values.count
        var offset = 0
        for i in 0..<n {
            offset += Int(plane[(ay + Int(dy[i])) * width + ax + Int(dx[i])]) - Int(values[i])
        }
        // Work in units of 1/n grey level to stay in integers: n·(v − t) − Σ(v − t).
        var sum = 0
        for i in 0..<n {
            let d = n * (Int(plane[(ay + Int(dy[i])) * width + ax + Int(dx[i])]) - Int(values[i])) - offset
            sum += d < 0 ? -d : d
        }
        return (Double(sum) / Double(n * n), Double(offset) / Double(n))
    }

    /// Mean of `plane` over the template's pixels with the ball's centre at (`x`, `y`)
    /// (processing pixels), or `nil` outside the plane.
    func mean(of plane: UnsafeBufferPointer<UInt8>, width: Int, height: Int, x: Double, y: Double) -> Double? {
        let ax = Int((x - fractionX).rounded()), ay = Int((y - fractionY).rounded())
        guard ax - reach >= 0, ay - reach >= 0, ax + reach < width, ay + reach < height else { return nil }
        var sum = 0
        for i in values.indices { sum += Int(plane[(ay + Int(dy[i])) * width + ax + Int(dx[i])]) }
        return Double(sum) / Double(values.count)
    }

    /// Searches `plane` for the ball within `search` pixels of (`x`, `y`) (processing pixels,
    /// continuous centre). Returns the best match's centre, refined between pixels by fitting a
    /// parabola through the match scores around the best one, and its mean absolute difference.
    func locate(in plane: UnsafeBufferPointer<UInt8>, width: Int, height: Int, x: Double, y: Double,
                search: Int) -> (x: Double, y: Double, difference: Double, offset: Double)? {
        let cx = Int((x - fractionX).rounded()), cy = Int((y - fractionY).rounded())
        let side = 2 * search + 1
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: side * side) { scores in
            var best: (index: Int, score: Double, offset: Double)?
            for oy in -search...search {
                for ox in -search...search {
                    let i = (oy + search) * side + ox + search
                    let m = meanDifference(plane, width: width, height: height, ax: cx + ox, ay: cy + oy)
                    let s = m?.shape ?? .infinity
                    scores[i] = s
                    if s < (best?.score ?? .infinity) { best = (i, s, m?.offset ?? 0) }
                }
            }
            guard let found = best else { return nil }
            let bx = found.index % side, by = found.index / side
            func refine(_ minus: Double, _ centre: Double, _ plus: Double) -> Double {
                guard minus.isFinite, plus.isFinite else { return 0 }
                let curvature = minus - 2 * centre + plus
                guard curvature > 0 else { return 0 }
                return max(-0.5, min(0.5, (minus - plus) / (2 * curvature)))
            }
            let sx = bx > 0 && bx < side - 1 ? refine(scores[found.index - 1], found.score, scores[found.index + 1]) : 0
            let sy = by > 0 && by < side - 1 ? refine(scores[found.index - side], found.score, scores[found.index + side]) : 0
            return (Double(cx + bx - search) + fractionX + sx, Double(cy + by - search) + fractionY + sy, found.score, found.offset)
        }
    }
}
