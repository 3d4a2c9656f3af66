/// Why a replay could not run or finish.
public enum ReplayError: Error, CustomStringConvertible, Sendable {
    case option(OptionError)
    case recording(LumaFormatError)
    /// A chunk is damaged and `--skip-damaged` was not given.
    case damaged(LumaFormatError)
    case log(EventLogError)
    /// An analyzer threw: at start (`frame == nil`), on a frame, or in `finish`.
    case analyzerFailed(analyzer: String, frame: Int?, message: String)

    public var description: String {
        switch self {
        case .option(let e): return e.description
        case .recording(let e): return e.description
        case .damaged(let e): return "\(e.description); pass --skip-damaged to replay around it (the gap is logged)"
        case .log(let e): return e.description
        case .analyzerFailed(let analyzer, let frame, let message):
            if let frame { return "analyzer \(analyzer) failed at frame \(frame): \(message)" }
            return "analyzer \(analyzer) failed to start: \(message)"
        }
    }
}

/// Versions written into every log header.
public enum LumatraceVersion {
    /// Version of the engine and its log format conventions.
    public static let engine = "0.1.0"
}
