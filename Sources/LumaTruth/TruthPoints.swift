import LumaAnalysis

/// Pixel geometry (continuous pixels, top-left origin) as the numbers of a truth file: normalized,
/// lower-left origin, rounded to six decimals. Every truth point is made here, whether imported
/// from labels or drawn by the synthesizer, through `NormalizedRect` and `NormalizedPoint`: the one
/// y flip.
public struct TruthPoints: Sendable {
    public let frameWidth: Int
    public let frameHeight: Int

    public init(frameWidth: Int, frameHeight: Int) {
        self.frameWidth = frameWidth
        self.frameHeight = frameHeight
    }

    /// `[frame, x, y, radius]` of a ball centred at pixel (`x`, `y`), `radius` pixels across half
    /// its width (normalized by the frame's width).
    public func ball(frame: Int, pixelX x: Double, pixelY y: Double, radius: Double) -> [Double] {
        let centre = NormalizedPoint(pixelX: x, pixelY: y, frameWidth: frameWidth, frameHeight: frameHeight)
        return [Double(frame), Self.round6(centre.x), Self.round6(centre.y), Self.round6(radius / Double(frameWidth))]
    }

    /// `[frame, x, y, w, h]` of a box between the pixel edges `left`…`right` and `top`…`bottom`.
    public func box(frame: Int, left: Double, top: Double, right: Double, bottom: Double) -> [Double] {
        let box = NormalizedRect(pixelLeft: left, top: top, right: right, bottom: bottom, frameWidth: frameWidth, frameHeight: frameHeight)
        return [Double(frame)] + box.array.map(Self.round6)
    }

    /// Rounded to six decimals, never `-0`.
    public static func round6(_ value: Double) -> Double {
        let r = (value * 1_000_000).rounded() / 1_000_000
        return r == 0 ? 0 : r
    }
}
