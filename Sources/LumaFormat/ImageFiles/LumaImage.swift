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

/// Why an image file could not be decoded: the file, and what is wrong with it.
///
/// `reason` is one sentence meant for the person running the command: it says what is wrong and,
/// where there is one, how to fix it, e.g. `"PNG is 20000x100, over the 16384 limit; ..."`.
/// `description` is `"<source>: <reason>"`, ready to print as one line.
public struct ImageDecodingError: Error, Equatable, CustomStringConvertible {
    /// The file path, or whatever name the caller gave the bytes.
    public var source: String
    public var reason: String

    public init(source: String, reason: String) {
        self.source = source
        self.reason = reason
    }

    public var description: String { "\(source): \(reason)" }
}
