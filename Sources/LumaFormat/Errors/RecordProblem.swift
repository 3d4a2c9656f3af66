/// Why the record at an offset of a recording cannot be used: its envelope (magic, lengths, CRC)
/// is cut, impossible or damaged.
public indirect enum RecordProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file ends inside the record; `needed` more bytes would complete it.
    case endOfFile(needed: UInt64)
    /// No record magic at the offset.
    case noRecordStarts
    /// The record declares more bytes of fields than any record may hold.
    case fieldsTooLong(declared: UInt64, limit: Int)
    /// A chunk record too short to hold a chunk header.
    case chunkFieldsTooShort
    /// A chunk record whose fields length does not fit its frame count.
    case chunkFieldsMismatch(length: UInt64, frameCount: Int)
    /// The record's CRC does not match its bytes.
    case checksumMismatch(stored: UInt32, computed: UInt32)
    /// The bytes could not be read at all.
    case unreadable(LumaFormatError)

    public var description: String {
        switch self {
        case .endOfFile(let needed): return "the file ends inside this record (it needs \(needed) more bytes)"
        case .noRecordStarts: return "no record starts here"
        case .fieldsTooLong(let declared, let limit): return "record declares \(declared) bytes of fields (limit \(limit))"
        case .chunkFieldsTooShort: return "chunk fields are too short"
        case .chunkFieldsMismatch(let length, let count): return "chunk fields length \(length) does not fit its frame count \(count)"
        case .checksumMismatch: return "the record header fails its CRC check"
        case .unreadable(let error): return error.description
        }
    }
}
