import LumaBase
import LumaFormat
import LumaOutput

/// Why a sharded update's staging folder, or a log in it, is not usable; or why a golden could not
/// be replaced: the data behind ``RegressionError/staging(path:problem:)`` and
/// ``RegressionError/cannotReplace(path:problem:)``.
public enum StagingProblem: Equatable, Sendable, CustomStringConvertible {
    /// The file cannot be read.
    case unreadable
    /// The new log cannot be read.
    case newLogUnreadable
    /// The folder cannot be made (the system's words).
    case cannotMakeFolder(SystemCallError)
    /// The staging folder is the corpus folder itself.
    case isTheCorpus
    /// Renaming over the golden failed.
    case rename(SystemCallError)
    /// Writing the copy over the golden failed.
    case output(OutputError)

    public var description: String {
        switch self {
        case .unreadable: return "cannot be read"
        case .newLogUnreadable: return "the new log cannot be read"
        case .cannotMakeFolder(let failure): return "cannot be made a folder (\(failure))"
        case .isTheCorpus: return "is the corpus folder itself; new logs are staged elsewhere and moved into the corpus by the merge"
        case .rename(let failure): return failure.errnoText
        case .output(let error): return error.description
        }
    }
}
