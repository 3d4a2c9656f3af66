/// A rectangle in normalized image coordinates with Vision's lower-left origin: `x` and `y` are the
/// lower-left corner, all four values in [0, 1] (the whole frame is `0,0,1,1`).
public struct NormalizedRect: Equatable, Sendable, Codable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public static let full = NormalizedRect(x: 0, y: 0, width: 1, height: 1)

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Why this is not a rectangle inside the frame, or `nil` when it is.
    public var problem: String? {
        let values = [x, y, width, height]
        if values.contains(where: { !$0.isFinite }) { return "values must be finite numbers" }
        if x < 0 || y < 0 || x >= 1 || y >= 1 { return "origin (\(x), \(y)) must be inside [0, 1)" }
        if width <= 0 || height <= 0 { return "width and height must be greater than 0" }
        if x + width > 1.000001 || y + height > 1.000001 { return "the rectangle reaches past the frame (x + width and y + height must be ≤ 1)" }
        return nil
    }

    /// Parses `"x,y,w,h"`.
    public init?(parsing text: String) {
        let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: " ")) }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3] else { return nil }
        self.init(x: x, y: y, width: w, height: h)
    }

    /// The pixel rectangle (top-left origin) covering this rectangle in a `width × height` frame:
    /// columns `x0..<x1`, rows `y0..<y1`, never empty, always inside the frame.
    public func pixelBounds(width: Int, height: Int) -> (x0: Int, y0: Int, x1: Int, y1: Int) {
        let x0 = min(max(Int((x * Double(width)).rounded(.down)), 0), width - 1)
        let x1 = max(min(Int(((x + self.width) * Double(width)).rounded(.up)), width), x0 + 1)
        let top = 1 - (y + self.height)
        let y0 = min(max(Int((top * Double(height)).rounded(.down)), 0), height - 1)
        let y1 = max(min(Int(((1 - y) * Double(height)).rounded(.up)), height), y0 + 1)
        return (x0, y0, x1, y1)
    }

    /// `[x, y, w, h]`, as it appears in logs.
    public var array: [Double] { [x, y, width, height] }

    public init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        self.init(x: try c.decode(Double.self), y: try c.decode(Double.self), width: try c.decode(Double.self), height: try c.decode(Double.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.unkeyedContainer()
        try c.encode(x); try c.encode(y); try c.encode(width); try c.encode(height)
    }
}

extension StringProtocol {
    package func trimmingCharacters(in set: Character) -> String {
        var s = Substring(self)
        while s.first == set { s.removeFirst() }
        while s.last == set { s.removeLast() }
        return String(s)
    }
}
