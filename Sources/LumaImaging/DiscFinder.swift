/// A disc seen in a frame: a ball, or something shaped like one, with what its luma says about it.
///
/// A thrown ball is a disc with a sharp edge that stands out from what is behind it; its shadow on
/// a wall is a darker, softer copy of the wall (``ratio`` below 1, a low ``sharpness``), and a hand
/// or a body is not round (a low ``roundness`` or ``coverage``). These are the measures an
/// analyzer weighs; ``DiscFinder`` makes them.
public struct Disc: Equatable, Sendable {
    /// Centre, in continuous pixel coordinates (the first pixel's centre is 0.5, 0.5), sub-pixel.
    public var x: Double
    public var y: Double
    /// Radius in pixels, from a circle fitted to the edge points.
    public var radius: Double
    /// Mean luma inside the disc minus the mean of a ring around it: its sign is the polarity (a
    /// bright ball on a dark wall is positive), its size how much the disc stands out.
    public var contrast: Double
    /// Mean luma inside ÷ mean of the ring around it (a shadow is below 1).
    public var ratio: Double
    /// How abruptly the edge rises: 0.6 ÷ the distance, in pixels, over which luma crosses from
    /// 20 % to 80 % of the way between the levels half a radius outside and inside the edge on
    /// the same ray (so an edge ramping over `w` pixels gives 1/`w`), the median over the rays:
    /// near 1 for a ball's edge, a third or less for the soft edge of a shadow.
    public var sharpness: Double
    /// 1 − the RMS distance of the edge points from the fitted circle ÷ the radius.
    public var roundness: Double
    /// The fraction of rays from the centre that cross an edge of the disc's polarity.
    public var coverage: Double
}

/// Finds the disc that best stands out inside a search window, at sub-pixel precision: the
/// appearance test behind the trajectory analyzer's proposals ("motion proposes, appearance
/// decides").
///
/// 1. **Search**: every radius of the range (a fifth apart) at every centre of the window (a grid
///    of a third of that radius) is scored by the luma step across the circle, one pixel in and one out,
///    on ``rays`` rays: large when the step is large and has one sign all round, as at a disc's edge.
/// 2. **Refine**: along each ray from the best centre, the steepest step of the disc's polarity,
///    located to a fraction of a pixel; a circle fitted to those edge points gives the centre and
///    radius; twice.
/// 3. **Measure**: contrast, ratio, sharpness, roundness and coverage (``Disc``).
///
/// Deterministic (no libm: ``PortableMath``), no allocation per pixel; the cost is the search,
/// about Σ over the radii r of (window area ÷ (r/3)²) × rays × 2 pixel reads.
public struct DiscFinder: Sendable {
    /// Rays sampled around a circle.
    public let rays: Int
    private let directions: [(x: Double, y: Double)]

    public init(rays: Int = 24) {
        precondition(rays >= 8, "a disc needs at least 8 rays")
        self.rays = rays
        directions = (0..<rays).map { k in
            let angle = 2 * PortableMath.pi * Double(k) / Double(rays)
            return (PortableMath.cos(angle), PortableMath.sin(angle))
        }
    }

    /// The disc with a radius in `radius` (pixels) that stands out most in `window`, or `nil`
    /// when nothing there has an edge on at least half the rays.
    public func find(in image: GrayImage, window: PixelRect, radius: ClosedRange<Double>) -> Disc? {
        precondition(image.width > 0 && image.height > 0, "the frame is not empty")
        guard radius.lowerBound >= 1, window.width > 0, window.height > 0 else { return nil }
        return search(image, window: window, radius: radius).max { $0.score < $1.score }.flatMap { refine(image, $0, radius: radius) }
    }

    /// Every disc that stands out most at one of the radii searched (the best centre of each
    /// radius, refined), strongest first, without repeats: where a ball lies beside something of
    /// the same polarity (its own shadow), the disc of both together may stand out more than the
    /// ball alone, and the caller chooses by what each disc looks like.
    public func findAll(in image: GrayImage, window: PixelRect, radius: ClosedRange<Double>) -> [Disc] {
        precondition(image.width > 0 && image.height > 0, "the frame is not empty")
        guard radius.lowerBound >= 1, window.width > 0, window.height > 0 else { return [] }
        var found: [Disc] = []
        for candidate in search(image, window: window, radius: radius).sorted(by: { ($0.score, $1.radius) > ($1.score, $0.radius) }) {
            guard let disc = refine(image, candidate, radius: radius) else { continue }
            let repeated = found.contains { d in
                (d.x - disc.x) * (d.x - disc.x) + (d.y - disc.y) * (d.y - disc.y) < 0.0625 * d.radius * d.radius
                    && abs(d.radius - disc.radius) < 0.25 * d.radius
            }
            if !repeated { found.append(disc) }
        }
        return found
    }

    /// The search's candidate, refined into a measured disc.
    private func refine(_ image: GrayImage, _ candidate: Candidate, radius: ClosedRange<Double>) -> Disc? {
        var best = candidate
        var edges: EdgePoints?
        for _ in 0..<2 {
            // A ray's edge must be a real step: at least a third of the search's, per pixel (its
            // score is the mean step across two pixels), not the wall's texture.
            guard var found = edgePoints(image, x: best.x, y: best.y, radius: best.radius, polarity: best.polarity,
                                         minimumStep: best.score / 6),
                  var circle = found.fitCircle() else { return nil }
            // Rays that ran on into something else of the same polarity (a shadow beside the ball)
            // end far from the circle: fitted again without them.
            if let trimmed = found.trimmed(around: circle, keepingAtLeast: (rays + 1) / 2), let refit = trimmed.fitCircle() {
                (found, circle) = (trimmed, refit)
            }
            guard radius.lowerBound * 0.5...radius.upperBound * 1.5 ~= circle.radius else { return nil }
            edges = found
            (best.x, best.y, best.radius) = (circle.x, circle.y, circle.radius)
        }
        guard let edges else { return nil }
        return measure(image, x: best.x, y: best.y, radius: best.radius, edges: edges)
    }

    // MARK: - Search

    private struct Candidate {
        var x: Double, y: Double, radius: Double
        var score: Double
        /// +1 when the disc is brighter than around it, −1 when darker.
        var polarity: Double
    }

    /// The best centre of each radius: radii a fifth apart (half a pixel at least), each searched
    /// on a grid of a third of it, so a wide range of radii costs little more than its smallest.
    private func search(_ image: GrayImage, window: PixelRect, radius: ClosedRange<Double>) -> [Candidate] {
        var bests: [Candidate] = []
        var r = radius.lowerBound
        while r <= radius.upperBound + 1e-9 {
            var best: Candidate?
            let grid = max(1, Int(r / 3))
            var cy = window.y0 + (window.height % grid) / 2
            while cy < window.y1 {
                var cx = window.x0 + (window.width % grid) / 2
                while cx < window.x1 {
                    let (x, y) = (Double(cx) + 0.5, Double(cy) + 0.5)
                    var sum = 0.0, positive = 0
                    for d in directions {
                        let step = image.nearest(x + (r - 1) * d.x, y + (r - 1) * d.y) - image.nearest(x + (r + 1) * d.x, y + (r + 1) * d.y)
                        sum += step
                        if step > 0 { positive += 1 }
                    }
                    let agreeing = sum >= 0 ? positive : rays - positive
                    let score = abs(sum) / Double(rays) * Double(agreeing) / Double(rays)
                    if score > best?.score ?? 0 { best = Candidate(x: x, y: y, radius: r, score: score, polarity: sum >= 0 ? 1 : -1) }
                    cx += grid
                }
                cy += grid
            }
            if let best { bests.append(best) }
            r += max(0.5, 0.2 * r)
        }
        return bests
    }

    // MARK: - Refine

    /// Edge points along the rays from (`x`, `y`): on each ray, the first step of `polarity`
    /// between 0.4 and 1.8 radii that is a local peak, at least half the ray's steepest and at
    /// least `minimumStep` per pixel, to a fraction of a pixel.
    private func edgePoints(_ image: GrayImage, x: Double, y: Double, radius: Double, polarity: Double, minimumStep: Double) -> EdgePoints? {
        var points = EdgePoints()
        let step = 0.25
        let first = 0.4 * radius, last = 1.8 * radius
        let samples = Int((last - first) / step) + 1
        guard samples >= 5 else { return nil }
        // One profile buffer for every ray of this pass.
        var derivatives = [Double](repeating: 0, count: samples - 1)
        for d in directions {
            // The outward derivative, times −polarity, is largest where the disc's edge is.
            var bestIndex = -1, bestValue = 0.0
            var previous = image.bilinear(x + first * d.x, y + first * d.y)
            for i in 1..<samples {
                let t = first + Double(i) * step
                let value = image.bilinear(x + t * d.x, y + t * d.y)
                derivatives[i - 1] = (previous - value) * polarity / step
                previous = value
            }
            for i in derivatives.indices where derivatives[i] > bestValue { bestValue = derivatives[i] }
            guard bestValue > 0, bestValue >= minimumStep else { continue }
            // The first step from the inside that is a local peak and at least half the steepest:
            // the disc's own edge, before whatever of the same polarity lies beyond it (a shadow).
            for i in 1..<(derivatives.count - 1)
            where derivatives[i] >= 0.5 * bestValue && derivatives[i] >= derivatives[i - 1] && derivatives[i] >= derivatives[i + 1] {
                bestIndex = i
                break
            }
            guard bestIndex > 0, bestIndex < derivatives.count - 1 else { continue }
            let values = (derivatives[bestIndex - 1], derivatives[bestIndex], derivatives[bestIndex + 1])
            // The peak of a parabola through the three derivatives around that step.
            let curvature = values.0 - 2 * values.1 + values.2
            let offset = curvature < 0 ? 0.5 * (values.0 - values.2) / curvature : 0
            // Derivative i lies between samples i and i + 1.
            let t = first + (Double(bestIndex) + 0.5 + offset) * step
            points.append(x: x + t * d.x, y: y + t * d.y)
        }
        return points.count * 2 >= rays ? points : nil
    }

    // MARK: - Measure

    private func measure(_ image: GrayImage, x: Double, y: Double, radius: Double, edges: EdgePoints) -> Disc? {
        var inside = 0.0, outside = 0.0, insideCount = 0.0, outsideCount = 0.0
        for d in directions {
            for fraction in [0.0, 0.25, 0.5, 0.7] {
                inside += image.bilinear(x + fraction * radius * d.x, y + fraction * radius * d.y)
                insideCount += 1
            }
            for fraction in [1.5, 1.75, 2.0] {
                outside += image.bilinear(x + fraction * radius * d.x, y + fraction * radius * d.y)
                outsideCount += 1
            }
        }
        let (meanInside, meanOutside) = (inside / insideCount, outside / outsideCount)
        let contrast = meanInside - meanOutside
        guard abs(contrast) > 0 else { return nil }
        var distances = 0.0
        var sharpness: [Double] = []
        sharpness.reserveCapacity(edges.count)
        for p in edges.points {
            let (dx, dy) = (p.x - x, p.y - y)
            let t = (dx * dx + dy * dy).squareRoot()
            distances += (t - radius) * (t - radius)
            guard t > 0 else { continue }
            // The levels on either side are this ray's own, half a radius in and out: a shaded ball
            // is brighter on one side than the other, and its edge is judged against each.
            let d = (x: dx / t, y: dy / t)
            let rayInside = image.bilinear(x + (t - 0.5 * radius) * d.x, y + (t - 0.5 * radius) * d.y)
            let rayOutside = image.bilinear(x + (t + 0.5 * radius) * d.x, y + (t + 0.5 * radius) * d.y)
            guard (rayInside - rayOutside) * (meanInside - meanOutside) > 0 else { continue }
            sharpness.append(0.6 / riseWidth(image, x: x, y: y, direction: d, edge: t, radius: radius,
                                             inside: rayInside, outside: rayOutside))
        }
        let rms = (distances / Double(edges.count)).squareRoot()
        sharpness.sort()
        guard !sharpness.isEmpty else { return nil }
        let median = Median.ofSorted(sharpness)
        return Disc(x: x, y: y, radius: radius, contrast: contrast, ratio: meanOutside > 0 ? meanInside / meanOutside : .infinity,
                    sharpness: median, roundness: max(0, 1 - rms / radius), coverage: Double(edges.count) / Double(rays))
    }

    /// The distance along a ray over which luma goes from 80 % of the way from `outside` to
    /// `inside` (towards the centre of the edge at `edge`) to 20 % (away from it), at least a
    /// quarter pixel; where a level is not reached within the search, the search's end counts.
    private func riseWidth(_ image: GrayImage, x: Double, y: Double, direction d: (x: Double, y: Double), edge: Double, radius: Double,
                           inside: Double, outside: Double) -> Double {
        let step = 0.125
        let reach = max(1.5, min(5, 0.8 * radius))
        let (high, low) = (outside + 0.8 * (inside - outside), outside + 0.2 * (inside - outside))
        let sign: Double = inside >= outside ? 1 : -1
        // Inward from the edge point to where luma is beyond 80 %, outward to where it is beyond 20 %.
        var inner = edge - reach
        var t = edge
        while t > edge - reach {
            if (image.bilinear(x + t * d.x, y + t * d.y) - high) * sign >= 0 { inner = t; break }
            t -= step
        }
        var outer = edge + reach
        t = edge
        while t < edge + reach {
            if (image.bilinear(x + t * d.x, y + t * d.y) - low) * sign <= 0 { outer = t; break }
            t += step
        }
        return max(0.25, outer - inner)
    }
}

/// Points on a disc's edge.
private struct EdgePoints {
    var points: [(x: Double, y: Double)] = []
    var count: Int { points.count }

    mutating func append(x: Double, y: Double) { points.append((x, y)) }

    /// The points within max(1 px, 2.5 × the median distance) of `circle`, or `nil` when that
    /// drops none or leaves fewer than `minimum`.
    func trimmed(around circle: (x: Double, y: Double, radius: Double), keepingAtLeast minimum: Int) -> EdgePoints? {
        let residuals = points.map { p in abs(((p.x - circle.x) * (p.x - circle.x) + (p.y - circle.y) * (p.y - circle.y)).squareRoot() - circle.radius) }
        let sorted = residuals.sorted()
        let limit = max(1, 2.5 * sorted[sorted.count / 2])
        var kept = EdgePoints()
        for (p, residual) in zip(points, residuals) where residual <= limit { kept.append(x: p.x, y: p.y) }
        return kept.count < points.count && kept.count >= minimum ? kept : nil
    }

    /// The circle through the points in the least-squares sense of `x² + y² + D·x + E·y + F = 0`
    /// (Kåsa's fit), about the points' mean for precision; `nil` when they are degenerate.
    func fitCircle() -> (x: Double, y: Double, radius: Double)? {
        guard points.count >= 3 else { return nil }
        let n = Double(points.count)
        let mx = points.reduce(0) { $0 + $1.x } / n, my = points.reduce(0) { $0 + $1.y } / n
        var sxx = 0.0, syy = 0.0, sxy = 0.0, sxz = 0.0, syz = 0.0, sz = 0.0
        for p in points {
            let (u, v) = (p.x - mx, p.y - my)
            let z = u * u + v * v
            sxx += u * u; syy += v * v; sxy += u * v
            sxz += u * z; syz += v * z; sz += z
        }
        // About the mean, Σu = Σv = 0: D and E solve [sxx sxy; sxy syy]·[D E] = −[sxz syz], F = −sz/n.
        let determinant = sxx * syy - sxy * sxy
        guard abs(determinant) > 1e-12 else { return nil }
        let d = (-sxz * syy + syz * sxy) / determinant
        let e = (-syz * sxx + sxz * sxy) / determinant
        let f = -sz / n
        let squared = (d * d + e * e) / 4 - f
        guard squared > 0 else { return nil }
        return (mx - d / 2, my - e / 2, squared.squareRoot())
    }
}

/// A frame's luma read at continuous positions, clamped to the frame.
/// Sampling a grey image at continuous positions: what the disc search reads.
private extension GrayImage {
    /// The pixel whose area holds (`x`, `y`).
    @inline(__always)
    func nearest(_ x: Double, _ y: Double) -> Double {
        let i = min(max(Int(x < 0 ? -1 : x), 0), width - 1)
        let j = min(max(Int(y < 0 ? -1 : y), 0), height - 1)
        return Double(pixels[j * width + i])
    }

    /// Bilinear interpolation between pixel centres (at i + 0.5).
    @inline(__always)
    func bilinear(_ x: Double, _ y: Double) -> Double {
        let u = min(max(x - 0.5, 0), Double(width - 1)), v = min(max(y - 0.5, 0), Double(height - 1))
        let i = Int(u), j = Int(v)
        let (fx, fy) = (u - Double(i), v - Double(j))
        let i1 = min(i + 1, width - 1), j1 = min(j + 1, height - 1)
        let a = Double(pixels[j * width + i]), b = Double(pixels[j * width + i1])
        let c = Double(pixels[j1 * width + i]), d = Double(pixels[j1 * width + i1])
        let top = a + (b - a) * fx, bottom = c + (d - c) * fx
        return top + (bottom - top) * fy
    }
}
