import LumaEngine
import LumaImaging

/// Proposes objects to track from the rectangles seen in a frame (the `nominate=rectangles`
/// option), as the Apple sample does with `VNDetectRectanglesRequest`: on a copy shrunk to at most
/// 480 pixels across, any shorter/longer side ratio from 0.2, corners within 30° of square.
struct RectangleNominator {
    let factor: Int
    let width: Int
    let height: Int
    private var plane: [UInt8]
    private var detector: RectangleDetector

    /// `minimumSize`: smallest box side, frame pixels.
    init(frameWidth: Int, frameHeight: Int, minimumSize: Double) {
        factor = max(1, (max(frameWidth, frameHeight) + 479) / 480)
        width = frameWidth / factor
        height = frameHeight / factor
        plane = [UInt8](repeating: 0, count: width * height)
        var settings = RectangleDetector.Settings()
        settings.minimumAspectRatio = 0.2
        settings.minimumSide = max(4, minimumSize / Double(factor))
        detector = RectangleDetector(settings: settings)
    }

    /// The rectangles' bounding boxes (frame pixels, top-left origin: x, y, width, height), best first.
    mutating func propose(_ frame: Frame) -> [[Double]] {
        guard width >= 3, height >= 3 else { return [] }
        let region = PixelRect(x0: 0, y0: 0, x1: width * factor, y1: height * factor)
        plane.withUnsafeMutableBufferPointer {
            Downsample.boxAverage(frame.pixels, sourceWidth: frame.width, region: region, factor: factor, into: $0)
        }
        let (w, h) = (width, height)
        let k = Double(factor)
        return plane.withUnsafeBufferPointer { detector.detect($0, width: w, height: h) }.map { q in
            let xs = q.corners.map(\.x), ys = q.corners.map(\.y)
            return [xs.min()! * k, ys.min()! * k, (xs.max()! - xs.min()!) * k, (ys.max()! - ys.min()!) * k]
        }
    }
}
