import LumaAnalysis
import LumaFormat
import LumaOutput

/// Why a replay could not run or finish.
public enum ReplayError: Error, Equatable, CustomStringConvertible, Sendable {
    case option(OptionError)
    case recording(LumaFormatError)
    /// A chunk is damaged and replaying around damage was not asked for.
    case damaged(LumaFormatError)
    case log(EventLogError)
    /// The log could not be written where asked (exists, is the input, a full disk, …).
    case output(OutputError)
    /// An analyzer threw: at start (`frame == nil`, no log written), on a frame, or in `finish`
    /// (the log up to the failure is kept, see ``IncompleteLog``).
    case analyzerFailed(analyzer: String, frame: Int?, cause: AnalyzerFailure.Cause, incompleteLog: IncompleteLog?)
    /// The instances would need more memory than the budget (``ReplayOptions/memoryBudget``): refused before anything runs.
    case memory(recording: String, MemoryNeed)

    /// Where the log of a replay that failed part-way went.
    public enum IncompleteLog: Sendable, Equatable {
        /// At the destination, which was free; its footer says the replay did not complete.
        case placed(String)
        /// Beside the destination, because a log was already there (it is untouched).
        case keptAside(String, existing: String)
    }

    public var description: String {
        switch self {
        case .option(let e): return e.description
        case .recording(let e): return e.description
        case .damaged(let e): return e.description
        case .log(let e): return e.description
        case .output(let e): return e.description
        case .memory(let recording, let need): return "\(recording): \(need)"
        case .analyzerFailed(let analyzer, let frame, let cause, let log):
            guard let frame else { return "analyzer \(analyzer) failed to start: \(cause)" }
            let failure = "analyzer \(analyzer) failed at frame \(frame): \(cause)"
            switch log {
            case .placed(let path): return failure + " (the log up to the failure is in \(path), marked incomplete)"
            case .keptAside(let path, let existing):
                return failure + " (\(existing) is untouched; this run's incomplete log is \(path))"
            case nil: return failure
            }
        }
    }
}
