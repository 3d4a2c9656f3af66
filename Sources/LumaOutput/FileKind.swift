/// What a file looks like from its first bytes, when it is not what was asked for: a video, an
/// image, a log, text. The words a user can act on (which command records it) are the command
/// line's to add.
public enum FileKind: Equatable, Sendable, CustomStringConvertible {
    /// The file holds no bytes.
    case empty
    /// An MP4 or QuickTime movie (`ftyp` box).
    case mp4Video
    /// An AVI video (`RIFF….AVI `).
    case aviVideo
    /// A Matroska or WebM video (EBML magic).
    case matroskaVideo
    /// A GIF image or animation.
    case gif
    /// A Y4M (YUV4MPEG2) video stream.
    case y4mStream
    /// A PNG image.
    case png
    /// A JPEG image.
    case jpeg
    /// A PGM (P5/P2) image.
    case pgm
    /// A Lumatrace event log.
    case eventLog
    /// Other JSON text.
    case json
    /// Other printable text, starting with `start` (cut short).
    case text(start: String)
    /// Bytes that say nothing: `firstBytes` are the first few (a recording whose first bytes are
    /// damaged looks like this).
    case unrecognized(firstBytes: [UInt8])

    /// A video or image: something a recording is made from.
    public var isMedia: Bool {
        switch self {
        case .mp4Video, .aviVideo, .matroskaVideo, .gif, .y4mStream, .png, .jpeg, .pgm: return true
        case .empty, .eventLog, .json, .text, .unrecognized: return false
        }
    }

    public var description: String {
        switch self {
        case .empty: return "the file is empty"
        case .mp4Video: return "it looks like an MP4/MOV video"
        case .aviVideo: return "it looks like an AVI video"
        case .matroskaVideo: return "it looks like a Matroska/WebM video"
        case .gif: return "it looks like a GIF"
        case .y4mStream: return "it looks like a Y4M video stream"
        case .png: return "it looks like a PNG image"
        case .jpeg: return "it looks like a JPEG image"
        case .pgm: return "it looks like a PGM image"
        case .eventLog: return "it looks like a Lumatrace event log"
        case .json: return "it looks like JSON text"
        case .text(let start): return "it looks like a text file starting '\(start)'"
        case .unrecognized(let bytes): return "its first bytes are " + bytes.map { String($0, radix: 16) }.joined(separator: " ")
        }
    }
}
