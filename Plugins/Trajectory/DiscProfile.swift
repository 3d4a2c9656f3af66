import LumaImaging

/// How a candidate's disc meets what is around it, at full resolution: where its edge lies and how
/// wide that edge is, along four axes through its centre (0°, 45°, 90°, 135°).
///
/// A ball's edge is sharp: the luma steps from the ball to the wall within a pixel or two. A soft
/// shadow's edge is its penumbra, a ramp as wide as a good part of its radius (the project's own
/// `crowded` scenes blur it over 0.6–0.9 of the ball's radius). Motion blurs a ball along its path
/// only, so the edge that tells them apart is the one *across* the motion: the path picks, point
/// by point, the axis nearest to perpendicular to its velocity (``axis(across:_:)``).
///
/// The width is a distance, pixels: the step's height over its steepest slope (a ramp of width `w`
/// and any height has slope height / `w`). It is not a sharpness normalised by contrast, which
/// scored faint shadows as sharp in the study of the shared clips.
struct DiscProfile: Sendable, Equatable {
    /// Distance from the centre to the edge along each axis (the mean of its two rays), frame pixels.
    var radius: SIMD4<Double>
    /// Width of the edge along each axis (the mean of its two rays), frame pixels.
    var edgeWidth: SIMD4<Double>

    /// Samples per ray, whatever the radius: the measurement's cost per candidate is fixed.
    static let samplesPerRay = 40
    /// How far a ray reaches, in radii of the candidate: a shadow found at its ball's scale has its
    /// edge out at 1.3–1.6 of it.
    static let reach = 2.4

    /// Measures the disc of radius about `radius` centred at (`x`, `y`) in `image`.
    static func measure(_ image: GrayImage, x: Double, y: Double, radius: Double) -> DiscProfile {
        var radii = SIMD4<Double>(repeating: 0), widths = SIMD4<Double>(repeating: 0)
        let r = max(radius, 1)
        // Unit directions of the eight rays, the axis k's two at k and k + 4.
        let h = 0.5.squareRoot()
        let dx = SIMD4<Double>(1, h, 0, -h), dy = SIMD4<Double>(0, h, 1, h)
        withUnsafeTemporaryAllocation(of: Double.self, capacity: samplesPerRay) { values in
            for axis in 0..<4 {
                let a = ray(image, x: x, y: y, dx: dx[axis], dy: dy[axis], radius: r, into: values)
                let b = ray(image, x: x, y: y, dx: -dx[axis], dy: -dy[axis], radius: r, into: values)
                radii[axis] = (a.edge + b.edge) / 2
                widths[axis] = (a.width + b.width) / 2
            }
        }
        return DiscProfile(radius: radii, edgeWidth: widths)
    }

    /// The edge along one ray: where the luma changes fastest between 0.3 and 2.1 radii out, and
    /// the width of that step (the change between 0.5 radii either side of it over its steepest slope
    /// across a pixel).
    /// `values` is scratch space of ``samplesPerRay`` samples.
    private static func ray(_ image: GrayImage, x: Double, y: Double, dx: Double, dy: Double, radius r: Double,
                            into values: UnsafeMutableBufferPointer<Double>) -> (edge: Double, width: Double) {
        let n = samplesPerRay
        let step = reach * r / Double(n - 1)
        // A slope is taken over at least a pixel: finer steps only measure noise.
        let span = max(1, Int((1 / step).rounded(.up)))
        for k in 0..<n { values[k] = sample(image, x + dx * Double(k) * step, y + dy * Double(k) * step) }
        let first = max(span, Int((0.3 * r / step).rounded())), last = min(n - 1 - span, Int((2.1 * r / step).rounded()))
        guard first <= last else { return (r, step) }
        var best = first, steepest = 0.0
        for k in first...last {
            let slope = abs(values[k + span] - values[k - span]) / (Double(2 * span) * step)
            if slope > steepest { (best, steepest) = (k, slope) }
        }
        // The slope again over one pixel, at and half a step either side of the steepest sample:
        // the ray's samples are too far apart to see a sharp edge's.
        for k in -1...1 {
            let d = (Double(best) + 0.5 * Double(k)) * step
            let slope = abs(sample(image, x + dx * (d + 0.5), y + dy * (d + 0.5)) - sample(image, x + dx * (d - 0.5), y + dy * (d - 0.5)))
            steepest = max(steepest, slope)
        }
        let apart = max(span, Int((0.5 * r / step).rounded()))
        let inside = values[max(0, best - apart)], outside = values[min(n - 1, best + apart)]
        let width = steepest > 0 ? abs(outside - inside) / steepest : 2 * reach * r
        return (Double(best) * step, min(max(width, step), 2 * reach * r))
    }

    /// Bilinear interpolation between pixel centres (at i + 0.5), clamped to the image.
    @inline(__always)
    private static func sample(_ image: GrayImage, _ x: Double, _ y: Double) -> Double {
        let u = min(max(x - 0.5, 0), Double(image.width - 1)), v = min(max(y - 0.5, 0), Double(image.height - 1))
        let i = Int(u), j = Int(v)
        let (fx, fy) = (u - Double(i), v - Double(j))
        let i1 = min(i + 1, image.width - 1), j1 = min(j + 1, image.height - 1)
        let p = image.pixels
        let a = Double(p[j * image.width + i]), b = Double(p[j * image.width + i1])
        let c = Double(p[j1 * image.width + i]), d = Double(p[j1 * image.width + i1])
        let top = a + (b - a) * fx, bottom = c + (d - c) * fx
        return top + (bottom - top) * fy
    }

    /// The axis (0…3) nearest to perpendicular to a velocity (`vx`, `vy`); axis 0 for none.
    static func axis(across vx: Double, _ vy: Double) -> Int {
        let h = 0.5.squareRoot()
        let nx = -vy, ny = vx
        let scores = SIMD4<Double>(abs(nx), abs(h * nx + h * ny), abs(ny), abs(-h * nx + h * ny))
        var best = 0
        for k in 1..<4 where scores[k] > scores[best] { best = k }
        return best
    }
}
