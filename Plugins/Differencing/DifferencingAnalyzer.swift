import Foundation
import LumaAnalysis
import LumaImaging

/// Shows what frame differencing sees: for every analyzed frame after the first, the fraction of
/// changed pixels, the mean absolute difference, and the motion blobs (connected changed regions),
/// inside the region of interest.
///
/// This is the debug view of the first stage of trajectory detection. With `replay --dump DIR` it
/// also writes each absolute-difference image as a PGM file (`DIR/differencing-000123.pgm`).
///
/// The first analyzed frame has nothing to compare with and emits no event.
public struct DifferencingAnalyzer: Analyzer {
    public static let name = "differencing"
    public static let version = "1"
    public static let summary = "frame differencing: changed fraction, mean difference and motion blobs per frame"
    public static let eventTypes: [any EventPayload.Type] = [DiffEvent.self]

    private let configuration: DifferencingConfiguration
    private let width: Int
    private let height: Int
    private let region: PixelRect
    private let debugImages: DebugImages?
    /// Debug images are named after the instance, so two differencing instances never overwrite each other's.
    private let dumpPrefix: String
    private var previous: [UInt8] = []
    private var background: RunningAverage?
    private var mask: [UInt8]
    /// The absolute-difference image, made only for `--dump` (empty otherwise: a frame's worth saved per instance).
    private var difference: [UInt8]
    private var components = ConnectedComponents()

    /// The previous frame (or, in background mode, a 16-bit model), the mask, the difference
    /// image when dumping, and room for labelling the mask's runs; measured on 16384×16384 frames:
    /// 2.0 bytes per pixel with no dump.
    public static func memoryPerPixel(in configuration: DifferencingConfiguration) -> Double {
        configuration.mode == .background ? 4 : 3
    }

    public init(configuration: DifferencingConfiguration, context: AnalyzerContext) throws {
        self.configuration = configuration
        width = context.stream.width
        height = context.stream.height
        region = PixelRect(context.regionOfInterest.pixelBounds(width: width, height: height))
        debugImages = context.debugImages
        dumpPrefix = context.instanceName(of: Self.self)
        mask = [UInt8](repeating: 0, count: width * height)
        difference = debugImages == nil ? [] : [UInt8](repeating: 0, count: width * height)
    }

    public mutating func analyze(_ frame: Frame, into events: inout EventSink) throws {
        let pixels = frame.pixels
        let statistics: DifferenceStatistics
        switch configuration.mode {
        case .previous:
            guard !previous.isEmpty else { previous = Array(pixels); return }
            statistics = previous.withUnsafeBufferPointer { diff(pixels, $0) }
            previous.withUnsafeMutableBufferPointer { $0.baseAddress!.update(from: pixels.baseAddress!, count: pixels.count) }
        case .background:
            // Taken out while it is updated, so the update does not copy the model each frame.
            guard var model = background.take() else {
                background = RunningAverage(first: GrayImage(frame), learningRate: configuration.learningRate)
                return
            }
            statistics = model.withBackground { diff(pixels, $0) }
            model.update(with: GrayImage(frame), region: region)
            background = model
        }

        let found = mask.withUnsafeBufferPointer { components.label($0, width: width, region: region) }
        let blobs = found.filter { $0.area >= configuration.minArea }
            .sorted { ($0.area, -$0.minY, -$0.minX) > ($1.area, -$1.minY, -$1.minX) }
            .prefix(configuration.maxBlobs)
            .map(blob)
        try events.emit(DiffEvent(changedFraction: statistics.changedFraction,
                                          meanAbsoluteDifference: statistics.meanAbsoluteDifference, blobs: Array(blobs)))
        if let debugImages {
            try difference.withUnsafeBufferPointer { try debugImages.write(dumpPrefix + String(format: "-%06d", frame.index), width: width, height: height, pixels: $0) }
        }
    }

    private mutating func diff(_ current: UnsafeBufferPointer<UInt8>, _ reference: UnsafeBufferPointer<UInt8>) -> DifferenceStatistics {
        let (w, r, t) = (width, region, UInt8(configuration.threshold))
        let wantImage = debugImages != nil
        return mask.withUnsafeMutableBufferPointer { m in
            difference.withUnsafeMutableBufferPointer { d in
                FrameDifference.compute(current, reference, width: w, region: r, threshold: t, mask: m, difference: wantImage ? d : nil)
            }
        }
    }

    private func blob(_ c: Component) -> DiffEvent.Blob {
        let w = Double(width), h = Double(height)
        let (cx, cy) = c.centroid
        return DiffEvent.Blob(
            boundingBox: NormalizedRect(pixelLeft: Double(c.minX), top: Double(c.minY), right: Double(c.maxX + 1), bottom: Double(c.maxY + 1),
                                        frameWidth: width, frameHeight: height).array,
            centroid: NormalizedPoint(pixelX: cx, pixelY: cy, frameWidth: width, frameHeight: height).array,
            area: Double(c.area) / (w * h),
            pixels: c.area,
            radius: c.equivalentRadius / w)
    }
}
