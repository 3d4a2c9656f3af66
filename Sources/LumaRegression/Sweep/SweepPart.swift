import LumaBase

/// What one shard of a sweep wrote (`sweep CORPUS --shard K/N -o PART.json`): the scores of the
/// units (recording × pass) its plan gave it, and what `sweep merge` checks before joining the
/// parts: the sweep's definition, the corpus (each recording's frames and truth digests), and the
/// shard count.
///
/// The plan (``ShardPlan`` over the units, each costing its frames × its pass's settings) depends
/// only on the corpus and the grid, so every shard computes the same one on its own.
public struct SweepPart: Sendable, Equatable, Codable {
    public static let format = "lumatrace.sweep-part"
    public static let formatVersion = 1
    /// The most shards a sweep may have, as `--shard` allows, and recordings a part may list.
    public static let maximumShards = 100_000
    public static let maximumRecordings = 1_000_000
    /// The longest time a part may give one setting on one recording (a million seconds).
    public static let maximumSeconds = 1_000_000.0

    public var format = Self.format
    public var version = Self.formatVersion
    public var sweep: SweepDefinition
    /// 0-based shard index, and the shard count.
    public var shard: Int
    public var shards: Int
    /// The corpus's recordings with truth, in name order, and those left out.
    public var corpus: [SweepRecordingIdentity]
    public var withoutTruth: [String]
    /// This shard's units and their scores.
    public var units: [SweepUnitScores]

    public init(sweep: SweepDefinition, shard: Int, shards: Int, corpus: [SweepRecordingIdentity], withoutTruth: [String], units: [SweepUnitScores]) {
        (self.sweep, self.shard, self.shards, self.corpus, self.withoutTruth, self.units) = (sweep, shard, shards, corpus, withoutTruth, units)
    }

    /// Every unit of a sweep of `corpus`, recording by recording, pass by pass, and the units of shard `shard` of `shards`.
    public static func plan(_ sweep: SweepDefinition, corpus: [SweepRecordingIdentity], shard: Int, of shards: Int) -> [SweepUnit] {
        let passes = sweep.passes
        let units = corpus.indices.flatMap { r in passes.indices.map { SweepUnit(recording: r, pass: $0) } }
        let costs = units.map { max(1, corpus[$0.recording].frames) * passes[$0.pass].count }
        return ShardPlan(costs: costs, shards: shards).shards[shard].map { units[$0] }
    }

    /// The part file's bytes.
    public func bytes() throws -> [UInt8] { try SweepStoredFile.bytes(self) }

    /// Reads a part file, checking every count and index against the rest, so that a hostile or
    /// damaged part is refused naming the file, never trusted.
    public static func read(_ path: String) throws(SweepFileError) -> SweepPart {
        let part = try SweepStoredFile.read(SweepPart.self, from: path, format: format, version: formatVersion, kind: "a sweep part")
        let impossible = { (why: SweepFileError.Impossibility) in SweepFileError(path: path, problem: .impossible(why)) }
        guard (1...maximumShards).contains(part.shards), (0..<part.shards).contains(part.shard) else {
            throw impossible(.shard(part.shard, of: part.shards, maximum: maximumShards))
        }
        guard (1...SweepGrid.maximumSettings).contains(part.sweep.settings.count), part.sweep.passSize >= 1 else {
            throw impossible(.passes(settings: part.sweep.settings.count, passSize: part.sweep.passSize))
        }
        guard (1...maximumRecordings).contains(part.corpus.count) else { throw impossible(.corpusSize(part.corpus.count)) }
        var names = Set<String>()
        for recording in part.corpus {
            guard recording.isPlainName else { throw impossible(.notPlainName(recording.name)) }
            guard names.insert(recording.name).inserted else { throw impossible(.nameTwice(recording.name)) }
            guard recording.frames >= 0 else { throw impossible(.framesOutside(name: recording.name, frames: recording.frames)) }
        }
        for name in part.withoutTruth where !SweepRecordingIdentity(name: name, frames: 0, framesSHA256: "", truthSHA256: "").isPlainName {
            throw impossible(.notPlainName(name))
        }
        let passes = part.sweep.passes
        for unit in part.units {
            guard part.corpus.indices.contains(unit.recording), passes.indices.contains(unit.pass) else {
                throw impossible(.unitOutside(recording: unit.recording, pass: unit.pass))
            }
            let (recording, settings) = (part.corpus[unit.recording], passes[unit.pass])
            guard unit.scores.count == settings.count else {
                throw impossible(.unitScores(recording: recording.name, pass: unit.pass, count: unit.scores.count, settings: settings.count))
            }
            for (setting, score) in zip(settings, unit.scores) {
                if let why = score.implausibility(frames: recording.frames) {
                    throw impossible(.implausibleScore(setting: part.sweep.settings[setting].id, recording: recording.name, why))
                }
            }
            if let timings = unit.timings {
                guard timings.count == settings.count, timings.allSatisfy({ $0.seconds.isFinite && (0...maximumSeconds).contains($0.seconds)
                    && (0...SweepScore.maximumCount).contains($0.frames) }) else {
                    throw impossible(.timings(recording: recording.name, pass: unit.pass, maximumSeconds: maximumSeconds))
                }
            }
        }
        return part
    }

    /// Every unit of every part, checked to be one sweep (the same definition, corpus and shard
    /// count), every shard once and every unit once.
    public static func merge(_ parts: [(path: String, part: SweepPart)]) throws(SweepMergeError) -> [SweepUnitScores] {
        guard let (firstPath, first) = parts.first else { throw .noParts }
        for (path, part) in parts.dropFirst() {
            func differ(_ field: String, _ mine: String, _ theirs: String) -> SweepMergeError {
                .otherRun(part: path, first: firstPath, field: field, value: mine, firstValue: theirs)
            }
            if let (field, mine, theirs) = part.sweep.difference(from: first.sweep) { throw differ(field, mine, theirs) }
            if part.shards != first.shards { throw differ("shard count", "\(part.shards)", "\(first.shards)") }
            if part.corpus != first.corpus || part.withoutTruth != first.withoutTruth {
                let mismatch = zip(part.corpus, first.corpus).first { $0 != $1 }
                throw differ("corpus", mismatch.map { "\($0.0.name) (frames \($0.0.framesSHA256.prefix(12))…, truth \($0.0.truthSHA256.prefix(12))…)" }
                                 ?? "\(Plural.count(part.corpus.count, "recording")) with truth, \(part.withoutTruth.count) without",
                             mismatch.map { "\($0.1.name) (frames \($0.1.framesSHA256.prefix(12))…, truth \($0.1.truthSHA256.prefix(12))…)" }
                                 ?? "\(Plural.count(first.corpus.count, "recording")) with truth, \(first.withoutTruth.count) without")
            }
        }
        var byShard = [String?](repeating: nil, count: first.shards)
        for (path, part) in parts {
            if let other = byShard[part.shard] { throw .shardTwice(shard: part.shard, of: first.shards, first: other, second: path) }
            byShard[part.shard] = path
        }
        let missing = byShard.indices.filter { byShard[$0] == nil }
        guard missing.isEmpty else { throw .shardsMissing(missing, of: first.shards) }
        var seen = Set<SweepUnit>()
        var units: [SweepUnitScores] = []
        for (path, part) in parts {
            for unit in part.units {
                guard seen.insert(SweepUnit(recording: unit.recording, pass: unit.pass)).inserted else {
                    throw .unitTwice(part: path, recording: first.corpus[unit.recording].name, pass: unit.pass)
                }
                units.append(unit)
            }
        }
        let passes = first.sweep.passes.count
        if units.count != first.corpus.count * passes {
            for r in first.corpus.indices {
                for p in 0..<passes where !seen.contains(SweepUnit(recording: r, pass: p)) {
                    throw .unitMissing(recording: first.corpus[r].name, pass: p)
                }
            }
        }
        return units
    }
}
