import LumaBase

/// A file a sweep left on disk (a resumed sweep's stored scores, a shard's part) that cannot be
/// used, naming it and why.
public struct SweepFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Problem: Error, Sendable, Equatable {
        /// It cannot be opened or read.
        case unreadable(SystemCallError)
        /// It is not a file: what it is (`a folder`).
        case notAFile(found: String)
        /// It is larger than `limit` bytes.
        case tooLarge(limit: Int)
        /// The folder to hold it cannot be made.
        case cannotMakeFolder(SystemCallError)
        /// It is not the kind of file wanted (`kind`, in words), or is truncated, and what gave it away.
        case notA(kind: String, Shape)
        /// A format version this lumatrace does not read.
        case version(found: Int, readable: Int)
        /// Fields out of range or that do not fit together.
        case impossible(Impossibility)
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
        case .unreadable(let failure): return "\(path): \(failure)"
        case .notAFile(let found): return "\(path): is \(found), not a file"
        case .tooLarge(let limit): return "\(path): larger than \(limit) bytes"
        case .cannotMakeFolder(let failure): return "\(path): \(failure.named(.makeFolder))"
        case .notA(let kind, let shape): return "\(path): not \(kind) (\(shape))"
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

extension SweepFileError {
    /// What shows a file is not the sweep's file it should be (``Problem/notA(kind:_:)``).
    public enum Shape: Error, Sendable, Equatable, CustomStringConvertible {
        /// Its text is not a JSON object: empty, truncated or another file.
        case notAnObject
        /// It has no `"format"` naming `format`.
        case noFormat(String)
        /// A field is missing: `key`, in the object at `location` (a path like `.scores[3]`, empty for the top one).
        case missingField(key: String, location: String)
        /// A field has the wrong type, at `location`.
        case wrongType(location: String)
        /// It does not decode for another reason.
        case undecodable

        public var description: String {
            switch self {
            case .notAnObject: "not a JSON object: empty, truncated or another file"
            case .noFormat(let format): "no \"format\":\"\(format)\""
            case .missingField(let key, let location): "no \"\(key)\" in \(location.isEmpty ? "the top object" : location)"
            case .wrongType(let location): "a field of the wrong type at \(location.isEmpty ? "the top object" : location)"
            case .undecodable: "not JSON, or truncated"
            }
        }
    }

    /// Fields of a sweep's file that no sweep writes (``Problem/impossible(_:)``): what was found.
    public enum Impossibility: Error, Sendable, Equatable, CustomStringConvertible {
        /// `count` scores for a sweep of `settings` settings.
        case scores(count: Int, settings: Int)
        /// Settings other than those its grid gives.
        case settingsNotOfGrid
        /// Shard `shard` (counted from 0) of `shards`, over `maximum` or past the count.
        case shard(Int, of: Int, maximum: Int)
        /// `settings` settings (none, or more than a sweep runs) or passes of fewer than 1.
        case passes(settings: Int, passSize: Int)
        /// A corpus of `count` recordings, none or more than a sweep holds.
        case corpusSize(Int)
        /// A recording name that is not one plain `NAME.luma`.
        case notPlainName(String)
        /// A recording named twice in the corpus.
        case nameTwice(String)
        /// A recording of fewer than 0 frames.
        case framesOutside(name: String, frames: Int)
        /// A unit (a recording's pass) outside its corpus and grid.
        case unitOutside(recording: Int, pass: Int)
        /// A unit with `count` scores for a pass of `settings` settings.
        case unitScores(recording: String, pass: Int, count: Int, settings: Int)
        /// Times of a unit that are not one per setting, each seconds within `0...maximumSeconds`.
        case timings(recording: String, pass: Int, maximumSeconds: Double)
        /// A setting's score on a recording that no sweep gives.
        case implausibleScore(setting: String, recording: String, SweepScore.Implausibility)

        public var description: String {
            switch self {
            case .scores(let count, let settings): "\(count) scores for \(settings) settings (one per setting)"
            case .settingsNotOfGrid: "its settings are not the ones its grid gives"
            case .shard(let shard, let shards, let maximum): "shard \(shard) of \(shards) (at most \(maximum) shards, counted from 0)"
            case .passes(let settings, let passSize): "\(settings) settings in passes of \(passSize)"
            case .corpusSize(let count): "a corpus of \(count) recordings"
            case .notPlainName(let name): "the corpus names \(name), which is not one plain NAME.luma"
            case .nameTwice(let name): "the corpus names \(name) twice"
            case .framesOutside(let name, let frames): "the corpus gives \(name) \(frames) frames"
            case .unitOutside(let recording, let pass): "a unit (recording \(recording), pass \(pass)) outside its corpus and grid"
            case .unitScores(let recording, let pass, let count, let settings):
                "pass \(pass + 1) of \(recording) holds \(Plural.count(count, "score")) for its \(Plural.count(settings, "setting"))"
            case .timings(let recording, let pass, let maximumSeconds):
                "pass \(pass + 1) of \(recording) gives times that are none (one per setting, each a number of seconds within 0...\(Int(maximumSeconds)))"
            case .implausibleScore(let setting, let recording, let why): "the score of setting \(setting) on \(recording): \(why)"
            }
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
        case .otherRun(let part, let first, let field, let value, let firstValue) where field == "instances per replay":
            return "\(part) is of another sweep than \(first): its \(field) is \(value), not \(firstValue) "
                + "(the shards planned their passes with other memory budgets or instance limits: give every shard the same "
                + "LUMATRACE_MEMORY_BUDGET and LUMATRACE_MAX_ANALYZERS)"
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
