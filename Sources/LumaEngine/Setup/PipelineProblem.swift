import LumaAnalysis
import LumaBase

/// Why a pipeline file (or the log header it is read from) cannot be used: the data behind
/// ``PipelineFileError``.
public enum PipelineProblem: Equatable, Sendable, CustomStringConvertible {
    /// The file could not be opened or read.
    case unreadable(SystemCallError)
    /// A directory, device or socket (`kind` says which).
    case notAFile(kind: String)
    /// Larger than any pipeline may be.
    case tooLarge(limitMiB: Int)
    /// Not JSON, where the parser stopped.
    case notJSON(JSONParser.Failure)
    /// JSON without an `analyzers` array.
    case noAnalyzers

    public var description: String {
        switch self {
        case .unreadable(let failure): return "cannot read the pipeline file: \(failure.errnoText)"
        case .notAFile(let kind): return "is \(kind), not a pipeline file"
        case .tooLarge(let limit): return "is larger than \(limit) MiB, and a pipeline (or the log header it is read from) is at most that"
        case .notJSON(let failure): return "not valid JSON: \(failure)"
        case .noAnalyzers: return "a pipeline needs an \"analyzers\" array, e.g. {\"analyzers\":[{\"name\":\"differencing\"}]}"
        }
    }
}
