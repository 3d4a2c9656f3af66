import LumaAnalysis
import LumaImaging

/// Proposes objects to track from the rectangles seen in a frame (the `nominate=rectangles`
/// option), as the Apple sample does with `VNDetectRectanglesRequest`: on a copy shrunk to at most
/// 480 pixels across, any shorter/longer side ratio from 0.2, corners within 30° of square.
struct RectangleNominator {
    /// Frames (and the crops a rectangle is looked for again in) are shrunk to at most this across.
    static let processingDimension = 480
    let factor: Int
    let width: Int
    let height: Int
    private var plane: [UInt8]
    private var detector: RectangleDetector
    /// Looks for a tracked rectangle again near its box; its minimum side follows the box.
    private var refiner: RectangleDetector
    private var crop: [UInt8] = []

    /// `minimumSize`: smallest box side, frame pixels.
    init(frameWidth: Int, frameHeight: Int, minimumSize: Double) {
        factor = Downsample.factor(shrinking: max(frameWidth, frameHeight), toAtMost: Self.processingDimension)
        width = frameWidth / factor
        height = frameHeight / factor
        plane = [UInt8](repeating: 0, count: width * height)
        var settings = RectangleDetector.Settings()
        settings.minimumAspectRatio = 0.2
        settings.minimumSide = max(4, minimumSize / Double(factor))
        // The outline stage only, as when tracking version 1 was measured: the line-segment stage
        // would change which rectangles are nominated and refined on real footage (a new tracking
        // version, its quality measured again), and costs most of a frame's time in debug builds.
        settings.assemblesLineSegments = false
        detector = RectangleDetector(settings: settings)
        refiner = detector
    }

    /// The rectangles in the frame (corners in frame pixels, top-left origin), best first.
    mutating func propose(_ frame: Frame) -> [DetectedQuadrilateral] {
        guard width >= 3, height >= 3 else { return [] }
        let region = PixelRect(x0: 0, y0: 0, x1: width * factor, y1: height * factor)
        plane.withUnsafeMutableBufferPointer {
            Downsample.boxAverage(GrayImage(frame), region: region, factor: factor, into: $0)
        }
        let (w, h) = (width, height)
        let k = Double(factor)
        return plane.withUnsafeBufferPointer { detector.detect($0, width: w, height: h) }.map { q in
            DetectedQuadrilateral(corners: q.corners.map { (x: $0.x * k, y: $0.y * k) }, confidence: q.confidence)
        }
    }

    /// The rectangle near `box` (frame pixels: x, y, width, height) in `frame`: the one found in the
    /// box grown by a quarter on each side whose bounding box overlaps `box` most (IoU ≥ 0.5), or nil.
    mutating func refine(_ frame: Frame, near box: [Double]) -> DetectedQuadrilateral? {
        let x0 = max(0, Int(box[0] - box[2] / 4)), y0 = max(0, Int(box[1] - box[3] / 4))
        let x1 = min(frame.width, Int((box[0] + box[2] * 1.25).rounded(.up))), y1 = min(frame.height, Int((box[1] + box[3] * 1.25).rounded(.up)))
        guard x1 - x0 >= 8, y1 - y0 >= 8 else { return nil }
        let f = Downsample.factor(shrinking: max(x1 - x0, y1 - y0), toAtMost: Self.processingDimension)
        let (w, h) = ((x1 - x0) / f, (y1 - y0) / f)
        if crop.count < w * h { crop = [UInt8](repeating: 0, count: w * h) }
        crop.withUnsafeMutableBufferPointer {
            Downsample.boxAverage(GrayImage(frame), region: PixelRect(x0: x0, y0: y0, x1: x0 + w * f, y1: y0 + h * f),
                                  factor: f, into: $0)
        }
        refiner.settings.minimumSide = max(4, min(box[2], box[3]) / 2 / Double(f))
        let k = Double(f)
        var best: (iou: Double, quad: DetectedQuadrilateral)?
        let found = crop.withUnsafeBufferPointer { refiner.detect(UnsafeBufferPointer(rebasing: $0[..<(w * h)]), width: w, height: h) }
        for q in found {
            let corners = q.corners.map { (x: Double(x0) + $0.x * k, y: Double(y0) + $0.y * k) }
            let xs = corners.map(\.x), ys = corners.map(\.y)
            let b = [xs.min()!, ys.min()!, xs.max()! - xs.min()!, ys.max()! - ys.min()!]
            let ix = max(0, min(b[0] + b[2], box[0] + box[2]) - max(b[0], box[0]))
            let iy = max(0, min(b[1] + b[3], box[1] + box[3]) - max(b[1], box[1]))
            let iou = ix * iy / (b[2] * b[3] + box[2] * box[3] - ix * iy)
            if iou >= 0.5, best.map({ iou > $0.iou }) ?? true { best = (iou, DetectedQuadrilateral(corners: corners, confidence: q.confidence)) }
        }
        return best?.quad
    }
}
