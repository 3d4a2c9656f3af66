import LumaBase
import LumaImaging

/// The printed face of a tracked rectangle: a small grey image, rasterized once at the largest
/// size the object reaches on screen and sampled bilinearly when drawn.
///
/// Every face has a solid border (very dark or very bright) so the rectangle's outline is crisp
/// against the background, and an inner pattern unlike the background's bricks and plaster.
struct ObjectTexture: Sendable {
    enum Pattern: String, CaseIterable, Sendable {
        /// A checkerboard of 3–6 columns, near black and near white.
        case checker
        /// Diagonal bands.
        case stripes
        /// High-contrast blotchy noise, like a camouflage print.
        case blotches
        /// Concentric rings, like a target.
        case rings
    }

    let pattern: Pattern
    let width: Int
    let height: Int
    /// width×height grey levels, top row first.
    let texels: [Float]

    init(pattern: Pattern, width: Int, height: Int, rng: inout SeededRandom) {
        self.pattern = pattern
        self.width = max(4, width)
        self.height = max(4, height)
        let w = self.width, h = self.height
        let dark = rng.uniform(18, 55)
        let bright = rng.uniform(195, 238)
        let borderIsDark = rng.chance(0.5)
        let border = max(1.5, Double(min(w, h)) * rng.uniform(0.05, 0.08))
        let cells = rng.int(in: 3...6)
        let period = Double(max(w, h)) / rng.uniform(3.5, 6)
        let angle = rng.uniform(0.3, 1.2)
        let key = rng.next()
        let (dirX, dirY) = (PortableMath.cos(angle), PortableMath.sin(angle))

        var texels = [Float](repeating: 0, count: w * h)
        // 2×2 supersampling keeps pattern edges soft at the raster's own scale.
        for y in 0..<h {
            for x in 0..<w {
                var sum = 0.0
                for sy in 0..<2 {
                    for sx in 0..<2 {
                        let px = Double(x) + (Double(sx) + 0.5) / 2
                        let py = Double(y) + (Double(sy) + 0.5) / 2
                        let inBorder = px < border || py < border || px > Double(w) - border || py > Double(h) - border
                        if inBorder {
                            sum += borderIsDark ? dark * 0.6 : min(250, bright + 10)
                            continue
                        }
                        let u = px / Double(w), v = py / Double(h)
                        switch pattern {
                        case .checker:
                            let rows = max(2, Int((Double(cells) * Double(h) / Double(w)).rounded()))
                            let cx = Int((u * Double(cells)).rounded(.down)), cy = Int((v * Double(rows)).rounded(.down))
                            sum += (cx + cy) % 2 == 0 ? dark : bright
                        case .stripes:
                            let s = (px * dirX + py * dirY) / period
                            sum += s - s.rounded(.down) < 0.5 ? dark + 20 : bright - 10
                        case .blotches:
                            let n = Noise.fbm(key, px / Double(max(w, h)) * 5, py / Double(max(w, h)) * 5, octaves: 3)
                            sum += (n - 0.5) * 3.2 * (bright - dark) * 0.5 + (bright + dark) / 2
                        case .rings:
                            let dx = px - Double(w) / 2, dy = py - Double(h) / 2
                            let ring = Int(((dx * dx + dy * dy).squareRoot() / (period * 0.5)).rounded(.down))
                            sum += ring % 2 == 0 ? bright : dark
                        }
                    }
                }
                texels[y * w + x] = Float((sum / 4).clamped(0, 255))
            }
        }
        self.texels = texels
    }
}

extension ObjectTexture {
    /// Draws the texture stretched over `box` (continuous pixel coordinates). Pixels the box only
    /// partly covers are blended by the covered fraction, so edges are anti-aliased and sub-pixel
    /// motion is visible.
    func draw(in box: SceneRect, into plane: Plane) {
        let span = box.pixelSpan(width: plane.width, height: plane.height)
        guard !span.columns.isEmpty, !span.rows.isEmpty, box.width > 0, box.height > 0 else { return }
        let scaleX = Double(width) / box.width
        let scaleY = Double(height) / box.height
        let maxU = Float(width - 1), maxV = Float(height - 1)
        texels.withUnsafeBufferPointer { texture in
            guard let t = texture.baseAddress else { return }
            for py in span.rows {
                let coverY = overlapLength(Double(py), Double(py + 1), box.top, box.bottom)
                if coverY <= 0 { continue }
                let v = min(max(Float((Double(py) + 0.5 - box.top) * scaleY - 0.5), 0), maxV)
                let v0 = min(Int(v), height - 2)  // textures are at least 4×4
                let fv = v - Float(v0)
                let rowA = t + v0 * width
                let rowB = t + min(v0 + 1, height - 1) * width
                let row = plane.row(py)
                for px in span.columns {
                    let coverX = overlapLength(Double(px), Double(px + 1), box.left, box.right)
                    if coverX <= 0 { continue }
                    let u = min(max(Float((Double(px) + 0.5 - box.left) * scaleX - 0.5), 0), maxU)
                    let u0 = min(Int(u), width - 2)
                    let fu = u - Float(u0)
                    let top = rowA[u0] + (rowA[u0 + 1] - rowA[u0]) * fu
                    let bottom = rowB[u0] + (rowB[u0 + 1] - rowB[u0]) * fu
                    let value = top + (bottom - top) * fv
                    let coverage = Float(coverX * coverY)
                    if coverage >= 1 {
                        row[px] = grey(value)
                    } else {
                        let old = Float(row[px])
                        row[px] = grey(old + (value - old) * coverage)
                    }
                }
            }
        }
    }
}
