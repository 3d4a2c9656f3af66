import LumaBase

/// A file a sweep left on disk (a resumed sweep's stored scores, a shard's part) that cannot be
/// used, naming it and why.
public struct SweepFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Problem: Error, Sendable, Equatable {
        /// It cannot be read (missing, a folder, too large): the reason in words.
        case unreadable(String)
        /// It is not the kind of file wanted (`kind`, in words), or is truncated: why, in words.
        case notA(kind: String, why: String)
        /// A format version this lumatrace does not read.
        case version(found: Int, readable: Int)
        /// Fields out of range or that do not fit together.
        case impossible(String)
        /// It is of another sweep: the first field that differs, as stored and as now.
        case otherSweep(field: String, stored: String, now: String)
        /// Its recording (frames) or truth is not the corpus's file of that name now.
        case otherRecording(name: String, what: String)
        /// It names a recording the corpus does not hold (with truth).
        case notInCorpus(name: String)
    }

    public var path: String
    public var problem: Problem

    public init(path: String, problem: Problem) {
        self.path = path
        self.problem = problem
    }

    public var description: String {
        switch problem {
        case .unreadable(let reason): return "\(path): \(reason)"
        case .notA(let kind, let why): return "\(path): not \(kind) (\(why))"
        case .version(let found, let readable): return "\(path): format version \(found); this lumatrace reads version \(readable)"
        case .impossible(let why): return "\(path): impossible fields: \(why)"
        case .otherSweep(let field, let stored, let now):
            return "\(path) is of another sweep: its \(field) is \(stored), this sweep's \(now)"
        case .otherRecording(let name, let what):
            return "\(path) holds scores of another \(what) of \(name) (the corpus's file changed since)"
        case .notInCorpus(let name):
            return "\(path) holds scores of \(name), which the corpus no longer holds with truth"
        }
    }
}

/// Why the parts of a sharded sweep do not join into one sweep: each names the part files concerned.
public enum SweepMergeError: Error, Sendable, Equatable, CustomStringConvertible {
    case noParts
    /// `part` differs from `first` in `field`.
    case otherRun(part: String, first: String, field: String, value: String, firstValue: String)
    case shardTwice(shard: Int, of: Int, first: String, second: String)
    case shardsMissing([Int], of: Int)
    /// A recording's pass given by two parts.
    case unitTwice(part: String, recording: String, pass: Int)
    /// A recording's pass no part gives (the parts are of a plan that did not cover it).
    case unitMissing(recording: String, pass: Int)

    public var description: String {
        switch self {
        case .noParts: return "no part files to merge"
        case .otherRun(let part, let first, let field, let value, let firstValue):
            return "\(part) is of another sweep than \(first): its \(field) is \(value), not \(firstValue)"
        case .shardTwice(let shard, let count, let first, let second):
            return "shard \(shard) of \(count) is given twice: \(first) and \(second)"
        case .shardsMissing(let missing, let count):
            let shown = missing.prefix(10).map(String.init).joined(separator: ", ") + (missing.count > 10 ? ", …" : "")
            return "\(Plural.count(missing.count, "shard")) of \(count) missing: \(shown) (every shard's part is needed)"
        case .unitTwice(let part, let recording, let pass):
            return "\(part) gives pass \(pass + 1) of \(recording) again (another part gave it already)"
        case .unitMissing(let recording, let pass):
            return "no part gives pass \(pass + 1) of \(recording)"
        }
    }
}
