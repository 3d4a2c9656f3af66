import Dispatch
import Foundation
import Synchronization
import LumaAnalysis
import LumaBase
import LumaEngine
import LumaFormat
import LumaTruth

/// A regression run over a folder of golden logs: each is replayed with the analyzers and options
/// of its header (plus any settings to try), diffed against the new log and, when the folder holds
/// its recording's truth, scored; goldens are replaced when asked and allowed (``RegressionJudge``).
public enum RegressionRun {
    /// The golden logs of a folder, by file name; a name that is not UTF-8 keeps its bytes
    /// (`SystemPath`), so its golden is read and reported like any other.
    public static func goldenLogs(in folder: String) throws -> [String] {
        guard (try? SystemPath.status(of: folder))?.kind == .folder else {
            throw RegressionError.notAFolder(folder)
        }
        let names = try SystemPath.entries(of: folder)
            .filter { $0.hasSuffix(".events.jsonl") && !$0.hasPrefix(".") }.sorted()
        guard !names.isEmpty else { throw RegressionError.noGoldenLogs(folder: folder) }
        return names.map { URL(fileURLWithPath: folder).appendingPathComponent($0).path }
    }

    /// Runs every golden (or only those at `selection`, a shard's share) on `jobs` threads; results
    /// come back in the goldens' order. Each golden's replay gets `overrides`; an override for an
    /// analyzer no golden of the corpus runs is refused before anything runs, as is a golden that
    /// would start a program unless `allowPrograms`.
    ///
    /// The corpus is only read, unless `judge.update` without a `stage`: new logs are written to
    /// the system's temporary folder, and beside their goldens only when they may replace them.
    /// With a `stage` (a shard's update), a new log that would replace its golden is copied into
    /// the stage instead, for `regress merge` to move into place.
    ///
    /// Each golden's recording is the file its header names, beside the golden, or under
    /// `recordings` when given (a folder, or an http(s) URL that the file name is appended to).
    ///
    /// With a `memory` budget, the replays running at once together plan to stay within it (a
    /// ``MemoryPool``): a golden waits for others to finish when it does not fit beside them, and
    /// one that would not fit alone is that golden's error, naming its recording.
    public static func run(_ goldens: [String], selection: [Int]? = nil, overrides: SettingOverrides, jobs: Int,
                           tolerances: LogDiff.Tolerances, judge: RegressionJudge, stage: GoldenStage? = nil, allowPrograms: Bool,
                           recordings: RecordingLocation? = nil, memory: MemoryBudget? = nil, registry: AnalyzerRegistry) throws -> [RegressionResult] {
        // Each override must name an analyzer some golden runs, or it is a typo.
        let headers = try goldens.map { try EventLog.read($0).header }
        // Every golden that would start a program is refused before anything runs.
        for (golden, header) in zip(goldens, headers) {
            try ProgramPermission.require(header.analyzers, from: golden, registry: registry, allowed: allowPrograms)
        }
        for name in overrides.analyzers where !headers.contains(where: { $0.analyzers.contains { $0.name == name } }) {
            throw RegressionError.settingForAbsentAnalyzer(name)
        }
        let chosen = selection ?? Array(goldens.indices)
        let slots = ResultSlots(count: chosen.count)
        let next = Counter()
        let pool = memory.map(MemoryPool.init)
        DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, chosen.count))) { _ in
            while let k = next.take(below: chosen.count) {
                let i = chosen[k]
                let start = ContinuousClock.now
                var result = RegressionResult.measure(goldens[i], ordinal: i, overrides: overrides, tolerances: tolerances, judge: judge,
                                                      stage: stage, allowPrograms: allowPrograms, recordings: recordings, memory: pool, registry: registry)
                let took = (ContinuousClock.now - start).components
                result.seconds = Double(took.seconds) + Double(took.attoseconds) * 1e-18
                slots.store(result, at: k)
            }
        }
        return slots.results
    }

    /// The summary table, then each changed recording's differences.
    /// `keptWorseHint` follows the line of a golden kept because its new log scores worse (the
    /// command's way to replace it anyway).
    public static func report(_ results: [RegressionResult], update: Bool, keptWorseHint: String = "") -> [String] {
        report(results.map { RegressionOutcome($0, keptWorseHint: keptWorseHint) }, update: update)
    }

    /// The report of `outcomes`, from one machine or merged from the parts of shards: the same
    /// outcomes print the same lines.
    public static func report(_ outcomes: [RegressionOutcome], update: Bool) -> [String] {
        var out = alignedRows([RegressionOutcome.columns] + outcomes.map(\.row))
        for o in outcomes { out += o.details }
        let changed = outcomes.filter(\.changed).count, failed = outcomes.filter(\.failed).count
        let worse = outcomes.filter(\.worse).count
        var summary = "\(Plural.count(outcomes.count, "recording")): \(outcomes.count - changed - failed) unchanged, \(changed) changed"
        if worse > 0 { summary += " (\(worse) scoring worse)" }
        if failed > 0 { summary += ", \(failed) failed" }
        out += ["", summary]
        if update {
            let updated = outcomes.filter(\.updated).map(\.name), kept = outcomes.filter(\.keptWorse).map(\.name)
            if !updated.isEmpty || kept.isEmpty { out.append(updated.isEmpty ? "no golden log needed updating" : "updated: " + updated.joined(separator: ", ")) }
            if !kept.isEmpty { out.append("not updated, scoring worse: " + kept.joined(separator: ", ")) }
        }
        return out
    }

    /// The JSON report of `outcomes` for the corpus `folder` (as given on the command line).
    public static func json(folder: String, _ outcomes: [RegressionOutcome]) -> JSONValue {
        .object(["folder": .string(folder), "recordings": .array(outcomes.map(\.json))])
    }
}

/// What makes a regressed recording pass, and whether its golden may be replaced.
public struct RegressionJudge: Sendable {
    /// How far each score may drop (0 for a metric not listed).
    var scoreTolerances: [ScoreMetric: Double]
    /// Whether scores decide (some `--tolerance` given): a recording with truth then passes unless
    /// a score drops beyond its tolerance, whatever else changed.
    var byScores: Bool
    /// Replace goldens that changed (`--update`)…
    var update: Bool
    /// …even when their new log scores worse (`--accept-worse`).
    var acceptWorse: Bool

    public init(scoreTolerances: [ScoreMetric: Double], byScores: Bool, update: Bool, acceptWorse: Bool) {
        (self.scoreTolerances, self.byScores, self.update, self.acceptWorse) = (scoreTolerances, byScores, update, acceptWorse)
    }
}

/// What regressing one golden log found.
public struct RegressionResult: Sendable {
    /// The golden log's file name.
    public var name: String
    public var diff: LogDiff?
    /// Golden and new event counts.
    public var eventCounts: (Int, Int)?
    /// Whether the new log is byte-identical to the golden one.
    public var identical = false
    public var goldenScore: LogScore?
    public var newScore: LogScore?
    /// Scores of the new log worse than the golden's beyond their tolerances.
    public var drops: [ScoreDrop] = []
    public var updated = false
    /// A shard's update: where the new log waits for the merge to move it over the golden.
    public var staged: StagedGolden?
    /// With `--update`: the golden was kept because the new log scores worse.
    public var keptWorse = false
    /// Whether this recording lets the run pass (see ``RegressionJudge``).
    public var passed = false
    public var notes: [String] = []
    /// Why the recording could not be checked, in words (a command adds its hints to `failure`'s).
    public var error: String?
    /// The error behind ``error``, for a command to word with its own flags.
    public var failure: (any Error)?
    /// The recording's file as the golden's header names it, relative to the golden's folder (or
    /// to `--recordings`); `nil` when the golden could not be read.
    public var recordingFile: String?
    /// How long replaying, diffing and scoring this golden took, by the clock: reported only on
    /// request (`--junit-timings`), as it differs from run to run.
    public var seconds = 0.0

    public var status: String {
        if error != nil { return "error" }
        guard let diff else { return "" }
        if identical { return "identical" }
        if diff.isSame { return "within tolerance" }
        return diff.summary + (drops.isEmpty ? "" : "; worse")
    }

    static func measure(_ goldenPath: String, ordinal: Int, overrides: SettingOverrides, tolerances: LogDiff.Tolerances,
                        judge: RegressionJudge, stage: GoldenStage?, allowPrograms: Bool, recordings: RecordingLocation?,
                        memory: MemoryPool?, registry: AnalyzerRegistry) -> RegressionResult {
        let url = URL(fileURLWithPath: goldenPath)
        var result = RegressionResult(name: url.lastPathComponent)
        // The new log's bytes do not depend on where it is written (its header names the recording
        // and plugin folders as the golden does); it goes beside the golden only to replace it.
        let newFolder = judge.update && stage == nil ? url.deletingLastPathComponent() : FileManager.default.temporaryDirectory
        let newPath = newFolder.appendingPathComponent(".\(url.lastPathComponent).regress-\(getpid())-\(ordinal)").path
        defer { try? SystemPath.remove(newPath) }
        do {
            let golden = try EventLog.read(goldenPath)
            result.recordingFile = golden.header.recordingFile
            let recording = recordings.map { $0.appending(fileName: golden.header.recordingFile) }
            let replay = try GoldenReplay(golden: golden, recording: recording, registry: registry, allowPrograms: allowPrograms, overrides: overrides)
            result.notes = replay.versionNotes
            try replay.run(to: newPath, jobs: 1, registry: registry, memory: memory)
            let new = try EventLog.read(newPath)
            result.eventCounts = (golden.events.count, new.events.count)
            // A golden from before headers declared event kinds is read with this build's kinds.
            let shapedGolden = golden.declaringKinds(from: registry)
            try compare(golden, shapedGolden, with: new, goldenPath: goldenPath, newPath: newPath, tolerances: tolerances, into: &result)
            try score(golden, shapedGolden, new, beside: url, judge: judge, into: &result)
            try settle(judge, stage: stage, goldenPath: goldenPath, newPath: newPath, into: &result)
        } catch {
            result.failure = error
            result.error = "\(error)"
        }
        return result
    }

    /// The new log against the golden: their diff, a changed plugin when the events are the same,
    /// and whether the two files are the same bytes.
    private static func compare(_ golden: EventLog, _ shapedGolden: EventLog, with new: EventLog, goldenPath: String, newPath: String,
                                tolerances: LogDiff.Tolerances, into result: inout RegressionResult) throws {
        let diff = try LogDiff(old: shapedGolden, new: new, tolerances: tolerances)
        result.diff = diff
        // A changed plugin shows among the settings of a diff that is printed; with the same
        // events it is said in a note, or it would go unsaid.
        if diff.isSame {
            for (x, y) in zip(golden.header.analyzers, new.header.analyzers) {
                result.notes += LogDiff.programChanges(x, y).map { "\(result.name): the plugin changed: \($0)" }
            }
        }
        result.identical = SystemPath.contents(of: goldenPath).map { $0 == SystemPath.contents(of: newPath) } ?? false
    }

    /// Both logs scored against the truth beside the golden (`STEM.truth.json`), when there is
    /// one, and the scores that dropped by more than the judge tolerates.
    private static func score(_ golden: EventLog, _ shapedGolden: EventLog, _ new: EventLog, beside goldenURL: URL, judge: RegressionJudge,
                              into result: inout RegressionResult) throws {
        let stem = URL(fileURLWithPath: golden.header.recordingFile).deletingPathExtension().lastPathComponent
        let truthPath = goldenURL.deletingLastPathComponent().appendingPathComponent(stem + ".truth.json").path
        guard (try? SystemPath.status(of: truthPath)) != nil else { return }
        let truth = try GroundTruth.read(truthPath, for: golden)
        let (a, b) = (try LogScore(log: shapedGolden, truth: truth), try LogScore(log: new, truth: truth))
        result.goldenScore = a
        result.newScore = b
        result.drops = ScoreDrop.drops(golden: a, new: b, tolerances: judge.scoreTolerances)
    }

    /// The verdict: with `--update`, the new log replaces the golden (or is staged) unless it
    /// scores worse and that is not accepted; otherwise it passes by scores or by the diff.
    private static func settle(_ judge: RegressionJudge, stage: GoldenStage?, goldenPath: String, newPath: String,
                               into result: inout RegressionResult) throws {
        guard judge.update else {
            result.passed = judge.byScores && result.newScore != nil ? result.drops.isEmpty : result.diff?.isSame ?? false
            return
        }
        result.keptWorse = !result.identical && !result.drops.isEmpty && !judge.acceptWorse
        if !result.identical, !result.keptWorse, let stage {
            result.staged = try StagedGolden.stage(newPath, for: goldenPath, in: stage)
            result.updated = true
        } else if !result.identical, !result.keptWorse {
            do throws(SystemCallError) { try SystemPath.move(newPath, to: goldenPath) } catch {
                throw RegressionError.cannotReplace(path: goldenPath, problem: .rename(error))
            }
            result.updated = true
        }
        result.passed = !result.keptWorse
    }

    public var json: JSONValue {
        func score(_ s: LogScore?) -> JSONValue { s.map(\.json) ?? .null }
        let drops = drops.map { d in
            JSONValue.object(["metric": .string(d.metric.rawValue), "golden": .double(d.golden), "new": .double(d.new),
                              "tolerance": .double(d.tolerance)])
        }
        return .object([
            "golden": .string(name),
            "result": .string(error == nil ? (identical ? "identical" : diff?.isSame == true ? "within tolerance" : "changed") : "error"),
            "passed": .bool(passed),
            "events": eventCounts.map { .array([.int(Int64($0.0)), .int(Int64($0.1))]) } ?? .null,
            "diff": diff.map(\.json) ?? .null,
            "goldenScore": score(goldenScore), "newScore": score(newScore), "worse": .array(drops),
            "updated": .bool(updated), "keptWorse": .bool(keptWorse), "notes": .array(notes.map(JSONValue.string)),
            "error": error.map(JSONValue.string) ?? .null,
        ])
    }
}

/// Results filled in by index from several threads.
private final class ResultSlots: Sendable {
    private let slots: Mutex<[RegressionResult?]>

    init(count: Int) { slots = Mutex([RegressionResult?](repeating: nil, count: count)) }

    func store(_ result: sending RegressionResult, at index: Int) { slots.withLock { $0[index] = result } }

    var results: [RegressionResult] { slots.withLock { $0.map { $0! } } }
}

/// Hands out 0, 1, 2, … to whichever thread asks next.
private final class Counter: Sendable {
    private let value = Mutex(0)

    func take(below limit: Int) -> Int? {
        value.withLock { value in
            guard value < limit else { return nil }
            value += 1
            return value - 1
        }
    }
}
