import LumaAnalysis

/// An 8-bit grey image as the kernels read it: `width × height` bytes, row-major with the top row
/// first, no padding between rows. A view, not a copy: it borrows the bytes of a ``Frame`` (or of
/// a plane the caller owns) and is valid only as long as they are; hot loops take its `pixels`
/// pointer directly.
public struct GrayImage {
    /// `width × height` bytes, top row first.
    public let pixels: UnsafeBufferPointer<UInt8>
    public let width: Int
    public let height: Int

    /// A view of `pixels` as `width × height`; they must hold exactly that many bytes.
    @inlinable
    public init(pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height, "an image holds exactly width × height bytes")
        self.pixels = pixels
        self.width = width
        self.height = height
    }

    /// A view of `frame`'s pixels, for as long as the call that received the frame.
    @inlinable
    public init(_ frame: Frame) {
        self.init(pixels: frame.pixels, width: frame.width, height: frame.height)
    }

    /// The whole image as a region.
    public var bounds: PixelRect { PixelRect(width: width, height: height) }
}
