/// A summed-area table (integral image) of a luma plane: the sum of any rectangle in four look-ups,
/// whatever its size. Box filters of every radius, and centre–surround responses built from them,
/// cost the same.
///
/// `sums[(y + 1) × (width + 1) + (x + 1)]` is the sum of the pixels above and left of (x, y),
/// inclusive; row 0 and column 0 are 0. Sums are `UInt32`: exact for planes up to 16.8 million
/// pixels.
public struct SummedArea: Sendable {
    public private(set) var width = 0
    public private(set) var height = 0
    public private(set) var sums: [UInt32] = []

    public init() {}

    /// Builds the table of `plane` (`width × height` bytes), reusing its storage.
    public mutating func build(_ plane: UnsafeBufferPointer<UInt8>, width: Int, height: Int) {
        precondition(width >= 0 && height >= 0 && plane.count >= width * height, "the plane holds width × height bytes")
        precondition(width * height <= 16_843_009, "at most 2^32 / 255 pixels, so that sums are exact")
        self.width = width
        self.height = height
        let stride = width + 1
        let needed = stride * (height + 1)
        if sums.count < needed { sums = [UInt32](repeating: 0, count: needed) }
        guard width > 0, height > 0 else { return }
        sums.withUnsafeMutableBufferPointer { table in
            let t = table.baseAddress!
            t.update(repeating: 0, count: stride)
            let p = plane.baseAddress!
            for y in 0..<height {
                let above = t + y * stride, row = t + (y + 1) * stride, source = p + y * width
                row[0] = 0
                var running: UInt32 = 0
                for x in 0..<width {
                    running &+= UInt32(source[x])
                    row[x + 1] = above[x + 1] &+ running
                }
            }
        }
    }

    /// The sum of columns `x0..<x1`, rows `y0..<y1`, clipped to the plane.
    @inline(__always)
    public func sum(x0: Int, y0: Int, x1: Int, y1: Int) -> UInt32 {
        let (a, b, c, d) = (max(0, x0), max(0, y0), min(width, x1), min(height, y1))
        guard a < c, b < d else { return 0 }
        return sums.withUnsafeBufferPointer { Self.sum($0.baseAddress!, stride: width + 1, x0: a, y0: b, x1: c, y1: d) }
    }

    /// The sum of columns `x0..<x1`, rows `y0..<y1` of a table at `t` with rows `stride` apart;
    /// the rectangle must lie inside the plane (for hot loops that clip once, outside).
    @inlinable @inline(__always)
    public static func sum(_ t: UnsafePointer<UInt32>, stride: Int, x0: Int, y0: Int, x1: Int, y1: Int) -> UInt32 {
        t[y1 * stride + x1] &- t[y0 * stride + x1] &- t[y1 * stride + x0] &+ t[y0 * stride + x0]
    }
}
