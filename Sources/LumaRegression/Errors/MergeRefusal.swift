/// Why `regress merge` refused the parts it was given, or stopped moving staged logs: the data
/// behind ``RegressionError/mergeRefused(_:)``.
public indirect enum MergeRefusal: Equatable, Sendable, CustomStringConvertible {
    /// No part files.
    case noParts
    /// The part was written by another lumatrace than this one.
    case otherEngine(part: String, engine: String, this: String)
    /// `part` belongs to another run than `first`: what differs, its value and the first's.
    case otherRun(part: String, first: String, differing: String, value: String, firstValue: String)
    /// A shard's part is given twice.
    case shardTwice(shard: Int, of: Int, first: String, second: String)
    /// Shards whose parts are not among those given.
    case shardsMissing([Int], of: Int)
    /// A golden (1-based) appears in two parts.
    case goldenTwice(part: String, golden: Int)
    /// A golden (1-based) is in no part.
    case goldenInNoPart(golden: Int, of: Int)
    /// Moving a staged log failed after `moved` of `of` were moved.
    case moveFailed(RegressionError, moved: Int, of: Int)
    /// The corpus the parts were made for cannot be listed (the lister's words).
    case corpusUnlistable(corpus: String, why: String)
    /// A part's outcome for a golden (1-based) names a file that is not that golden or its staged log.
    case foreignEntry(part: String, golden: Int, names: String, corpus: String)
    /// The corpus changed since the shards listed it.
    case corpusChanged(corpus: String)
    /// A golden a shard replayed is gone.
    case goldenGone(String)
    /// A golden changed after its shard replayed it; its new log stays staged.
    case goldenChanged(String, staged: String, stagedMissing: Bool)
    /// A staged log is missing.
    case stagedMissing(String)
    /// A staged log is not the one its shard wrote.
    case stagedChanged(String)

    public var description: String {
        switch self {
        case .noParts:
            return "no part files given"
        case .otherEngine(let part, let engine, let this):
            return "\(part) was written by lumatrace \(engine); this is lumatrace \(this): merge with the lumatrace the shards ran"
        case .otherRun(let part, let first, let differing, let value, let firstValue):
            return "\(part) is a part of another run than \(first): \(differing) \(value), not \(firstValue)"
        case .shardTwice(let shard, let of, let first, let second):
            return "shard \(shard) of \(of) is given twice: \(first) and \(second)"
        case .shardsMissing(let missing, let of):
            return "shard\(missing.count == 1 ? "" : "s") \(missing.map(String.init).joined(separator: ", ")) of \(of) "
                + "wrote no part among those given (did \(missing.count == 1 ? "its job" : "their jobs") fail? see the job's log)"
        case .goldenTwice(let part, let golden):
            return "\(part): golden \(golden) is in two parts"
        case .goldenInNoPart(let golden, let of):
            return "golden \(golden) of \(of) is in no part: the parts do not cover the corpus"
        case .moveFailed(let error, let moved, let of):
            return "\(error) (\(moved) of \(of) staged logs were moved before it; the rest stay staged, and merging again moves them)"
        case .corpusUnlistable(let corpus, let why):
            return "no golden log was replaced: the corpus \(corpus) the parts were made for cannot be listed here (\(why))"
        case .foreignEntry(let part, let golden, let names, let corpus):
            return "no golden log was replaced: \(part): its outcome of golden \(golden) names \(names); a part names only goldens of its corpus \(corpus)"
        case .corpusChanged(let corpus):
            return "no golden log was replaced: the corpus \(corpus) is not the one the shards listed (a golden was added, removed or edited since)"
        case .goldenGone(let golden):
            return "no golden log was replaced: \(golden): the golden log is gone"
        case .goldenChanged(let golden, let staged, let missing):
            return "no golden log was replaced: \(golden) changed after its shard replayed it; its new log stays staged in \(missing ? "(missing) " : "")\(staged)"
        case .stagedMissing(let staged):
            return "no golden log was replaced: \(staged): the staged log is missing"
        case .stagedChanged(let staged):
            return "no golden log was replaced: \(staged): the staged log is not the one its shard wrote (its SHA-256 differs)"
        }
    }
}
