/// Motion segmentation of a fixed-camera stream against a background, the steps every motion
/// detector shares: shrink the frame by block averaging, take its difference from an
/// ``AdaptiveBackground``, threshold the 3×3 sums of that difference (``BoxThreshold``), label the
/// mask (``ConnectedComponents``), then learn the frame into the background everywhere outside
/// the mask. It keeps the last three shrunk frames, for the three-frame differences detectors use
/// to tell what moves fast from what drifts.
///
/// ```swift
/// var motion = MotionSegmentation(region: region, factor: 2, settleFrames: 30)
/// guard motion.begin(frame.pixels, frameWidth: frame.width) else { return }   // first frame: background only
/// motion.segment(threshold: 9 * 12)
/// let blobs = motion.components(of: motion.mask)
/// motion.end(stillness: 4)
/// ```
///
/// All planes are allocated once; a frame costs a few passes over the shrunk plane.
public struct MotionSegmentation {
    /// The part of the frame analyzed, in frame pixels.
    public let region: PixelRect
    /// Frame pixels per shrunk pixel, each way.
    public let factor: Int
    /// Size of the shrunk planes.
    public let width: Int
    public let height: Int
    /// Frames a pixel must hold still to become background.
    public let settleFrames: Int

    /// The frame being analyzed, shrunk; after ``end(stillness:)`` it is ``previous``.
    public private(set) var current: [UInt8]
    /// The frame before, and the one before that.
    public private(set) var previous: [UInt8]
    public private(set) var older: [UInt8]
    /// `|current − background|`, after ``segment(threshold:)``.
    public private(set) var difference: [UInt8]
    /// The foreground: where the 3×3 sums of ``difference`` reach the threshold.
    public private(set) var mask: [UInt8]
    private var background: AdaptiveBackground?
    private var box = BoxThreshold()
    private var labeler = ConnectedComponents()

    public init(region: PixelRect, factor: Int, settleFrames: Int) {
        self.region = region
        self.factor = factor
        (width, height) = Downsample.outputSize(of: region, factor: factor)
        self.settleFrames = max(1, min(255, settleFrames))
        let plane = [UInt8](repeating: 0, count: width * height)
        (current, previous, older, difference, mask) = (plane, plane, plane, plane, plane)
    }

    /// Shrinks `frame` into ``current``. On the first frame the background starts from it and
    /// this returns `false`: there is nothing to compare with yet.
    public mutating func begin(_ frame: GrayImage) -> Bool {
        let (region, factor) = (self.region, self.factor)
        current.withUnsafeMutableBufferPointer {
            Downsample.boxAverage(frame, region: region, factor: factor, into: $0)
        }
        guard background != nil else {
            let (w, h, settle) = (width, height, settleFrames)
            background = current.withUnsafeBufferPointer { AdaptiveBackground(first: $0, width: w, height: h, settleFrames: settle) }
            older = current
            swap(&current, &previous)
            return false
        }
        return true
    }

    /// Takes ``difference`` against the background and thresholds its 3×3 sums at `threshold`
    /// (nine times a mean grey level) into ``mask``; returns how many pixels are set.
    @discardableResult
    public mutating func segment(threshold: Int) -> Int {
        guard let model = background else { return 0 }
        current.withUnsafeBufferPointer { c in difference.withUnsafeMutableBufferPointer { model.difference(c, into: $0) } }
        let (w, h) = (width, height)
        return difference.withUnsafeBufferPointer { d in
            mask.withUnsafeMutableBufferPointer { m in box.apply(d, width: w, height: h, threshold: threshold, mask: m) }
        }
    }

    /// Thresholds the 3×3 sums of another plane of this size (a three-frame difference) into
    /// `result`; returns how many pixels are set.
    @discardableResult
    public mutating func threshold(_ plane: [UInt8], at threshold: Int, into result: inout [UInt8]) -> Int {
        let (w, h) = (width, height)
        return plane.withUnsafeBufferPointer { d in
            result.withUnsafeMutableBufferPointer { m in box.apply(d, width: w, height: h, threshold: threshold, mask: m) }
        }
    }

    /// The connected regions of a mask of this size (``mask``, or one from ``threshold(_:at:into:)``).
    public mutating func components(of plane: [UInt8]) -> [Component] {
        let (w, h) = (width, height)
        return plane.withUnsafeBufferPointer { labeler.label($0, width: w, region: PixelRect(width: w, height: h)) }
    }

    /// Learns the frame into the background outside ``mask`` (a masked pixel that held still
    /// within `stillness` grey levels for ``settleFrames`` frames becomes background too), then
    /// moves on: ``current`` becomes ``previous``, ``previous`` becomes ``older``.
    public mutating func end(stillness: UInt8) {
        // Taken out while it is updated, so the update mutates its storage in place instead of
        // copying the model (a second owner would force a copy of every plane each frame).
        if var model = background.take() {
            current.withUnsafeBufferPointer { c in
                previous.withUnsafeBufferPointer { p in
                    mask.withUnsafeBufferPointer { m in model.update(with: c, previous: p, foreground: m, stillness: stillness) }
                }
            }
            background = model
        }
        swap(&older, &previous)
        swap(&current, &previous)
    }
}
