import Foundation
import LumaAnalysis
import LumaBase
import LumaFormat
import LumaOutput

/// A golden's new log that a shard of `regress --update` wrote into the staging folder instead of
/// over the golden: only `regress merge`, once every shard has succeeded, moves it into place, so
/// a half-finished cluster run never leaves a mix of old and new goldens.
///
/// It records both files' SHA-256, so the merge moves exactly the log the shard staged over exactly
/// the golden the shard replayed, and a second merge of the same parts finds it already in place.
public struct StagedGolden: Sendable, Equatable {
    /// The golden log to replace (an absolute path: the merge may run elsewhere on the shared filesystem).
    public var golden: String
    /// SHA-256 of the golden's bytes when the shard read it.
    public var goldenSHA256: String
    /// The new log in the staging folder (absolute).
    public var staged: String
    /// SHA-256 of the new log's bytes.
    public var stagedSHA256: String

    /// Copies the new log at `newLog` into the stage under the golden's name.
    static func stage(_ newLog: String, for golden: String, in stage: GoldenStage) throws -> StagedGolden {
        // The golden's digest, and the new log's bytes as they are copied (read once, so the
        // digest is of exactly what is staged). Both were just read whole by the replay and diff.
        guard let goldenSHA256 = try? FileDigest.sha256(ofFileAt: golden) else {
            throw RegressionError.cannotReplace(path: golden, problem: .unreadable)
        }
        guard let newBytes = SystemPath.contents(of: newLog) else {
            throw RegressionError.staging(path: newLog, problem: .newLogUnreadable)
        }
        let target = stage.entry(for: golden)
        let out = try OutputFile.create(target, replacingExisting: stage.replacingExisting, inputs: [golden], kind: .eventLog, streams: GoldenStage.fileOnly)
        try out.write(newBytes)
        try out.commit()
        return StagedGolden(golden: URL(fileURLWithPath: golden).standardizedFileURL.path, goldenSHA256: goldenSHA256,
                            staged: target, stagedSHA256: SHA256Hasher.hash(newBytes).hexString)
    }

    /// Where a staged log stands when a merge looks at it.
    enum State: Equatable {
        /// The golden is the one the shard replayed and the staged log the one it wrote.
        case ready
        /// The golden already holds the new log (an earlier merge of these parts moved it).
        case inPlace
        /// Anything else: why, naming the file.
        case refused(MergeRefusal)
    }

    var state: State {
        let golden = Self.digest(of: self.golden), staged = Self.digest(of: self.staged)
        if golden == stagedSHA256 { return .inPlace }
        guard let golden else { return .refused(.goldenGone(self.golden)) }
        guard golden == goldenSHA256 else {
            return .refused(.goldenChanged(self.golden, staged: self.staged, stagedMissing: staged == nil))
        }
        guard let staged else { return .refused(.stagedMissing(self.staged)) }
        guard staged == stagedSHA256 else { return .refused(.stagedChanged(self.staged)) }
        return .ready
    }

    /// Checks every staged log, then moves each one over its golden, atomically per log (a rename;
    /// across filesystems a complete copy renamed beside the golden). Nothing moves unless every
    /// log is ready or already in place. Returns how many were moved.
    ///
    /// A part file is input, and what it names is checked before it is believed: `run`'s corpus
    /// is listed again, each staged entry's golden must be the golden of that listing at its
    /// index (same folder, same name), its staged log a file of the same name outside the corpus,
    /// and the listing, with the goldens already moved counted as they were, must be the one the
    /// shards saw. A part that names any other file is refused, naming it.
    public static func moveIntoPlace(_ run: RegressionPart.MergedRun) throws(RegressionError) -> Int {
        let staged = run.staged
        try checkNames(staged, run: run)
        var ready: [StagedGolden] = []
        var stale: [String] = []
        for (_, s) in staged {
            switch s.state {
            case .ready: ready.append(s)
            case .inPlace: if digest(of: s.staged) == s.stagedSHA256 { stale.append(s.staged) }
            case .refused(let refusal): throw .mergeRefused(refusal)
            }
        }
        try checkListing(staged, run: run)
        for path in stale { try? SystemPath.remove(path) }
        for (done, s) in ready.enumerated() {
            do throws(RegressionError) {
                try s.move()
            } catch {
                throw .mergeRefused(.moveFailed(error, moved: done, of: ready.count))
            }
        }
        return ready.count
    }

    /// Each staged entry names the golden the corpus lists at its index and a staged log of the
    /// same name outside the corpus; nothing else is ever read, moved or removed.
    private static func checkNames(_ staged: [(index: Int, staged: StagedGolden)], run: RegressionPart.MergedRun) throws(RegressionError) {
        let corpus = run.corpusPath
        let goldens: [String]
        do { goldens = try RegressionRun.goldenLogs(in: corpus) } catch {
            throw .mergeRefused(.corpusUnlistable(corpus: corpus, why: "\(error)"))
        }
        for (index, s) in staged {
            let refuse = { (what: String) in
                RegressionError.mergeRefused(.foreignEntry(part: run.parts[index], golden: index + 1, names: what, corpus: corpus))
            }
            guard index < goldens.count else { throw refuse("a golden the corpus does not hold") }
            let name = URL(fileURLWithPath: goldens[index]).lastPathComponent
            guard OutputFile.sameName(s.golden, goldens[index]), !isLink(s.golden), run.outcomes[index].name == name else {
                throw refuse("\(s.golden) as its golden, which is not \(goldens[index])")
            }
            // Named like the golden, in a folder of its own (the stage), never the corpus.
            guard URL(fileURLWithPath: s.staged).lastPathComponent == name, !OutputFile.sameName(s.staged, goldens[index]), !isLink(s.staged) else {
                throw refuse("\(s.staged) as its staged log, which is not a log named \(name) in a staging folder")
            }
        }
    }

    /// The corpus as it is now must be the one the shards listed: goldens already moved by an
    /// earlier merge of these parts are counted as the golden they replaced.
    private static func checkListing(_ staged: [(index: Int, staged: StagedGolden)], run: RegressionPart.MergedRun) throws(RegressionError) {
        let listing: CorpusListing
        do { listing = try CorpusListing(RegressionRun.goldenLogs(in: run.corpusPath)) } catch {
            throw .mergeRefused(.corpusUnlistable(corpus: run.corpusPath, why: "\(error)"))
        }
        var goldens = listing.goldens
        for (index, s) in staged where index < goldens.count && goldens[index].sha256 == s.stagedSHA256 {
            goldens[index].sha256 = s.goldenSHA256
        }
        guard CorpusListing.digest(of: goldens) == run.corpusDigest else {
            throw .mergeRefused(.corpusChanged(corpus: run.corpusPath))
        }
    }

    private static func isLink(_ path: String) -> Bool {
        (try? SystemPath.linkStatus(of: path))?.kind == .symbolicLink
    }

    private func move() throws(RegressionError) {
        do throws(SystemCallError) {
            try SystemPath.move(staged, to: golden)
            OutputFile.syncFolder(of: golden)
            return
        } catch {
            guard error.errno == EXDEV else { throw .cannotReplace(path: golden, problem: .rename(error)) }
        }
        // Another filesystem: a complete copy beside the golden, then a rename over it.
        guard let bytes = SystemPath.contents(of: staged) else { throw .staging(path: staged, problem: .unreadable) }
        do throws(OutputError) {
            let out = try OutputFile.create(golden, replacingExisting: true, kind: .eventLog, streams: .refused(why: "a golden log is a file"))
            try out.write(bytes)
            try out.commit()
        } catch {
            throw .cannotReplace(path: golden, problem: .output(error))
        }
        try? SystemPath.remove(staged)
    }

    private static func digest(of path: String) -> String? { try? FileDigest.sha256(ofFileAt: path) }

    /// As a part file holds it.
    var encoded: JSONValue {
        .object(["golden": .string(golden), "goldenSHA256": .string(goldenSHA256), "staged": .string(staged), "stagedSHA256": .string(stagedSHA256)])
    }

    init(golden: String, goldenSHA256: String, staged: String, stagedSHA256: String) {
        (self.golden, self.goldenSHA256, self.staged, self.stagedSHA256) = (golden, goldenSHA256, staged, stagedSHA256)
    }

    /// Read back from a part file; `nil` when `value` is not one.
    init?(encoded value: JSONValue) {
        guard let golden = value["golden"]?.stringValue, let goldenSHA256 = value["goldenSHA256"]?.stringValue,
              let staged = value["staged"]?.stringValue, let stagedSHA256 = value["stagedSHA256"]?.stringValue,
              golden.hasPrefix("/"), staged.hasPrefix("/")
        else { return nil }
        self.init(golden: golden, goldenSHA256: goldenSHA256, staged: staged, stagedSHA256: stagedSHA256)
    }
}

/// The staging folder of a sharded `regress --update` run, which every shard of the run shares:
/// each shard writes there only the new logs of its own goldens, under their names.
public struct GoldenStage: Sendable {
    /// The folder, as an absolute path.
    public let folder: String
    /// Whether an entry left by an earlier run may be replaced.
    public let replacingExisting: Bool

    static let fileOnly = OutputFile.StreamPolicy.refused(why: "a staged log is a file")

    /// Makes the folder if it is not there and checks, before anything runs, that it is not the
    /// corpus folder and that none of `goldens` (this shard's) has an entry there already, unless
    /// `replacingExisting`.
    public init(folder: String, corpus: String, goldens: [String], replacingExisting: Bool) throws {
        let url = URL(fileURLWithPath: folder).standardizedFileURL
        do throws(SystemCallError) { try SystemPath.makeFolders(url.path) } catch {
            throw RegressionError.staging(path: folder, problem: .cannotMakeFolder(error))
        }
        let real = { (path: String) in URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path }
        guard real(url.path) != real(corpus) else {
            throw RegressionError.staging(path: folder, problem: .isTheCorpus)
        }
        self.folder = url.path
        self.replacingExisting = replacingExisting
        for golden in goldens {
            try OutputFile.check(entry(for: golden), replacingExisting: replacingExisting, inputs: [golden], kind: .eventLog, why: "a staged log is a file")
        }
    }

    /// Where the new log of `golden` is staged.
    func entry(for golden: String) -> String {
        URL(fileURLWithPath: folder).appendingPathComponent(URL(fileURLWithPath: golden).lastPathComponent).path
    }
}
