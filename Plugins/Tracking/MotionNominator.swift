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
    /// Frame pixels per shrunk pixel.
    let factor: Int
    let width: Int
    let height: Int
    /// Smallest box side, frame pixels.
    let minimumSize: Double
    private var current: [UInt8]
    private var previous: [UInt8]
    /// The frame before `previous`.
    private var older: [UInt8]
    private var difference: [UInt8]
    private var mask: [UInt8]
    private var motionMask: [UInt8]
    private var background: AdaptiveBackground?
    private var box = BoxThreshold()
    private var labeler = ConnectedComponents()
    /// Mean grey levels over 3×3 above which a pixel moves.
    static let threshold = 12

    init(frameWidth: Int, frameHeight: Int, minimumSize: Double, frameInterval: Double) {
        self.frameWidth = frameWidth
        self.frameHeight = frameHeight
        self.minimumSize = minimumSize
        factor = Downsample.factor(shrinking: max(frameWidth, frameHeight), toAtMost: 320)
        width = frameWidth / factor
        height = frameHeight / factor
        let n = width * height
        current = [UInt8](repeating: 0, count: n)
        previous = current
        older = current
        difference = current
        mask = current
        motionMask = current
        settleFrames = max(1, min(255, Int((1.0 / frameInterval).rounded(.up))))
    }

    private let settleFrames: Int

    /// Updates the background with `frame`; when `propose` is set, returns the moving regions'
    /// boxes (frame pixels, top-left origin: x, y, width, height), largest first.
    mutating func observe(_ frame: Frame, propose: Bool) -> [[Double]] {
        guard width > 0, height > 0 else { return [] }
        let region = PixelRect(x0: 0, y0: 0, x1: width * factor, y1: height * factor)
        current.withUnsafeMutableBufferPointer {
            Downsample.boxAverage(frame.pixels, sourceWidth: frame.width, region: region, factor: factor, into: $0)
        }
        guard var model = background.take() else {
            background = current.withUnsafeBufferPointer { AdaptiveBackground(first: $0, width: width, height: height, settleFrames: settleFrames) }
            older = current
            swap(&current, &previous)
            return []
        }
        defer { background = model }
        current.withUnsafeBufferPointer { c in difference.withUnsafeMutableBufferPointer { model.difference(c, into: $0) } }
        let (w, h) = (width, height)
        difference.withUnsafeBufferPointer { d in
            mask.withUnsafeMutableBufferPointer { m in _ = box.apply(d, width: w, height: h, threshold: 9 * Self.threshold, mask: m) }
        }
        var boxes: [[Double]] = []
        if propose {
            let k = Double(factor)
            // What also changed since two frames ago, into `difference` (no longer needed).
            let n = w * h
            for i in 0..<n {
                let (a, b) = (current[i], older[i])
                difference[i] = a > b ? a &- b : b &- a
            }
            difference.withUnsafeBufferPointer { d in
                motionMask.withUnsafeMutableBufferPointer { m in _ = box.apply(d, width: w, height: h, threshold: 9 * Self.threshold, mask: m) }
            }
            for i in 0..<n { motionMask[i] &= mask[i] }
            let components = motionMask.withUnsafeBufferPointer { labeler.label($0, width: w, region: PixelRect(width: w, height: h)) }
            for c in components {
                let bw = Double(c.maxX - c.minX + 1) * k, bh = Double(c.maxY - c.minY + 1) * k
                guard bw >= minimumSize, bh >= minimumSize,
                      Double(c.area) >= 0.3 * Double((c.maxX - c.minX + 1) * (c.maxY - c.minY + 1)) else { continue }
                boxes.append([Double(c.minX) * k, Double(c.minY) * k, bw, bh])
            }
            boxes.sort { ($0[2] * $0[3], -$0[1], -$0[0]) > ($1[2] * $1[3], -$1[1], -$1[0]) }
        }
        current.withUnsafeBufferPointer { c in
            previous.withUnsafeBufferPointer { p in
                mask.withUnsafeBufferPointer { m in model.update(with: c, previous: p, foreground: m, stillness: 4) }
            }
        }
        swap(&older, &previous)
        swap(&current, &previous)
        return boxes
    }
}
