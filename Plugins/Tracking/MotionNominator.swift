import LumaAnalysis
import LumaImaging

/// Proposes objects to track without hand-drawn boxes: the compact moving regions of a frame,
/// found against an ``AdaptiveBackground`` (the `nominate=motion` option).
///
/// It keeps its background model up to date on every analyzed frame (on a copy shrunk to at most
/// 320 pixels across, which is plenty for boxes) and, when asked, returns the bounding boxes of
/// the moving regions at least `minimumSize` across, largest first. A region is what differs from
/// the background by more than the threshold over a 3×3 neighbourhood (the sums grow it by about a
/// pixel, which joins an object's close fragments) *and* has changed since two frames before, and
/// fills at least 30% of its box. The second condition drops the ghost an object leaves where it
/// stood when the background was first taken: that area differs from the background, but it holds
/// still.
struct MotionNominator {
    let frameWidth: Int
    let frameHeight: Int
    /// Smallest box side, frame pixels.
    let minimumSize: Double
    private var motion: MotionSegmentation
    /// What changed since two frames before, and where that is above the threshold.
    private var change: [UInt8]
    private var changeMask: [UInt8]
    /// Mean grey levels over 3×3 above which a pixel moves.
    static let threshold = 12

    /// Frame pixels per shrunk pixel.
    var factor: Int { motion.factor }

    init(frameWidth: Int, frameHeight: Int, minimumSize: Double, frameInterval: Double) {
        self.frameWidth = frameWidth
        self.frameHeight = frameHeight
        self.minimumSize = minimumSize
        let factor = Downsample.factor(shrinking: max(frameWidth, frameHeight), toAtMost: 320)
        let region = PixelRect(x0: 0, y0: 0, x1: frameWidth / factor * factor, y1: frameHeight / factor * factor)
        motion = MotionSegmentation(region: region, factor: factor, settleFrames: Int((1.0 / frameInterval).rounded(.up)))
        change = [UInt8](repeating: 0, count: motion.width * motion.height)
        changeMask = change
    }

    /// Updates the background with `frame`; when `propose` is set, returns the moving regions'
    /// boxes (frame pixels, top-left origin: x, y, width, height), largest first.
    mutating func observe(_ frame: Frame, propose: Bool) -> [[Double]] {
        guard motion.width > 0, motion.height > 0, motion.begin(GrayImage(frame)) else { return [] }
        motion.segment(threshold: 9 * Self.threshold)
        var boxes: [[Double]] = []
        if propose {
            let k = Double(factor)
            for i in 0..<change.count {
                let (a, b) = (motion.current[i], motion.older[i])
                change[i] = a > b ? a &- b : b &- a
            }
            motion.threshold(change, at: 9 * Self.threshold, into: &changeMask)
            for i in 0..<changeMask.count { changeMask[i] &= motion.mask[i] }
            for c in motion.components(of: changeMask) {
                let bw = Double(c.maxX - c.minX + 1) * k, bh = Double(c.maxY - c.minY + 1) * k
                guard bw >= minimumSize, bh >= minimumSize,
                      Double(c.area) >= 0.3 * Double((c.maxX - c.minX + 1) * (c.maxY - c.minY + 1)) else { continue }
                boxes.append([Double(c.minX) * k, Double(c.minY) * k, bw, bh])
            }
            boxes.sort { ($0[2] * $0[3], -$0[1], -$0[0]) > ($1[2] * $1[3], -$1[1], -$1[0]) }
        }
        motion.end(stillness: 4)
        return boxes
    }
}
