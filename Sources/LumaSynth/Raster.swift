// Pixel-level building blocks shared by the painters: a rectangle in continuous pixel
// coordinates, and an unchecked view of the frame being composed.
//
// Continuous pixel coordinates: x grows right from the left edge of column 0, y grows down from
// the top edge of row 0, so pixel (c, r) covers [c, c+1) × [r, r+1) and its centre is
// (c + 0.5, r + 0.5). Truth converts from these to Vision's normalized lower-left coordinates.

/// An axis-aligned rectangle of the scene in continuous pixel coordinates (top-left origin, y
/// down, edges anywhere between pixels). Not LumaImaging's `PixelRect`, which is a whole number of
/// pixel columns and rows.
public struct SceneRect: Sendable, Equatable {
    public var left: Double
    public var top: Double
    public var right: Double
    public var bottom: Double

    public init(left: Double, top: Double, right: Double, bottom: Double) {
        self.left = left
        self.top = top
        self.right = right
        self.bottom = bottom
    }

    /// A rectangle of the given size centred on (`centerX`, `centerY`).
    public init(centerX: Double, centerY: Double, width: Double, height: Double) {
        self.init(
            left: centerX - width / 2, top: centerY - height / 2, right: centerX + width / 2,
            bottom: centerY + height / 2)
    }

    public var width: Double { right - left }
    public var height: Double { bottom - top }
    public var area: Double { max(0, width) * max(0, height) }
    public var centerX: Double { (left + right) / 2 }
    public var centerY: Double { (top + bottom) / 2 }

    /// Area shared with `other` (0 when they do not overlap).
    public func overlapArea(_ other: SceneRect) -> Double {
        let w = min(right, other.right) - max(left, other.left)
        let h = min(bottom, other.bottom) - max(top, other.top)
        return w > 0 && h > 0 ? w * h : 0
    }

    /// Grown by `margin` on every side.
    func expanded(by margin: Double) -> SceneRect {
        SceneRect(left: left - margin, top: top - margin, right: right + margin, bottom: bottom + margin)
    }

    /// The integer pixel columns and rows this rectangle touches, clipped to a `width`×`height`
    /// frame; empty ranges when it is outside.
    func pixelSpan(width: Int, height: Int) -> (columns: Range<Int>, rows: Range<Int>) {
        func span(_ lo: Double, _ hi: Double, _ limit: Int) -> Range<Int> {
            guard hi > 0, lo < Double(limit), hi > lo else { return 0..<0 }
            let a = Int(lo.rounded(.down)).clamped(0, limit)
            let b = Int(hi.rounded(.up)).clamped(0, limit)
            return a..<max(a, b)
        }
        return (span(left, right, width), span(top, bottom, height))
    }
}

/// The frame being composed: a width×height gray8 plane, top row first, no row padding.
///
/// Painters receive one and write only inside `0..<width` × `0..<height`; every loop clips its
/// rectangle with `SceneRect.pixelSpan` first, so element access is unchecked in release builds.
struct Plane {
    let base: UnsafeMutablePointer<UInt8>
    let width: Int
    let height: Int

    @inline(__always) func row(_ y: Int) -> UnsafeMutablePointer<UInt8> {
        assert(y >= 0 && y < height)
        return base + y * width
    }

    @inline(__always) subscript(x: Int, y: Int) -> UInt8 {
        get {
            assert(x >= 0 && x < width && y >= 0 && y < height)
            return base[y * width + x]
        }
        nonmutating set {
            assert(x >= 0 && x < width && y >= 0 && y < height)
            base[y * width + x] = newValue
        }
    }
}

/// Rounds a grey value to the nearest level and clamps it to 0...255.
@inline(__always) func grey(_ value: Double) -> UInt8 {
    UInt8((value + 0.5).clamped(0, 255))
}

/// Rounds a grey value to the nearest level and clamps it to 0...255.
@inline(__always) func grey(_ value: Float) -> UInt8 {
    UInt8(min(max(value + 0.5, 0), 255))
}

/// Length of the overlap of [a0, a1) and [b0, b1).
@inline(__always) func overlapLength(_ a0: Double, _ a1: Double, _ b0: Double, _ b1: Double) -> Double {
    max(0, min(a1, b1) - max(a0, b0))
}
