import LumaAnalysis
import LumaImaging

/// Where the analyzer looks and at what scale: the region of interest in frame pixels, the factor
/// by which it is shrunk for speed, and the conversions between the three coordinate systems in
/// play.
///
/// - *Processing pixels*: the shrunk region, where detection runs.
/// - *Frame pixels*: the recording's pixels, top-left origin, y down; continuous, so column `c`
///   spans `c..<c + 1`. All tracking and fitting happens here, so physical quantities (pixels per
///   second, pixels per second²) do not depend on the processing scale.
/// - *Normalized*: Vision's lower-left origin (``NormalizedPoint``), what the events carry.
struct ProcessingGeometry: Sendable, Equatable {
    let frameWidth: Int
    let frameHeight: Int
    /// The region of interest in frame pixels.
    let region: PixelRect
    /// Each processing pixel averages `factor × factor` frame pixels.
    let factor: Int
    /// Size of the processing plane.
    let width: Int
    let height: Int

    /// The smallest radius, in frame pixels, that shrinking must keep at one processing pixel or
    /// more even when no minimum radius is set: below this, objects are too small to measure.
    static let smallestUsefulRadius = 2.0

    /// How far, in frame pixels, a ball of `radius` may lie from where its flight predicts it: half
    /// its radius, but never less than two processing pixels (the centres come from the shrunk
    /// plane). The one gate of the window design's association and of its confidence.
    func flightGate(radius: Double) -> Double { max(2 * Double(factor), 0.5 * radius) }

    init(frameWidth: Int, frameHeight: Int, regionOfInterest: NormalizedRect, maximumProcessingDimension: Int,
         minimumNormalizedRadius: Double) {
        self.frameWidth = frameWidth
        self.frameHeight = frameHeight
        region = PixelRect(regionOfInterest.pixelBounds(width: frameWidth, height: frameHeight))
        let longer = max(region.width, region.height)
        var k = Downsample.factor(shrinking: longer, toAtMost: maximumProcessingDimension)
        // An object of the minimum radius (normalized by width) must stay at least a pixel in radius.
        let radiusLimit = max(minimumNormalizedRadius * Double(frameWidth), Self.smallestUsefulRadius)
        k = min(k, max(1, Int(radiusLimit.rounded(.down))))
        k = max(1, min(k, min(region.width, region.height)))
        factor = k
        let size = Downsample.outputSize(of: region, factor: k)
        width = size.width
        height = size.height
    }

    /// Frame-pixel x of processing-pixel x (both continuous).
    @inline(__always) func frameX(_ x: Double) -> Double { Double(region.x0) + Double(factor) * x }
    @inline(__always) func frameY(_ y: Double) -> Double { Double(region.y0) + Double(factor) * y }

    /// The normalized point of frame pixel (`px`, `py`).
    @inline(__always) func normalized(_ px: Double, _ py: Double) -> NormalizedPoint {
        NormalizedPoint(pixelX: px, pixelY: py, frameWidth: frameWidth, frameHeight: frameHeight)
    }

    /// The processed part of the region, in frame pixels (continuous edges).
    var processedLeft: Double { Double(region.x0) }
    var processedTop: Double { Double(region.y0) }
    var processedRight: Double { Double(region.x0 + factor * width) }
    var processedBottom: Double { Double(region.y0 + factor * height) }

    /// Whether a disc at (`x`, `y`) of `radius` frame pixels lies wholly inside the processed region.
    func containsDisc(x: Double, y: Double, radius: Double) -> Bool {
        x - radius >= processedLeft && x + radius <= processedRight && y - radius >= processedTop && y + radius <= processedBottom
    }

    /// Whether the point (`x`, `y`) lies inside the processed region.
    func contains(x: Double, y: Double) -> Bool {
        x >= processedLeft && x < processedRight && y >= processedTop && y < processedBottom
    }
}
