import Foundation
import LumaAnalysis
import LumaBase
import LumaEngine

/// What one shard of a regression run wrote (`regress DIR --shard K/N -o part-K.json`): the
/// outcomes of the goldens its plan gave it, and everything `regress merge` checks before joining
/// the parts: the corpus listing's digest, the shard count, the options of the run and the engine
/// version.
public struct RegressionPart: Sendable, Equatable {
    public static let format = "lumatrace.regress-part"
    public static let formatVersion = 1
    /// Part files larger than this are refused before they are read (a part's JSON costs up to
    /// about 30 times its size to parse; a real part of a thousand goldens is a few megabytes).
    public static let maximumFileBytes = 64 << 20
    /// The most goldens a part may say its corpus has (the merge holds one slot per golden).
    public static let maximumGoldens = 1_000_000
    /// The most shards a run may have, as `--shard` allows.
    public static let maximumShards = 100_000

    /// 0-based shard index, and the shard count.
    public var shard: Int
    public var shards: Int
    /// The corpus folder as given on the command line (the JSON report names it).
    public var folder: String
    /// The corpus folder as an absolute path where the shard ran: where a merge lists the corpus
    /// again before it moves any staged log into it.
    public var corpusPath: String
    /// Goldens in the corpus, and the digest of its listing (``CorpusListing``).
    public var goldenCount: Int
    public var corpusDigest: String
    /// The options that change results (settings, tolerances, update): parts of one run have the same.
    public var settings: RegressionSettings
    public var engineVersion: String
    /// The golden indices this shard replayed, with their outcomes.
    public var outcomes: [(index: Int, outcome: RegressionOutcome)]

    public init(shard: Int, shards: Int, folder: String, listing: CorpusListing, settings: RegressionSettings,
                outcomes: [(index: Int, outcome: RegressionOutcome)]) {
        (self.shard, self.shards, self.folder, self.settings, self.outcomes) = (shard, shards, folder, settings, outcomes)
        corpusPath = URL(fileURLWithPath: folder).standardizedFileURL.path
        goldenCount = listing.goldens.count
        corpusDigest = listing.digest
        engineVersion = LumatraceVersion.engine
    }

    public static func == (a: RegressionPart, b: RegressionPart) -> Bool {
        a.json == b.json
    }

    /// The part file's contents: one JSON object.
    public var json: JSONValue {
        .object([
            "format": .string(Self.format), "version": .int(Int64(Self.formatVersion)),
            "engine": .string(engineVersion), "folder": .string(folder),
            "corpus": .object(["goldens": .int(Int64(goldenCount)), "digest": .string(corpusDigest), "path": .string(corpusPath)]),
            "options": settings.json, "shard": .int(Int64(shard)), "shards": .int(Int64(shards)),
            "outcomes": .array(outcomes.map { .object(["index": .int(Int64($0.index)), "outcome": $0.outcome.encoded]) }),
        ])
    }

    /// The longest time a part may give one golden (a million seconds, over eleven days): a
    /// larger one is no measurement, and would swamp the suite's total.
    public static let maximumSeconds = 1_000_000.0

    /// Reads a part file; anything else (another file, a part of another format version) is
    /// refused naming the file.
    public static func read(_ path: String) throws(RegressionError) -> RegressionPart {
        let fail = { (problem: PartProblem) in RegressionError.part(path: path, problem: problem) }
        let bytes: [UInt8]
        do throws(SystemFile.WholeFileProblem) { bytes = try SystemFile.readWhole(path, maximumBytes: maximumFileBytes) } catch {
            switch error {
            case .unreadable(let failure): throw fail(.unreadable(failure))
            case .notAFile(let kind): throw fail(.notAFile(kind: kind.inWords))
            case .tooLarge: throw fail(.tooLarge(limit: maximumFileBytes))
            }
        }
        let value: JSONValue
        do { value = try JSONParser.parse(bytes) } catch { throw fail(.notJSON(error)) }
        guard value["format"]?.stringValue == format else { throw fail(.notAPart(format: format)) }
        guard let version = value["version"]?.intValue, version == formatVersion else {
            throw fail(.version(found: value["version"]?.serialized ?? "?", readable: formatVersion))
        }
        guard let engine = value["engine"]?.stringValue, let folder = value["folder"]?.stringValue,
              let goldens = value["corpus"]?["goldens"]?.intValue, (0...maximumGoldens).contains(goldens),
              let digest = value["corpus"]?["digest"]?.stringValue,
              let settings = try? value["options"]?.decode(RegressionSettings.self), let shard = value["shard"]?.intValue, let shards = value["shards"]?.intValue,
              (1...maximumShards).contains(shards), (0..<shards).contains(shard), let items = value["outcomes"]?.arrayValue,
              items.count <= goldens
        else { throw fail(.impossibleFields(maximumShards: maximumShards, maximumGoldens: maximumGoldens)) }
        var outcomes: [(Int, RegressionOutcome)] = []
        for item in items {
            guard let index = item["index"]?.intValue, (0..<goldens).contains(index),
                  let encoded = item["outcome"], let outcome = RegressionOutcome(encoded: encoded)
            else { throw fail(.outcome(outcomes.count + 1)) }
            if let seconds = encoded["seconds"] {
                guard let value = seconds.doubleValue, value.isFinite, (0...maximumSeconds).contains(value) else {
                    throw fail(.seconds(outcome: outcomes.count + 1, name: outcome.name, found: seconds.serialized, maximum: maximumSeconds))
                }
            }
            outcomes.append((index, outcome))
        }
        var part = RegressionPart(shard: shard, shards: shards, folder: folder, listing: CorpusListing(goldens: [], digest: digest),
                                  settings: settings, outcomes: outcomes)
        part.goldenCount = goldens
        part.engineVersion = engine
        if let path = value["corpus"]?["path"] {
            guard let path = path.stringValue, path.hasPrefix("/") else { throw fail(.corpusPathNotAbsolute) }
            part.corpusPath = path
        }
        return part
    }

    /// Joins the parts of one run, given as (path, part), into the outcomes of every golden in
    /// corpus order, checking that they are every shard of the same run exactly once.
    public static func merge(_ parts: [(path: String, part: RegressionPart)]) throws(RegressionError) -> MergedRun {
        guard let (firstPath, first) = parts.first else { throw .mergeRefused(.noParts) }
        guard first.engineVersion == LumatraceVersion.engine else {
            throw .mergeRefused(.otherEngine(part: firstPath, engine: first.engineVersion, this: LumatraceVersion.engine))
        }
        for (path, part) in parts.dropFirst() {
            func differ(_ what: String, _ mine: String, _ theirs: String) -> RegressionError {
                .mergeRefused(.otherRun(part: path, first: firstPath, differing: what, value: mine, firstValue: theirs))
            }
            if part.engineVersion != first.engineVersion { throw differ("lumatrace", part.engineVersion, first.engineVersion) }
            if part.shards != first.shards { throw differ("shard count", "\(part.shards)", "\(first.shards)") }
            if part.corpusDigest != first.corpusDigest || part.goldenCount != first.goldenCount {
                throw differ("corpus", "\(part.goldenCount) goldens, listing \(part.corpusDigest.prefix(12))…",
                             "\(first.goldenCount) goldens, listing \(first.corpusDigest.prefix(12))… (the corpus changed between shards, or it is another corpus)")
            }
            if part.folder != first.folder { throw differ("folder", part.folder, first.folder) }
            if part.corpusPath != first.corpusPath { throw differ("corpus folder", part.corpusPath, first.corpusPath) }
            if part.settings != first.settings { throw differ("options", part.settings.json.serialized, first.settings.json.serialized) }
        }
        var byShard = [String?](repeating: nil, count: first.shards)
        for (path, part) in parts {
            if let other = byShard[part.shard] { throw .mergeRefused(.shardTwice(shard: part.shard, of: first.shards, first: other, second: path)) }
            byShard[part.shard] = path
        }
        let missing = byShard.indices.filter { byShard[$0] == nil }
        if !missing.isEmpty {
            throw .mergeRefused(.shardsMissing(missing, of: first.shards))
        }
        var outcomes = [RegressionOutcome?](repeating: nil, count: first.goldenCount)
        var sources = [String](repeating: "", count: first.goldenCount)
        for (path, part) in parts {
            for (index, outcome) in part.outcomes {
                guard outcomes[index] == nil else { throw .mergeRefused(.goldenTwice(part: path, golden: index + 1)) }
                outcomes[index] = outcome
                sources[index] = path
            }
        }
        if let hole = outcomes.firstIndex(where: { $0 == nil }) {
            throw .mergeRefused(.goldenInNoPart(golden: hole + 1, of: first.goldenCount))
        }
        return MergedRun(folder: first.folder, corpusPath: first.corpusPath, corpusDigest: first.corpusDigest, outcomes: outcomes.map { $0! },
                         parts: sources)
    }

    /// Every shard's outcomes joined in corpus order, with the corpus they were made for.
    public struct MergedRun: Sendable {
        /// The corpus folder as the shards were given it (the report names it).
        public var folder: String
        /// The corpus folder, absolute: staged logs move only over goldens listed there.
        public var corpusPath: String
        /// The digest of the corpus listing every shard saw (``CorpusListing``).
        public var corpusDigest: String
        public var outcomes: [RegressionOutcome]
        /// The part file each outcome came from, by golden index (what a refusal names).
        public var parts: [String]

        /// The staged logs of an `--update` run, each with its golden's index in the corpus.
        public var staged: [(index: Int, staged: StagedGolden)] {
            outcomes.enumerated().compactMap { i, outcome in outcome.staged.map { (i, $0) } }
        }
    }
}

extension CorpusListing {
    /// A listing known only by its digest (as a part file records it).
    init(goldens: [Golden], digest: String) {
        self.goldens = goldens
        self.digest = digest
    }
}
