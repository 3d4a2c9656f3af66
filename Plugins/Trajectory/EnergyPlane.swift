import LumaImaging

/// The first octave's motion energy with the frame and background it came from, for measuring one
/// candidate: where its disc's centre is, how round it is, what it holds.
struct EnergyPlane {
    let energy: UnsafeBufferPointer<UInt8>
    let frame: UnsafeBufferPointer<UInt8>
    let background: UnsafeBufferPointer<UInt8>
    let width: Int
    let height: Int
    /// Energy at or below this carries no weight.
    let threshold: Double

    /// Calls `body(x, y, index)` for every pixel whose centre lies within `radius` of (`cx`, `cy`).
    @inline(__always)
    private func forEachPixel(inDiscAt cx: Double, _ cy: Double, radius: Double, _ body: (Int, Int, Int) -> Void) {
        let x0 = max(0, Int((cx - radius).rounded(.down))), x1 = min(width - 1, Int((cx + radius).rounded(.down)))
        let y0 = max(0, Int((cy - radius).rounded(.down))), y1 = min(height - 1, Int((cy + radius).rounded(.down)))
        guard x0 <= x1, y0 <= y1 else { return }
        let r2 = radius * radius
        for y in y0...y1 {
            let dy = Double(y) + 0.5 - cy
            // The row's pixels inside form one run (the test grows with |dx|): its ends from
            // the square root, then settled by the test itself, so the pixels are exactly those
            // the test passes.
            let rest = r2 - dy * dy
            guard rest >= 0 else { continue }
            @inline(__always) func inside(_ x: Int) -> Bool {
                let dx = Double(x) + 0.5 - cx
                return dx * dx + dy * dy <= r2
            }
            let half = rest.squareRoot()
            var left = max(x0, min(x1, Int((cx - 0.5 - half).rounded(.up))))
            var right = min(x1, max(x0, Int((cx - 0.5 + half).rounded(.down))))
            while left > x0 && inside(left - 1) { left -= 1 }
            while left <= right && !inside(left) { left += 1 }
            while right < x1 && inside(right + 1) { right += 1 }
            while right >= left && !inside(right) { right -= 1 }
            guard left <= right else { continue }
            let row = y * width
            for x in left...right { body(x, y, row + x) }
        }
    }

    /// Three mean-shift steps: the centre moves to the energy-weighted centroid of the disc around
    /// it, at most one radius from where it started in all.
    func refine(x: Double, y: Double, radius: Double) -> (x: Double, y: Double) {
        var (cx, cy) = (x, y)
        for _ in 0..<3 {
            var sw = 0.0, sx = 0.0, sy = 0.0
            forEachPixel(inDiscAt: cx, cy, radius: radius) { px, py, i in
                let w = Double(energy[i]) - threshold
                guard w > 0 else { return }
                sw += w; sx += w * (Double(px) + 0.5); sy += w * (Double(py) + 0.5)
            }
            guard sw > 0 else { break }
            var (nx, ny) = (sx / sw, sy / sw)
            let (dx, dy) = (nx - x, ny - y)
            let travel = (dx * dx + dy * dy).squareRoot()
            if travel > radius { (nx, ny) = (x + dx * radius / travel, y + dy * radius / travel) }
            let moved = abs(nx - cx) + abs(ny - cy)
            (cx, cy) = (nx, ny)
            if moved < 0.05 { break }
        }
        return (cx, cy)
    }

    /// The plain centroid of the pixels within `radius` whose energy reaches the threshold, and the
    /// radius of a disc of their area; `nil` when there are none. Unweighted on purpose: a shaded
    /// ball's lit side would pull a weighted centre towards it.
    func disc(x: Double, y: Double, radius: Double) -> (x: Double, y: Double, radius: Double)? {
        var count = 0, sx = 0.0, sy = 0.0
        forEachPixel(inDiscAt: x, y, radius: radius) { px, py, i in
            guard Double(energy[i]) >= threshold else { return }
            count += 1; sx += Double(px) + 0.5; sy += Double(py) + 0.5
        }
        guard count > 0 else { return nil }
        return (sx / Double(count), sy / Double(count), (Double(count) / PortableMath.pi).squareRoot())
    }

    /// The radius of the disc of energy centred at (`x`, `y`), near `scale`: where the mean energy
    /// of rings one pixel wide falls half way from the disc's inside (within half the scale) to
    /// its surroundings (two to two and a half scales out); within half to twice the scale.
    func radius(x: Double, y: Double, scale: Double) -> Double {
        let rings = Int((2.5 * scale).rounded(.up)) + 1
        return withUnsafeTemporaryAllocation(of: (sum: Double, count: Int).self, capacity: rings) { ring in
            ring.initialize(repeating: (0, 0))
            forEachPixel(inDiscAt: x, y, radius: Double(rings)) { px, py, i in
                let (dx, dy) = (Double(px) + 0.5 - x, Double(py) + 0.5 - y)
                let k = min(rings - 1, Int((dx * dx + dy * dy).squareRoot()))
                ring[k].sum += Double(energy[i])
                ring[k].count += 1
            }
            func mean(_ range: Range<Int>) -> Double? {
                var s = 0.0, c = 0
                for k in range where k < rings { s += ring[k].sum; c += ring[k].count }
                return c > 0 ? s / Double(c) : nil
            }
            let inner = max(1, Int((0.5 * scale).rounded(.up)))
            guard let inside = mean(0..<inner), let outside = mean(Int(2 * scale)..<rings), inside > outside else { return scale }
            let half = (inside + outside) / 2
            var previous = inside
            for k in inner..<rings {
                guard ring[k].count > 0 else { continue }
                let m = ring[k].sum / Double(ring[k].count)
                if m < half {
                    // Linear between ring k − 1 (centre k − 0.5) and ring k (centre k + 0.5).
                    let crossing = Double(k) - 0.5 + (previous - half) / max(previous - m, 1e-9)
                    return min(2 * scale, max(0.5 * scale, crossing))
                }
                previous = m
            }
            return 2 * scale
        }
    }

    /// √(λ₁ / λ₂) of the energy's second moments (above the threshold) within `radius`.
    func elongation(x: Double, y: Double, radius: Double) -> Double {
        var sw = 0.0, sx = 0.0, sy = 0.0, sxx = 0.0, syy = 0.0, sxy = 0.0
        forEachPixel(inDiscAt: x, y, radius: radius) { px, py, i in
            let w = Double(energy[i]) - threshold
            guard w > 0 else { return }
            let (u, v) = (Double(px) + 0.5 - x, Double(py) + 0.5 - y)
            sw += w; sx += w * u; sy += w * v; sxx += w * u * u; syy += w * v * v; sxy += w * u * v
        }
        guard sw > 0 else { return 1 }
        let (mx, my) = (sx / sw, sy / sw)
        let (a, b, c) = (sxx / sw - mx * mx + 1.0 / 12, syy / sw - my * my + 1.0 / 12, sxy / sw - mx * my)
        let mean = (a + b) / 2, spread = (((a - b) / 2) * ((a - b) / 2) + c * c).squareRoot()
        let small = max(mean - spread, 1e-6)
        return ((mean + spread) / small).squareRoot()
    }

    /// Mean energy inside the disc, and mean frame luma over mean background luma there.
    func means(x: Double, y: Double, radius: Double) -> (energy: Double, ratio: Double) {
        var count = 0, e = 0, f = 0, b = 0
        forEachPixel(inDiscAt: x, y, radius: max(radius, 0.75)) { _, _, i in
            count += 1; e += Int(energy[i]); f += Int(frame[i]); b += Int(background[i])
        }
        guard count > 0 else { return (0, 1) }
        return (Double(e) / Double(count), Double(f + 1) / Double(b + 1))
    }
}
