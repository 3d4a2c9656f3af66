/// One decoded image as 8-bit luma: what a frame of a recording is made of.
public struct LumaImage: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// `width * height` samples, row-major, top row first; 0 is black, 255 is white.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}

/// The image file formats a folder recording can be made from.
public enum ImageFileFormat: String, Sendable, CaseIterable {
    case pgm, png, jpeg
}

