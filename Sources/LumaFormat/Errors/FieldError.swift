/// An impossible field inside a record (the file header or a chunk header): where it is, how many
/// bytes were wanted there, and what is wrong with it.
public struct FieldError: Error, Equatable, Sendable {
    /// Byte offset of the field inside the record's fields.
    public var offset: Int
    /// Bytes the field occupies (or asked for).
    public var wanted: Int
    public var problem: FieldProblem

    public init(offset: Int, wanted: Int, _ problem: FieldProblem) {
        self.offset = offset
        self.wanted = wanted
        self.problem = problem
    }
}

/// What is wrong with a field; each case holds the value read.
public enum FieldProblem: Equatable, Sendable, CustomStringConvertible {
    /// The field runs past the end of the record.
    case pastEnd
    /// A string longer than its limit.
    case stringTooLong(bytes: Int, limit: Int)
    /// A string that is not UTF-8.
    case notUTF8
    /// A pixel format number that does not exist.
    case pixelFormat(UInt8)
    /// More metadata entries than a header may hold.
    case metadataEntries(Int, limit: Int)
    /// A chunk's first frame number no recording can reach.
    case impossibleFirstFrame(UInt64)
    /// A chunk's frame count outside `1...maximum`.
    case frameCountOutOfRange(Int, maximum: Int)
    /// A chunk whose frames would exceed the chunk size limit.
    case chunkTooLarge(frames: Int, frameSize: Int, limitMiB: Int)
    /// The chunk header's length does not match its frame count.
    case fieldsLength(bytes: Int, frames: Int, needed: Int)
    /// A timestamp beyond ±2^61 ticks.
    case timestampOutOfRange(frame: Int, ticks: Int64)
    /// A timestamp not after the one before it.
    case timestampNotIncreasing(frame: Int, previous: Int64, ticks: Int64)
    /// A frame coding number that does not exist.
    case unknownCoding(frame: Int, code: UInt8)
    /// A chunk whose first frame is a delta from a frame the chunk does not hold.
    case firstFrameIsDelta
    /// A frame marked stored whole in a format version without that coding.
    case storedWholeNotInVersion(frame: Int, version: Int)
    /// A payload length impossible for the chunk's frames.
    case impossibleRawLength(bytes: UInt64, frames: Int, frameSize: Int)

    public var description: String {
        switch self {
        case .pastEnd: return "field runs past the end of the record"
        case .stringTooLong(let bytes, let limit): return "string of \(bytes) bytes is over the \(limit)-byte limit"
        case .notUTF8: return "string is not valid UTF-8"
        case .pixelFormat(let format): return "pixel format \(format) is unknown (only gray8 = 0 exists)"
        case .metadataEntries(let count, let limit): return "\(count) metadata entries is over the limit of \(limit)"
        case .impossibleFirstFrame(let first): return "first frame \(first) is impossible"
        case .frameCountOutOfRange(let count, let maximum): return "frame count \(count) is outside 1...\(maximum)"
        case .chunkTooLarge(let frames, let frameSize, let limit): return "\(frames) frames of \(frameSize) bytes exceed the \(limit) MiB chunk limit"
        case .fieldsLength(let bytes, let frames, let needed): return "chunk fields are \(bytes) bytes, \(frames) frames need \(needed)"
        case .timestampOutOfRange(let frame, let ticks): return "timestamp of frame \(frame) is \(ticks) ticks, beyond ±2^61"
        case .timestampNotIncreasing(let frame, let previous, let ticks): return "timestamp of frame \(frame) does not increase (\(previous) then \(ticks))"
        case .unknownCoding(let frame, let code): return "frame \(frame) has unknown coding \(code)"
        case .firstFrameIsDelta: return "first frame of a chunk cannot be a delta from the previous frame"
        case .storedWholeNotInVersion(let frame, let version): return "frame \(frame) is marked stored whole, which version \(version) does not have"
        case .impossibleRawLength(let bytes, let frames, let frameSize): return "declares \(bytes) payload bytes, impossible for \(frames) frames of \(frameSize) bytes"
        }
    }
}
