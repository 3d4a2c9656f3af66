import LumaAnalysis
import LumaImaging

/// `rectangle`: one rectangle seen in this frame, like a `VNRectangleObservation`. Corners and box
/// are normalized to the whole frame with Vision's lower-left origin (so `topLeft` has the larger y).
public struct RectangleObservation: EventPayload, Equatable {
    public static let kind = "rectangle"
    public static let version = 1
    public static let shape: EventShape? = .quadrilateral

    public var topLeft: [Double]
    public var topRight: [Double]
    public var bottomRight: [Double]
    public var bottomLeft: [Double]
    /// The corners' bounding box, `[x, y, width, height]`.
    public var boundingBox: [Double]
    /// 0...1: the share of points along the four sides that lie on an edge running along the side.
    public var confidence: Double
}

/// Finds rectangles (seen in perspective) in every analyzed frame, the way Vision's
/// `VNDetectRectanglesRequest` does: paper, screens, signs, boxes. See `RectangleDetector` for
/// how. Frames are shrunk by block averaging until the region's longer side is at most 480
/// pixels; corners are given back in frame coordinates.
public struct RectanglesAnalyzer: Analyzer {
    public static let name = "rectangles"
    public static let version = "2"
    public static let summary = "rectangles seen in perspective, four corners each (Vision's VNDetectRectanglesRequest)"

    public static let eventTypes: [any EventPayload.Type] = [RectangleObservation.self]

    static let processingDimension = 480

    private let configuration: RectanglesConfiguration
    private let region: PixelRect
    private let factor: Int
    private var plane: [UInt8]
    private var detector: RectangleDetector

    /// One plane shrunk to the processing size: measured on 16384×16384 frames, under 0.01 bytes
    /// per pixel; 0.5 leaves room.
    public static func memoryPerPixel(in configuration: RectanglesConfiguration) -> Double { 0.5 }

    public init(configuration: RectanglesConfiguration, context: AnalyzerContext) throws {
        try configuration.validate()
        self.configuration = configuration
        let stream = context.stream
        let roi = PixelRect(context.regionOfInterest.pixelBounds(width: stream.width, height: stream.height))
        factor = Downsample.factor(shrinking: max(roi.width, roi.height), toAtMost: Self.processingDimension)
        let (w, h) = Downsample.outputSize(of: roi, factor: factor)
        region = PixelRect(x0: roi.x0, y0: roi.y0, x1: roi.x0 + w * factor, y1: roi.y0 + h * factor)
        plane = [UInt8](repeating: 0, count: w * h)
        var settings = RectangleDetector.Settings()
        settings.minimumAspectRatio = configuration.minimumAspectRatio
        settings.maximumAspectRatio = configuration.maximumAspectRatio
        settings.minimumSide = max(4, configuration.minimumSize * Double(min(stream.width, stream.height)) / Double(factor))
        settings.minimumConfidence = configuration.minimumConfidence
        settings.quadratureTolerance = configuration.quadratureTolerance
        detector = RectangleDetector(settings: settings)
    }

    public mutating func analyze(_ frame: Frame, into events: inout EventSink) throws {
        let (w, h) = (region.width / factor, region.height / factor)
        guard w >= 3, h >= 3 else { return }
        plane.withUnsafeMutableBufferPointer {
            Downsample.boxAverage(GrayImage(frame), region: region, factor: factor, into: $0)
        }
        var found = plane.withUnsafeBufferPointer { detector.detect($0, width: w, height: h) }
        if configuration.maximumObservations > 0 { found = Array(found.prefix(configuration.maximumObservations)) }
        let k = Double(factor)
        for q in found {
            let corners = q.corners.map {
                NormalizedPoint(pixelX: Double(region.x0) + $0.x * k, pixelY: Double(region.y0) + $0.y * k,
                                frameWidth: frame.width, frameHeight: frame.height).array
            }
            let xs = corners.map { $0[0] }, ys = corners.map { $0[1] }
            try events.emit(RectangleObservation(
                topLeft: corners[0], topRight: corners[1], bottomRight: corners[2], bottomLeft: corners[3],
                boundingBox: [xs.min()!, ys.min()!, xs.max()! - xs.min()!, ys.max()! - ys.min()!], confidence: q.confidence))
        }
    }
}
