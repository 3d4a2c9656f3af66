import LumaAnalysis
import LumaBase

/// Why a file given as a shard's part is not one: the data behind
/// ``RegressionError/part(path:problem:)``.
public enum PartProblem: Equatable, Sendable, CustomStringConvertible {
    /// A folder, device or pipe (`kind` says which, in words).
    case notAFile(kind: String)
    /// Larger than any part may be.
    case tooLarge(limit: Int)
    /// The file could not be opened or read (not there, not allowed): the call and its `errno`.
    case unreadable(SystemCallError)
    /// Not JSON, where the parser stopped.
    case notJSON(JSONParser.Failure)
    /// JSON without the part format's name.
    case notAPart(format: String)
    /// A part of a format version this lumatrace does not read (`found` as written).
    case version(found: String, readable: Int)
    /// Fields missing or out of range.
    case impossibleFields(maximumShards: Int, maximumGoldens: Int)
    /// The outcome at this 1-based position is not one of the corpus's recordings.
    case outcome(Int)
    /// The corpus path is not absolute.
    case corpusPathNotAbsolute
    /// The outcome at this 1-based position (golden `name`) gives its time as `found`, which is
    /// not a number of seconds within `0...maximum`.
    case seconds(outcome: Int, name: String, found: String, maximum: Double)

    public var description: String {
        switch self {
        case .notAFile(let kind): return "is \(kind), not a regress part"
        case .tooLarge(let limit): return "larger than \(limit) bytes"
        case .unreadable(let failure): return failure.description
        case .notJSON(let failure): return "not a regress part (not JSON: \(failure))"
        case .notAPart(let format): return "not a regress part (no \"format\":\"\(format)\")"
        case .version(let found, let readable): return "a regress part of format version \(found); this lumatrace reads version \(readable)"
        case .impossibleFields(let shards, let goldens):
            return "a regress part with missing or impossible fields (at most \(shards) shards and \(goldens) goldens)"
        case .outcome(let position): return "outcome \(position) is not a recording's outcome of this corpus"
        case .corpusPathNotAbsolute: return "the corpus path is not an absolute path"
        case .seconds(let position, let name, let found, let maximum):
            return "outcome \(position) (\(name)) took \(found) seconds; a time is a number of seconds within 0...\(Int(maximum))"
        }
    }
}
