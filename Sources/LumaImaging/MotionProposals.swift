/// Where something moved between two frames, found cheaply at reduced resolution: the first stage
/// of the second trajectory design ("motion proposes, appearance decides"). Its boxes are where a
/// ``DiscFinder`` then looks at full resolution.
///
/// Each frame is shrunk by block averaging (``factor`` each way, chosen so that the smallest object
/// still covers a block), differenced against the frame before, thresholded and labelled; each
/// changed region becomes a box in frame pixels, grown by a margin (the largest radius, so a ball
/// whose old and new places both changed lies wholly inside) and clipped to the region. Only the
/// shrunk planes are kept: a frame costs one pass over its pixels and a few over a plane
/// ``factor``² times smaller.
///
/// ```swift
/// var motion = MotionProposals(region: PixelRect(width: 1280, height: 720), factor: MotionProposals.factor(minimumRadius: 6))
/// let boxes = motion.propose(frame.pixels, frameWidth: 1280, threshold: 8, margin: 12)
/// ```
public struct MotionProposals {
    /// The part of the frame looked at, in frame pixels.
    public let region: PixelRect
    /// Frame pixels per shrunk pixel, each way.
    public let factor: Int
    /// Size of the shrunk planes.
    public let width: Int
    public let height: Int
    private var current: [UInt8]
    private var previous: [UInt8]
    private var mask: [UInt8]
    private var labeler = ConnectedComponents()
    private var frames = 0

    public init(region: PixelRect, factor: Int) {
        precondition(factor >= 1, "the factor is at least 1")
        self.region = region
        self.factor = factor
        (width, height) = Downsample.outputSize(of: region, factor: factor)
        let plane = [UInt8](repeating: 0, count: max(1, width * height))
        (current, previous, mask) = (plane, plane, plane)
    }

    /// The fraction of the blocks under a disc (centre and radius in frame pixels) that changed in
    /// the last ``propose(_:frameWidth:threshold:margin:)``: how much motion supports it. A ball in
    /// flight changes most of the blocks it covers; a stretch of still wall none.
    public func motionSupport(x: Double, y: Double, radius: Double) -> Double {
        guard width > 0, height > 0, radius > 0 else { return 0 }
        let f = Double(factor)
        let (bx0, bx1) = (Int(((x - radius) - Double(region.x0)) / f), Int(((x + radius) - Double(region.x0)) / f))
        let (by0, by1) = (Int(((y - radius) - Double(region.y0)) / f), Int(((y + radius) - Double(region.y0)) / f))
        var inside = 0, changed = 0
        for by in max(0, by0)...min(height - 1, max(0, by1)) {
            for bx in max(0, bx0)...min(width - 1, max(0, bx1)) {
                // The block's centre, in frame pixels, inside the disc.
                let (cx, cy) = (Double(region.x0) + (Double(bx) + 0.5) * f, Double(region.y0) + (Double(by) + 0.5) * f)
                guard (cx - x) * (cx - x) + (cy - y) * (cy - y) <= radius * radius else { continue }
                inside += 1
                if mask[by * width + bx] != 0 { changed += 1 }
            }
        }
        return inside == 0 ? 0 : Double(changed) / Double(inside)
    }

    /// The shrink factor for objects of at least `minimumRadius` pixels: blocks no wider than
    /// two thirds of that radius (so the object covers whole blocks), at most 8.
    public static func factor(minimumRadius: Double) -> Int {
        guard minimumRadius.isFinite, minimumRadius > 0 else { return 1 }
        return max(1, min(8, Int(minimumRadius / 1.5)))
    }

    /// Takes the next frame; returns the boxes, in frame pixels, around
    /// every place whose block mean changed by at least `threshold` grey levels since the frame
    /// before, each grown by `margin` pixels, in a fixed order (top row, then left). The first
    /// frame has nothing to compare with and gives none.
    public mutating func propose(_ frame: GrayImage, threshold: Int, margin: Int) -> [PixelRect] {
        swap(&current, &previous)
        let (region, factor) = (self.region, self.factor)
        current.withUnsafeMutableBufferPointer {
            Downsample.boxAverage(frame, region: region, factor: factor, into: $0)
        }
        frames += 1
        guard frames > 1, width > 0, height > 0 else { return [] }
        let count = width * height
        let limit = UInt8(clamping: max(1, threshold))
        current.withUnsafeBufferPointer { now in
            previous.withUnsafeBufferPointer { before in
                mask.withUnsafeMutableBufferPointer { out in
                    for i in 0..<count {
                        let (a, b) = (now[i], before[i])
                        out[i] = (a > b ? a - b : b - a) >= limit ? 1 : 0
                    }
                }
            }
        }
        let (w, h) = (width, height)
        let components = mask.withUnsafeBufferPointer { labeler.label($0, width: w, region: PixelRect(width: w, height: h)) }
        return components.map { c in
            PixelRect(x0: max(region.x0, region.x0 + c.minX * factor - margin), y0: max(region.y0, region.y0 + c.minY * factor - margin),
                      x1: min(region.x1, region.x0 + (c.maxX + 1) * factor + margin), y1: min(region.y1, region.y0 + (c.maxY + 1) * factor + margin))
        }
    }
}
