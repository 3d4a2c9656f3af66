import LumaBase

/// The static background image of a scene, painted once at init from its `SetLayout`.
///
/// Mid-grey dominated (plaster ~150, bricks ~110, floor ~110) with real structure: smooth plaster
/// mottling, bricks with per-brick shade and lighter mortar, a dark window with a bright frame, a
/// poster with text-like bars, a baseboard, a plank floor with a painted line, the post when there
/// is one, vignetting and fine static grain. A 3×3 binomial blur stands in for lens softness so
/// edges are a pixel or two wide, as from a real camera.
///
/// Also keeps a coarse map of local mean brightness, which sets each ball's grey level: a ball is
/// drawn `contrast` grey levels away from the mean background around it, so its contrast stays
/// what the scene says as it flies over bricks and plaster.
struct Background: Sendable {
    let width: Int
    let height: Int
    /// width×height grey levels, top row first.
    let pixels: [UInt8]

    private let meanCell: Double
    private let meanColumns: Int
    private let meanRows: Int
    private let means: [Float]

    init(layout: SetLayout) {
        width = layout.width
        height = layout.height
        pixels = Self.paint(layout)
        (meanCell, meanColumns, meanRows, means) = Self.localMeans(of: pixels, width: width, height: height)
    }

    /// The layout painted, blurred with a 3×3 binomial kernel (edges clamped) and rounded to grey levels.
    private static func paint(_ layout: SetLayout) -> [UInt8] {
        let painter = BackgroundPainter(layout: layout)
        var image = [UInt8](repeating: 0, count: layout.width * layout.height)
        let w = layout.width
        let h = layout.height
        // Rows are painted one at a time, blurred horizontally, and combined vertically from a
        // sliding window of three, so the floating-point working set is a few rows at any size.
        var scratch = [Float](repeating: 0, count: w)
        func blurredRow(_ y: Int) -> [Float] {
            painter.paintRow(y, into: &scratch)
            var out = [Float](repeating: 0, count: w)
            for x in 0..<w {
                out[x] = (scratch[max(0, x - 1)] + 2 * scratch[x] + scratch[min(w - 1, x + 1)]) * 0.25
            }
            return out
        }
        var above = blurredRow(0)
        var here = above
        var below = blurredRow(min(1, h - 1))
        for y in 0..<h {
            for x in 0..<w {
                image[y * w + x] = grey((above[x] + 2 * here[x] + below[x]) * 0.25)
            }
            if y + 1 < h {
                above = here
                here = below
                below = blurredRow(min(y + 2, h - 1))
            }
        }
        return image
    }

    /// Local means of `image` on a coarse grid of square cells (about 1/48 of the width), lightly
    /// smoothed so bilinear lookups vary smoothly: the cell size, the grid's size, and the means.
    private static func localMeans(of image: [UInt8], width w: Int, height h: Int)
        -> (cell: Double, columns: Int, rows: Int, means: [Float]) {
        // Local means on a coarse grid, lightly smoothed so bilinear lookups vary smoothly.
        let cell = max(2.0, (Double(w) / 48).rounded())
        let columns = max(1, Int((Double(w) / cell).rounded(.up)))
        let rows = max(1, Int((Double(h) / cell).rounded(.up)))
        var sums = [Double](repeating: 0, count: columns * rows)
        var counts = [Double](repeating: 0, count: columns * rows)
        let c = Int(cell)
        for y in 0..<h {
            let row = min(rows - 1, y / c)
            for x in 0..<w {
                let index = row * columns + min(columns - 1, x / c)
                sums[index] += Double(image[y * w + x])
                counts[index] += 1
            }
        }
        var raw = [Double](repeating: 0, count: columns * rows)
        for i in raw.indices { raw[i] = counts[i] > 0 ? sums[i] / counts[i] : 128 }
        var smooth = [Float](repeating: 0, count: columns * rows)
        for r in 0..<rows {
            for q in 0..<columns {
                var total = 0.0
                var weight = 0.0
                for dr in -1...1 {
                    for dq in -1...1 {
                        let rr = r + dr, qq = q + dq
                        guard rr >= 0, rr < rows, qq >= 0, qq < columns else { continue }
                        let k = Double((2 - abs(dr)) * (2 - abs(dq)))
                        total += k * raw[rr * columns + qq]
                        weight += k
                    }
                }
                smooth[r * columns + q] = Float(total / weight)
            }
        }
        return (cell, columns, rows, smooth)
    }

    /// Mean background grey level around continuous pixel position (`x`, `y`), varying smoothly
    /// with position (bilinear over cells of about 1/48 of the width).
    func localMean(x: Double, y: Double) -> Double {
        let gx = (x / meanCell - 0.5).clamped(0, Double(meanColumns - 1))
        let gy = (y / meanCell - 0.5).clamped(0, Double(meanRows - 1))
        let x0 = Int(gx), y0 = Int(gy)
        let x1 = min(x0 + 1, meanColumns - 1), y1 = min(y0 + 1, meanRows - 1)
        let fx = gx - Double(x0), fy = gy - Double(y0)
        let a = Double(means[y0 * meanColumns + x0]), b = Double(means[y0 * meanColumns + x1])
        let c = Double(means[y1 * meanColumns + x0]), d = Double(means[y1 * meanColumns + x1])
        return (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy
    }
}

/// Paints the unblurred background one row at a time, as a function of pixel-centre position.
private struct BackgroundPainter {
    let layout: SetLayout
    let w: Double
    let h: Double
    let key: UInt64

    init(layout: SetLayout) {
        self.layout = layout
        w = Double(layout.width)
        h = Double(layout.height)
        key = layout.textureKey
    }

    func paintRow(_ row: Int, into out: inout [Float]) {
        let y = Double(row) + 0.5
        for column in 0..<layout.width {
            out[column] = Float(value(x: Double(column) + 0.5, y: y, column: column, row: row))
        }
    }

    /// Grey level (unclamped) at continuous pixel position (x, y).
    func value(x: Double, y: Double, column: Int, row: Int) -> Double {
        // Texture coordinates in units of the frame width, so features keep their aspect.
        let u = x / w
        let v = y / w
        var level: Double
        if let post = layout.post, x >= post.left, x < post.right, y < post.bottom {
            level = postLevel(x: x, y: y, post: post, v: v)
        } else if y < layout.brickTop {
            level = wallUpper(x: x, y: y, u: u, v: v)
        } else if y < layout.baseboardTop {
            level = bricks(x: x, y: y, u: u, v: v)
        } else if y < layout.floorY {
            level = layout.baseboardLevel + 6 * (Noise.fbm(key &+ 5, u * 40, v * 40, octaves: 2) - 0.5)
        } else {
            level = floor(x: x, y: y, u: u, v: v)
        }
        // Illumination: vignetting and a broad, soft light variation.
        let dx = x / w - 0.5, dy = y / h - 0.5
        let vignette = 1 - 0.36 * (dx * dx + dy * dy)
        let light = 1 + 0.12 * (Noise.fbm(key &+ 1, u * 1.6, v * 1.6, octaves: 2) - 0.5)
        level *= vignette * light
        // Static fine grain (surface texture, not sensor noise: identical in every frame).
        level += 5 * (Hash.lattice(key &+ 2, column, row) - 0.5)
        return level
    }

    private func wallUpper(x: Double, y: Double, u: Double, v: Double) -> Double {
        let trimHeight = max(1.5, h * 0.012)
        if y >= layout.brickTop - trimHeight { return 196 }  // a painted trim rail on top of the dado
        let window = layout.window
        if x >= window.left, x < window.right, y >= window.top, y < window.bottom {
            let frame = max(1.5, w * 0.007)
            let midX = window.centerX, midY = window.centerY
            if x < window.left + frame || x >= window.right - frame || y < window.top + frame
                || y >= window.bottom - frame || abs(x - midX) < frame * 0.5 || abs(y - midY) < frame * 0.5
            {
                return 205
            }
            // The view outside: dark, with a brighter sky at the top.
            let t = (y - window.top) / window.height
            return 92 - 40 * t + 22 * (Noise.fbm(key &+ 3, u * 12, v * 12, octaves: 3) - 0.5)
        }
        let poster = layout.poster
        if x >= poster.left, x < poster.right, y >= poster.top, y < poster.bottom {
            let border = max(1.0, w * 0.004)
            if x < poster.left + border || x >= poster.right - border || y < poster.top + border
                || y >= poster.bottom - border
            {
                return 70
            }
            let t = (y - poster.top) / poster.height
            if t > 0.15, t < 0.35, x > poster.left + poster.width * 0.15, x < poster.right - poster.width * 0.15 {
                return 60  // headline
            }
            let line = max(2.0, poster.height * 0.06)
            let k = Int(((y - poster.top) / line).rounded(.down))
            let inText = t > 0.45 && t < 0.9 && k % 2 == 0
            let lineEnd = poster.left + poster.width * (0.55 + 0.3 * Hash.lattice(key &+ 4, k, 0))
            if inText, x > poster.left + poster.width * 0.12, x < lineEnd { return 105 }
            return 212
        }
        // Plaster: mottled, a little darker towards the ceiling.
        let mottle = Noise.fbm(key &+ 6, u * 7, v * 7, octaves: 4) - 0.5
        let stipple = Noise.value(key &+ 13, u * 90, v * 90) - 0.5
        return layout.plasterLevel + 26 * mottle + 7 * stipple - 14 * (1 - y / layout.brickTop)
    }

    private func bricks(x: Double, y: Double, u: Double, v: Double) -> Double {
        let local = y - layout.brickTop
        let courseIndex = Int((local / layout.brickHeight).rounded(.down))
        let offset = courseIndex % 2 == 0 ? 0 : layout.brickWidth * 0.5
        let brickIndex = Int(((x + offset) / layout.brickWidth).rounded(.down))
        let fx = x + offset - Double(brickIndex) * layout.brickWidth
        let fy = local - Double(courseIndex) * layout.brickHeight
        let grain = Noise.fbm(key &+ 7, u * 60, v * 60, octaves: 2) - 0.5
        if fx < layout.mortar || fy < layout.mortar {
            return layout.mortarLevel + 8 * grain
        }
        let shade = Hash.lattice(key &+ 8, brickIndex, courseIndex) - 0.5
        let wear = Noise.fbm(key &+ 9, u * 14, v * 14, octaves: 2) - 0.5
        return layout.brickLevel + 30 * shade + 14 * grain + 10 * wear
    }

    private func floor(x: Double, y: Double, u: Double, v: Double) -> Double {
        if y >= layout.courtLine.top, y < layout.courtLine.bottom { return 188 }
        // Planks get wider towards the camera: boundaries at depth fractions (k/n)^1.5.
        let depth = ((y - layout.floorY) / (h - layout.floorY)).clamped(0, 1)
        let n = Double(layout.plankCount)
        let position = n * depth.squareRoot() * depth.squareRoot().squareRoot()  // n * depth^(3/4)
        let plank = Int(position.rounded(.down))
        let withinPlank = position - Double(plank)
        let seamWidth = 0.06 * (1 + depth)
        let seam = withinPlank < seamWidth ? -22.0 : 0
        let shade = Hash.lattice(key &+ 10, plank, 0) - 0.5
        let grain = Noise.fbm(key &+ 11, u * 3, v * 45, octaves: 3) - 0.5
        let contactShadow = -18 * (1 - ((y - layout.floorY) / (h * 0.04)).clamped(0, 1))
        return layout.floorLevel + 22 * shade + 22 * grain + seam + contactShadow
    }

    private func postLevel(x: Double, y: Double, post: SceneRect, v: Double) -> Double {
        // A painted round post: dark edges, a highlight left of centre, a darker foot on the floor.
        let s = ((x - post.left) / post.width) * 2 - 1  // -1...1 across
        let highlight = 1 - (s + 0.25) * (s + 0.25)
        let foot = y > layout.floorY - h * 0.02 ? -25.0 : 0
        let rings = 6 * (Noise.fbm(key &+ 12, s, v * 30, octaves: 2) - 0.5)
        return 58 + 110 * max(0, highlight) + foot + rings
    }
}

/// Value noise on an integer lattice, smoothly interpolated, summed over octaves.
enum Noise {
    /// Smooth value noise in [0, 1) at (x, y), one lattice cell per unit.
    @inline(__always) static func value(_ key: UInt64, _ x: Double, _ y: Double) -> Double {
        let fx = x.rounded(.down), fy = y.rounded(.down)
        let ix = Int(fx), iy = Int(fy)
        var tx = x - fx, ty = y - fy
        tx = tx * tx * (3 - 2 * tx)
        ty = ty * ty * (3 - 2 * ty)
        let a = Hash.lattice(key, ix, iy), b = Hash.lattice(key, ix + 1, iy)
        let c = Hash.lattice(key, ix, iy + 1), d = Hash.lattice(key, ix + 1, iy + 1)
        return a + (b - a) * tx + (c - a) * ty + (a - b - c + d) * tx * ty
    }

    /// Fractal sum of `octaves` octaves of value noise, normalized to [0, 1).
    static func fbm(_ key: UInt64, _ x: Double, _ y: Double, octaves: Int) -> Double {
        var sum = 0.0, amplitude = 1.0, total = 0.0, frequency = 1.0
        for octave in 0..<octaves {
            sum += amplitude * value(key &+ UInt64(octave) &* 0x51, x * frequency, y * frequency)
            total += amplitude
            amplitude *= 0.5
            frequency *= 2.03
        }
        return sum / total
    }
}
