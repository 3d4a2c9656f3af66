/// What is wrong with one chunk of a recording: the data behind
/// ``LumaFormatError/damagedChunk(path:chunk:frames:damage:)``.
///
/// Each case carries the values that were found (and, where there is one, the value expected), so
/// a program can tell damage apart without reading the message; ``description`` makes the message.
public enum ChunkDamage: Equatable, Sendable, CustomStringConvertible {
    /// The chunk's record envelope cannot be read (cut, not a record, fails its CRC).
    case record(RecordProblem)
    /// The index points at a record of another kind.
    case notAChunk(found: String)
    /// The chunk's own header and the index disagree on which frames it holds.
    case framesDisagree(chunkHeader: Range<Int>, index: Range<Int>)
    /// A field of the chunk header is impossible.
    case field(FieldError)
    /// The payload the chunk declares is longer than the whole file.
    case payloadLongerThanFile(length: UInt64, fileSize: UInt64)
    /// The payload does not decompress to what the chunk header declares.
    case compression(ZstdFailure)
    /// The payload ends before this frame's bytes.
    case frameCutShort(frame: Int)
    /// This frame's mask asks for more residual bytes than the payload stores.
    case residualsOverrun(frame: Int)
    /// Residual bytes are left once every frame is rebuilt.
    case residualBytesLeftOver(Int)
    /// This frame's mask asks for more high nibbles than the payload stores.
    case highNibblesOverrun(frame: Int)
    /// High-nibble bytes are left once every frame is rebuilt.
    case highNibbleBytesLeftOver(Int)
    /// This frame names a block prediction mode that does not exist.
    case unknownBlockMode(frame: Int)
    /// This frame is coded against the file's reference frame, and both its copies are damaged.
    case referenceLost(frame: Int)

    public var description: String {
        switch self {
        case .record(let problem): return problem.description
        case .notAChunk(let found): return "expected a chunk record, found \(found)"
        case .framesDisagree(let header, let index): return "chunk header says frames \(header), the index says \(index)"
        case .field(let error): return error.problem.description
        case .payloadLongerThanFile: return "payload length is larger than the file"
        case .compression(let failure): return "payload: \(failure)"
        case .frameCutShort(let frame): return "payload: frame \(frame) is cut short"
        case .residualsOverrun(let frame): return "payload: the mask of frame \(frame) asks for more residual bytes than stored"
        case .residualBytesLeftOver(let count): return "payload: \(count) residual bytes are left over"
        case .highNibblesOverrun(let frame): return "payload: the mask of frame \(frame) asks for more high nibbles than stored"
        case .highNibbleBytesLeftOver(let count): return "payload: \(count) high-nibble bytes are left over"
        case .unknownBlockMode(let frame): return "payload: frame \(frame) has a block mode that is not a mode"
        case .referenceLost(let frame):
            return "both copies of the file's reference frame are damaged, and frame \(frame) is coded against it"
        }
    }
}
