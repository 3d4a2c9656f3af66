/// A rectangle in normalized image coordinates with Vision's lower-left origin: `x` and `y` are the
/// lower-left corner, all four values in [0, 1] (the whole frame is `0,0,1,1`).
///
/// Frames are stored the other way up: pixel rows run down from the top. Every conversion between
/// the two (the y flip) is written here, once, on this type and on ``NormalizedPoint``:
///
/// - *Pixels*: a frame `W × H`, top-left origin, y down, continuous, so column `c` spans
///   `c..<c + 1` and the frame spans `0..<W` × `0..<H`.
/// - *Normalized*: `x = px / W`, `y = 1 − py / H` (``normalizedY(pixelY:frameHeight:)``), and
///   back `py = (1 − y) · H` (``pixelY(normalizedY:frameHeight:)``). A rectangle's `y` is its lower
///   edge, which in pixels is its bottom: `1 − bottom / H`.
///
/// The conversions keep the order of operations they were first written with: the results reach
/// event logs with six decimals, and a different rounding of the last bit could change a golden.
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
    public var problem: Problem? {
        let values = [x, y, width, height]
        if values.contains(where: { !$0.isFinite }) { return .notFinite }
        if x < 0 || y < 0 || x >= 1 || y >= 1 { return .originOutside(x: x, y: y) }
        if width <= 0 || height <= 0 { return .empty }
        if x + width > 1.000001 || y + height > 1.000001 { return .pastFrame }
        return nil
    }

    /// Why four numbers are not a rectangle inside the frame.
    public enum Problem: Equatable, Sendable, CustomStringConvertible {
        /// A value is infinite or not a number.
        case notFinite
        /// The lower-left corner lies outside [0, 1) × [0, 1).
        case originOutside(x: Double, y: Double)
        /// The width or height is not above 0.
        case empty
        /// The far edge lies past 1.
        case pastFrame

        public var description: String {
            switch self {
            case .notFinite: "values must be finite numbers"
            case .originOutside(let x, let y): "origin (\(x), \(y)) must be inside [0, 1)"
            case .empty: "width and height must be greater than 0"
            case .pastFrame: "the rectangle reaches past the frame (x + width and y + height must be ≤ 1)"
            }
        }
    }

    /// Parses `"x,y,w,h"`.
    public init?(parsing text: String) {
        let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: " ")) }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3] else { return nil }
        self.init(x: x, y: y, width: w, height: h)
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

// MARK: - Pixels ↔ normalized

extension NormalizedRect {
    /// Normalized y (up from the bottom edge) of pixel y `py` (down from the top edge) in a frame
    /// `frameHeight` pixels high: `1 − py / frameHeight`. The one y flip from pixels.
    @inline(__always)
    public static func normalizedY(pixelY py: Double, frameHeight: Int) -> Double { 1 - py / Double(frameHeight) }

    /// Pixel y (down from the top edge) of normalized `y` (up from the bottom edge) in a frame
    /// `frameHeight` pixels high: `(1 − y) · frameHeight`. The one y flip to pixels.
    @inline(__always)
    public static func pixelY(normalizedY y: Double, frameHeight: Int) -> Double { (1 - y) * Double(frameHeight) }

    /// The rectangle at pixel `left`, `top` (its top-left corner), `width × height` pixels, in a
    /// `frameWidth × frameHeight` frame. Its `y` is its bottom, `top + height`, flipped.
    public init(pixelLeft left: Double, top: Double, width: Double, height: Double, frameWidth: Int, frameHeight: Int) {
        self.init(pixelLeft: left, bottom: top + height, width: width, height: height, frameWidth: frameWidth, frameHeight: frameHeight)
    }

    /// The rectangle between the pixel edges `left`…`right` and `top`…`bottom` in a
    /// `frameWidth × frameHeight` frame (for a box of whole pixels `x0..<x1`, `y0..<y1`, the edges
    /// are `x0`, `y0`, `x1`, `y1`).
    public init(pixelLeft left: Double, top: Double, right: Double, bottom: Double, frameWidth: Int, frameHeight: Int) {
        self.init(pixelLeft: left, bottom: bottom, width: right - left, height: bottom - top, frameWidth: frameWidth, frameHeight: frameHeight)
    }

    private init(pixelLeft left: Double, bottom: Double, width: Double, height: Double, frameWidth: Int, frameHeight: Int) {
        self.init(x: left / Double(frameWidth), y: Self.normalizedY(pixelY: bottom, frameHeight: frameHeight),
                  width: width / Double(frameWidth), height: height / Double(frameHeight))
    }

    /// The rectangle of whole pixels: columns `x..<x + width`, rows `y..<y + height` from the top,
    /// in a `frameWidth × frameHeight` frame, computed from integer numerators so that it is exact
    /// where a decimal can be: `(32, 18, 32, 36)` in 320×180 is exactly `0.1, 0.7, 0.1, 0.2`.
    public init(pixelColumn x: Int, row y: Int, width: Int, height: Int, frameWidth: Int, frameHeight: Int) {
        self.init(x: Double(x) / Double(frameWidth), y: Double(frameHeight - y - height) / Double(frameHeight),
                  width: Double(width) / Double(frameWidth), height: Double(height) / Double(frameHeight))
    }

    /// This rectangle in continuous pixels of a `frameWidth × frameHeight` frame: its top-left
    /// corner and its size. The top is `(1 − y − height) · frameHeight`, flipped from the top edge
    /// `y + height` (and subtracted in that order).
    public func pixelBox(frameWidth: Int, frameHeight: Int) -> (left: Double, top: Double, width: Double, height: Double) {
        let (w, h) = (Double(frameWidth), Double(frameHeight))
        return (x * w, (1 - y - self.height) * h, self.width * w, self.height * h)
    }

    /// The whole pixels (top-left origin) covering this rectangle in a `width × height` frame:
    /// columns `x0..<x1`, rows `y0..<y1`, never empty, always inside the frame.
    public func pixelBounds(width: Int, height: Int) -> (x0: Int, y0: Int, x1: Int, y1: Int) {
        let x0 = min(max(Int((x * Double(width)).rounded(.down)), 0), width - 1)
        let x1 = max(min(Int(((x + self.width) * Double(width)).rounded(.up)), width), x0 + 1)
        let top = Self.pixelY(normalizedY: y + self.height, frameHeight: height)
        let y0 = min(max(Int(top.rounded(.down)), 0), height - 1)
        let y1 = max(min(Int(Self.pixelY(normalizedY: y, frameHeight: height).rounded(.up)), height), y0 + 1)
        return (x0, y0, x1, y1)
    }
}

/// A point in normalized image coordinates with Vision's lower-left origin (see ``NormalizedRect``
/// for the two coordinate systems and the y flip between them).
public struct NormalizedPoint: Equatable, Sendable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) { (self.x, self.y) = (x, y) }

    /// The point at pixel (`px`, `py`), continuous, top-left origin, of a `frameWidth × frameHeight`
    /// frame: `(px / frameWidth, 1 − py / frameHeight)`.
    public init(pixelX px: Double, pixelY py: Double, frameWidth: Int, frameHeight: Int) {
        self.init(x: px / Double(frameWidth), y: NormalizedRect.normalizedY(pixelY: py, frameHeight: frameHeight))
    }

    /// A displacement or velocity given in pixels (y down), normalized: both components divided by
    /// the frame's size, and y's sign flipped (y up). No offset: `(dx / frameWidth, −dy / frameHeight)`.
    public init(pixelDisplacementX dx: Double, y dy: Double, frameWidth: Int, frameHeight: Int) {
        self.init(x: dx / Double(frameWidth), y: -dy / Double(frameHeight))
    }

    /// Where this point lies in a `frameWidth × frameHeight` frame, continuous pixels, top-left origin.
    public func pixel(frameWidth: Int, frameHeight: Int) -> (x: Double, y: Double) {
        (x * Double(frameWidth), NormalizedRect.pixelY(normalizedY: y, frameHeight: frameHeight))
    }

    /// `[x, y]`, as it appears in logs.
    public var array: [Double] { [x, y] }
}

extension StringProtocol {
    package func trimmingCharacters(in set: Character) -> String {
        var s = Substring(self)
        while s.first == set { s.removeFirst() }
        while s.last == set { s.removeLast() }
        return String(s)
    }
}
