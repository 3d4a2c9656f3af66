/// A rectangle of pixels, top-left origin: columns `x0..<x1`, rows `y0..<y1`.
public struct PixelRect: Equatable, Sendable {
    public var x0: Int, y0: Int, x1: Int, y1: Int

    public init(x0: Int, y0: Int, x1: Int, y1: Int) {
        self.x0 = x0; self.y0 = y0; self.x1 = x1; self.y1 = y1
    }

    public init(width: Int, height: Int) { self.init(x0: 0, y0: 0, x1: width, y1: height) }

    /// The rectangle of columns `x0..<x1`, rows `y0..<y1` as a tuple gives them (a normalized
    /// region's `pixelBounds(width:height:)`).
    public init(_ bounds: (x0: Int, y0: Int, x1: Int, y1: Int)) { self.init(x0: bounds.x0, y0: bounds.y0, x1: bounds.x1, y1: bounds.y1) }

    public var width: Int { x1 - x0 }
    public var height: Int { y1 - y0 }
    public var area: Int { width * height }
}
