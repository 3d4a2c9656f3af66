/// What is wrong with a run of a recording's bytes (``RecordingDamage``): typed, so a test or a
/// tool can tell a damaged header from a crash's torn end, and the message is made in one place.
/// The words say what is wrong; which command repairs it is the caller's to add.
public enum DamageCause: Equatable, Sendable, CustomStringConvertible {
    /// The file header at byte 0 and its copy at byte `copyOffset` disagree; `copyUsed` says which
    /// one decodes the chunks and was believed.
    case headerCopiesDisagree(copyOffset: UInt64, copyUsed: Bool)
    /// The file header at byte 0 is damaged; it was read from its copy at `copyOffset`.
    case headerReadFromCopy(copyOffset: UInt64)
    /// Frames the index skips: `recover` removed their chunks as damaged.
    case framesRemovedFromIndex
    /// Both copies of the reference frame fail their checks, so no frame can be decoded.
    case referenceFramesLost
    /// A chunk record whose header declares frames or timestamps that cannot follow the chunks
    /// before it.
    case impossibleChunkHeader
    /// A record declares more bytes than the file holds, and an intact record follows it.
    case recordOverrunsFile
    /// The last chunk was being written when the recording stopped: the normal end of a recording
    /// that was never closed. The chunks before it are intact.
    case interruptedWrite
    /// The record's envelope (magic, lengths, CRC) is damaged.
    case record(RecordProblem)
    /// The chunk's record is intact but its payload cannot be decoded (`verify()` found it).
    case undecodable(LumaFormatError)

    public var description: String {
        switch self {
        case .headerCopiesDisagree(let copy, let copyUsed):
            let believed = copyUsed ? "its copy decodes the chunks and was used" : "the one at byte 0 decodes the chunks"
            return "the file header at byte 0 and its copy at byte \(copy) disagree; \(believed)"
        case .headerReadFromCopy(let copy):
            return "the file header is damaged; it was read from its copy at byte \(copy)"
        case .framesRemovedFromIndex: return "frames missing from the index: their chunks were removed as damaged"
        case .referenceFramesLost: return "both copies of the reference frame are damaged"
        case .impossibleChunkHeader: return "a chunk header declares impossible frames or timestamps"
        case .recordOverrunsFile: return "a record declares more bytes than the file holds"
        case .interruptedWrite:
            return "incomplete chunk at the end of the file (recording was interrupted); earlier chunks are intact"
        case .record(let problem): return problem.description
        case .undecodable(let error): return error.description
        }
    }
}
