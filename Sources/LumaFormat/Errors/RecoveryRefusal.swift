/// Why `recover` left a recording untouched: the data behind
/// ``LumaFormatError/recoveryRefused(path:refusal:)``.
public enum RecoveryRefusal: Equatable, Sendable, CustomStringConvertible {
    /// Chunks were found but none decodes with the file's header, so the header is more likely wrong
    /// than every chunk damaged.
    case noChunkDecodes(chunks: Int, width: Int, height: Int, formatVersion: Int)
    /// The rebuilt file read back with fewer decodable frames than the recording holds.
    case rebuiltHoldsLess(rebuilt: Int, recording: Int)
    /// Both reference copies are lost and `needingReference` of the `total` frames in the intact
    /// chunks are coded against it.
    case referenceLost(needingReference: Int, total: Int, intactChunks: Int)
    /// A chunk decoded once and then failed.
    case chunkChanged(chunk: Int)

    public var description: String {
        switch self {
        case .noChunkDecodes(let chunks, let width, let height, let version):
            return "none of the \(chunks) chunks found decodes with the file's header (\(width)x\(height), format version \(version)), so a rebuilt file would hold no frame; nothing was written"
        case .rebuiltHoldsLess(let rebuilt, let recording):
            return "the rebuilt file reads back with \(rebuilt) decodable frames, the recording has \(recording)"
        case .referenceLost(let needing, let total, let chunks):
            return "both copies of the reference frame are damaged: \(needing) frames of the \(total) in \(chunks) intact chunks are coded against it and cannot be decoded without it, so no rewritten file could hold them readably (\(total - needing) frames decode)"
        case .chunkChanged(let chunk):
            return "chunk \(chunk) decoded once and then failed: is the file changing?"
        }
    }
}
