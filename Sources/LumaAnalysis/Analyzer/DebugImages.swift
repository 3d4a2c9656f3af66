/// Where an analyzer may write debug images, when the user asked for them (`replay --dump DIR`).
/// Not part of the configuration: writing them never changes the events.
///
/// ```swift
/// if let debugImages = context.debugImages {
///     try mask.withUnsafeBufferPointer { try debugImages.write("mask-\(frame.index)", width: w, height: h, pixels: $0) }
/// }
/// ```
public struct DebugImages: Sendable {
    /// The folder the images go to.
    public let folder: String
    private let writeImage: @Sendable (String, Int, Int, UnsafeBufferPointer<UInt8>) throws -> Void

    /// Images written by `write` (the engine's: 8-bit gray PGM files in `folder`).
    public init(folder: String, write: @escaping @Sendable (_ name: String, _ width: Int, _ height: Int,
                                                           _ pixels: UnsafeBufferPointer<UInt8>) throws -> Void) {
        self.folder = folder
        writeImage = write
    }

    /// Writes `width × height` gray pixels (top row first) as the image `name` (no extension: the
    /// engine adds it); a file of that name is replaced. Throws an error naming the file when it
    /// cannot be written.
    public func write(_ name: String, width: Int, height: Int, pixels: UnsafeBufferPointer<UInt8>) throws {
        try writeImage(name, width, height, pixels)
    }
}
