import LumaBase

/// Why an image file, or a folder of them, could not be decoded: the file (or folder), and what is
/// wrong with it (``ImageProblem``). `description` is `"<source>: <reason>"`, ready to print as
/// one line.
public struct ImageDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file path, or whatever name the caller gave the bytes.
    public var source: String
    public var problem: ImageProblem

    public init(source: String, _ problem: ImageProblem) {
        self.source = source
        self.problem = problem
    }

    /// What is wrong, in words: one sentence meant for the person running the command.
    public var reason: String { problem.description }

    public var description: String { "\(source): \(reason)" }
}

/// What is wrong with an image file or a folder of them (``ImageDecodingError``).
public enum ImageProblem: Equatable, Sendable, CustomStringConvertible {
    // The file.
    /// The file cannot be opened or read.
    case unreadable(SystemCallError)
    /// A folder where an image file was expected.
    case folder
    /// A device, a pipe or a socket.
    case notARegularFile
    /// A file of `bytes` bytes, over the `limit` for one image.
    case tooLarge(bytes: UInt64, limit: Int)
    /// A file that grew past the `limit` for one image while it was read.
    case grewPastLimit(limit: Int)
    /// The bytes are not an image this reader decodes, or not a whole one (cut short, corrupt,
    /// unsupported, too large).
    case undecodable(ImageDataProblem)

    // A folder of images.
    /// The folder cannot be listed.
    case folderUnreadable(SystemCallError)
    /// The folder holds no image file.
    case noImageFiles
    /// Frame `frame` was asked of a folder of `count` images.
    case noSuchFrame(frame: Int, count: Int)
    /// An image of another size than the folder's first file, `firstFile`.
    case sizeDiffers(width: Int, height: Int, sequenceWidth: Int, sequenceHeight: Int, firstFile: String)

    public var description: String {
        switch self {
        case .unreadable(let failure): return failure.description
        case .folder: return "is a folder, not an image file"
        case .notARegularFile: return "is not a regular file"
        case .tooLarge(let bytes, let limit): return "file is \(bytes >> 20) MiB, over the \(limit >> 20) MiB limit for one image"
        case .grewPastLimit(let limit): return "file grew past the \(limit >> 20) MiB limit for one image while it was read"
        case .undecodable(let problem): return problem.description
        case .folderUnreadable(let failure): return "cannot open the folder: \(failure.errnoText)"
        case .noImageFiles: return "no image files in the folder (looked for .pgm, .png, .jpg and .jpeg names, hidden files excluded)"
        case .noSuchFrame(let frame, let count): return "no frame \(frame): the folder has \(count) image files"
        case .sizeDiffers(let width, let height, let sequenceWidth, let sequenceHeight, let firstFile):
            return "image is \(width)x\(height), but the sequence is \(sequenceWidth)x\(sequenceHeight) (the size of its first file, "
                + "\(firstFile)); all images in a folder must have the same size"
        }
    }
}
