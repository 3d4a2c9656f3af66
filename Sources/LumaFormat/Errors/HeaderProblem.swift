/// What is wrong with a recording's header, or with the settings a writer was given for one: the
/// data behind ``LumaFormatError/invalidHeader(path:problem:)``.
public enum HeaderProblem: Equatable, Sendable, CustomStringConvertible {
    /// Width or height outside `1...limit`.
    case frameSize(width: Int, height: Int, limit: Int)
    /// A timescale outside 1...10^12 ticks per second.
    case timescale(Int64)
    /// A nominal frame rate that is not a fraction.
    case frameRate(numerator: Int, denominator: Int)
    /// More metadata entries than a header may hold.
    case metadataEntries(Int, limit: Int)
    /// A metadata key or value longer than `limit` bytes (the key's first 40 characters).
    case metadataEntryTooLong(key: String, limit: Int)
    /// An impossible field.
    case field(FieldError)
    /// The header record declares a payload (headers have none).
    case declaresPayload
    /// The header record's envelope is cut or damaged.
    case record(RecordProblem)
    /// A writer's zstd level outside `allowed`.
    case compressionLevel(Int, allowed: ClosedRange<Int>)
    /// A writer's chunk durations (seconds) outside (0, 3600] or reversed.
    case chunkDuration(Double, maximum: Double)

    public var description: String {
        switch self {
        case .frameSize(let width, let height, let limit): return "frame size \(width)x\(height) is outside 1...\(limit) in each dimension"
        case .timescale(let timescale): return "timescale \(timescale) is outside 1...10^12 ticks per second"
        case .frameRate(let numerator, let denominator): return "nominal frame rate \(numerator)/\(denominator) is not a valid fraction"
        case .metadataEntries(let count, let limit): return "\(count) metadata entries is over the limit of \(limit)"
        case .metadataEntryTooLong(let key, let limit): return "metadata entry '\(key)' is over \(limit) bytes"
        case .field(let error): return "\(error.problem) at field offset \(error.offset)"
        case .declaresPayload: return "the header record declares a payload"
        case .record(let problem): return problem.description
        case .compressionLevel(let level, let allowed): return "compression level \(level) is outside \(allowed.lowerBound)...\(allowed.upperBound)"
        case .chunkDuration(let duration, let maximum): return "chunk duration \(duration)...\(maximum) s is outside (0, 3600] or reversed"
        }
    }
}
