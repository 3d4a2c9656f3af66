import Foundation

/// A debug image that could not be written to the folder a replay was asked to write them to.
public struct DebugImageWriteError: Error, CustomStringConvertible {
    /// The image file's path.
    public var path: String
    /// What the file system said.
    public var underlying: any Error

    public init(path: String, underlying: any Error) {
        self.path = path
        self.underlying = underlying
    }

    public var description: String { "cannot write the debug image \(path): \(underlying.localizedDescription)" }
}
