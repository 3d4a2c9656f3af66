/// How frames came to be missing from a recording: the data behind
/// ``LumaFormatError/missingFrames(path:frames:cause:)``, in the words a replay logs for its gap.
public enum MissingFramesCause: Equatable, Sendable, CustomStringConvertible {
    /// The frame's chunk is not in the recording (it was damaged).
    case inDamagedChunk
    /// A hole between chunks: a damaged chunk of an unclosed file, or one `recover` removed.
    case betweenChunks
    /// The recording ends before the frames asked for.
    case pastTheEnd
    /// A recording being written: the frame was handed to the writer, but no chunk holding it
    /// reads back.
    case writtenButUnreadable

    public var description: String {
        switch self {
        case .inDamagedChunk: return "it lay in a damaged chunk"
        case .betweenChunks: return "frames missing from the recording (damaged or removed chunk)"
        case .pastTheEnd: return "frames missing at the end of the recording"
        case .writtenButUnreadable: return "it was written, but its chunk cannot be read back"
        }
    }
}
