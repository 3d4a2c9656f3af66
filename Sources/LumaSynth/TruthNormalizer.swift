import LumaTruth

// MARK: - Converting pixel geometry to truth numbers

/// Converts top-left pixel geometry into the normalized, lower-left, 6-decimal numbers of the
/// truth file.
struct TruthNormalizer {
    let width: Double
    let height: Double

    init(width: Int, height: Int) {
        self.width = Double(width)
        self.height = Double(height)
    }

    /// Rounded to 6 decimals, never `-0`.
    static func round6(_ value: Double) -> Double {
        let r = (value * 1_000_000).rounded() / 1_000_000
        return r == 0 ? 0 : r
    }

    /// `[frame, x, y, radius]` for a ball centred at pixel (`px`, `py`).
    func ballPoint(frame: Int, px: Double, py: Double, radius: Double) -> [Double] {
        [Double(frame), Self.round6(px / width), Self.round6(1 - py / height), Self.round6(radius / width)]
    }

    /// `[frame, x, y, w, h]` for a box spanning `left..<right`, `top..<bottom` in pixels.
    func boxPoint(frame: Int, left: Double, top: Double, right: Double, bottom: Double) -> [Double] {
        [
            Double(frame), Self.round6(left / width), Self.round6(1 - bottom / height),
            Self.round6((right - left) / width), Self.round6((bottom - top) / height),
        ]
    }
}
