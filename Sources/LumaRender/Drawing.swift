/// Lines, boxes, dots and small text on an ``RGBImage``, in pixel coordinates (top left origin).
extension RGBImage {
    /// A straight line from (`x0`, `y0`) to (`x1`, `y1`), `thickness` pixels wide; with `dash` > 0,
    /// drawn `dash` pixels on, `dash` off.
    public mutating func line(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ color: Color,
                              thickness: Int = 1, dash: Int = 0) {
        guard [x0, y0, x1, y1].allSatisfy({ $0.isFinite && abs($0) < 1e6 }) else { return }
        let steps = max(1, Int(max(abs(x1 - x0), abs(y1 - y0)).rounded(.up)))
        let half = (thickness - 1) / 2
        for s in 0...steps {
            if dash > 0, (s / dash) % 2 == 1 { continue }
            let t = Double(s) / Double(steps)
            let x = Int((x0 + (x1 - x0) * t).rounded(.down)), y = Int((y0 + (y1 - y0) * t).rounded(.down))
            for dy in -half..<(thickness - half) { for dx in -half..<(thickness - half) { plot(x + dx, y + dy, color) } }
        }
    }

    /// The outline of the box spanning `x0..<x1`, `y0..<y1`.
    public mutating func rectangle(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ color: Color,
                                   thickness: Int = 1, dash: Int = 0) {
        let (r, b) = (x1 - 1, y1 - 1)
        line(x0, y0, r, y0, color, thickness: thickness, dash: dash)
        line(r, y0, r, b, color, thickness: thickness, dash: dash)
        line(r, b, x0, b, color, thickness: thickness, dash: dash)
        line(x0, b, x0, y0, color, thickness: thickness, dash: dash)
    }

    /// Straight segments through `points`, closed back to the first when `closed`.
    public mutating func polyline(_ points: [(x: Double, y: Double)], _ color: Color, thickness: Int = 1, closed: Bool = false) {
        guard points.count > 1 else { return }
        for i in 1..<points.count { line(points[i - 1].x, points[i - 1].y, points[i].x, points[i].y, color, thickness: thickness) }
        if closed, let first = points.first, let last = points.last { line(last.x, last.y, first.x, first.y, color, thickness: thickness) }
    }

    /// A filled disc of `radius` pixels centred on (`x`, `y`).
    public mutating func disc(_ x: Double, _ y: Double, radius: Double, _ color: Color) {
        guard x.isFinite, y.isFinite, abs(x) < 1e6, abs(y) < 1e6 else { return }
        let r = max(0.5, radius), reach = Int(r.rounded(.up))
        let cx = Int(x.rounded(.down)), cy = Int(y.rounded(.down))
        for dy in -reach...reach {
            for dx in -reach...reach where Double(dx * dx + dy * dy) <= r * r { plot(cx + dx, cy + dy, color) }
        }
    }

    /// `text` in a 5×7 pixel font scaled by `scale`, top left at (`x`, `y`), on a dark backing so it
    /// reads on any picture. Characters the font lacks are drawn as blanks.
    public mutating func text(_ text: String, x: Int, y: Int, _ color: Color, scale: Int = 1) {
        let glyphs = Array(text.uppercased().unicodeScalars)
        let advance = 6 * scale
        fillBox(x - scale, y - scale, x + glyphs.count * advance, y + 8 * scale, .black)
        for (i, scalar) in glyphs.enumerated() {
            guard let rows = BitmapFont.glyphs[Character(scalar)] else { continue }
            for (r, bits) in rows.enumerated() {
                for c in 0..<5 where bits & (0x10 >> c) != 0 {
                    for sy in 0..<scale { for sx in 0..<scale { plot(x + i * advance + c * scale + sx, y + r * scale + sy, color) } }
                }
            }
        }
    }

    /// Fills the box spanning `x0..<x1`, `y0..<y1`.
    public mutating func fillBox(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, _ color: Color) {
        for y in max(0, y0)..<min(height, max(y1, 0)) where y1 > y0 {
            for x in max(0, x0)..<min(width, max(x1, 0)) where x1 > x0 { plot(x, y, color) }
        }
    }
}

/// A 5×7 pixel font for frame numbers, ids and short labels: digits, capitals and a few signs.
/// Each glyph is seven rows of five bits, the high bit on the left.
enum BitmapFont {
    static let glyphs: [Character: [UInt8]] = [
        "0": [0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E], "1": [0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E],
        "2": [0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F], "3": [0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E],
        "4": [0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02], "5": [0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E],
        "6": [0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E], "7": [0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08],
        "8": [0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E], "9": [0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C],
        "A": [0x0E, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11], "B": [0x1E, 0x11, 0x11, 0x1E, 0x11, 0x11, 0x1E],
        "C": [0x0E, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0E], "D": [0x1C, 0x12, 0x11, 0x11, 0x11, 0x12, 0x1C],
        "E": [0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x1F], "F": [0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x10],
        "G": [0x0E, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0F], "H": [0x11, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11],
        "I": [0x0E, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0E], "J": [0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0C],
        "K": [0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11], "L": [0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1F],
        "M": [0x11, 0x1B, 0x15, 0x15, 0x11, 0x11, 0x11], "N": [0x11, 0x11, 0x19, 0x15, 0x13, 0x11, 0x11],
        "O": [0x0E, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E], "P": [0x1E, 0x11, 0x11, 0x1E, 0x10, 0x10, 0x10],
        "Q": [0x0E, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0D], "R": [0x1E, 0x11, 0x11, 0x1E, 0x14, 0x12, 0x11],
        "S": [0x0F, 0x10, 0x10, 0x0E, 0x01, 0x01, 0x1E], "T": [0x1F, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04],
        "U": [0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E], "V": [0x11, 0x11, 0x11, 0x11, 0x11, 0x0A, 0x04],
        "W": [0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0A], "X": [0x11, 0x11, 0x0A, 0x04, 0x0A, 0x11, 0x11],
        "Y": [0x11, 0x11, 0x11, 0x0A, 0x04, 0x04, 0x04], "Z": [0x1F, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1F],
        " ": [0, 0, 0, 0, 0, 0, 0], ".": [0, 0, 0, 0, 0, 0x0C, 0x0C], "-": [0, 0, 0, 0x1F, 0, 0, 0],
        ":": [0, 0x0C, 0x0C, 0, 0x0C, 0x0C, 0], "/": [0x01, 0x01, 0x02, 0x04, 0x08, 0x10, 0x10],
        "#": [0x0A, 0x0A, 0x1F, 0x0A, 0x1F, 0x0A, 0x0A], "%": [0x18, 0x19, 0x02, 0x04, 0x08, 0x13, 0x03],
    ]
}
