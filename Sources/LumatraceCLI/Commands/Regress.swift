import ArgumentParser
import Foundation
import LumaAnalysis
import LumaEngine
import LumaTruth
import Synchronization

struct Regress: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Re-run every golden log in a folder, diff it and score it: did a detector change help or hurt?",
        discussion: """
            For each NAME.events.jsonl in FOLDER whose recording (named in its header)
            is there too: replay the analyzers and options of the golden header,
            compare the new log with the golden one (like `lumatrace diff`) and, when
            RECORDING-STEM.truth.json is there, score both (like `lumatrace score`).
            One summary table, then the differences of each changed recording.

              lumatrace regress Recordings/
              lumatrace regress Recordings/ --set trajectory.trajectoryLength=15
              lumatrace regress Recordings/ --tolerance f1=0.01 --tolerance point-error=0.5
              lumatrace regress Recordings/ --update      # bless the new logs

            Which change fails: without --tolerance, any difference beyond the diff
            tolerances (--point-tolerance, …). With --tolerance METRIC=DROP, a
            recording with truth fails only when a score gets worse by more than its
            tolerance (a metric not named may not drop at all); one without truth
            still fails on any difference, as there is nothing to judge it by.

            --update replaces each golden that changed with its new log, but never
            with a log that scores worse (beyond the tolerances) unless
            --accept-worse is given: such goldens are kept, listed, and fail the run.

            Ids in the differences: "golden" is the observation's id in the golden
            log, "new" in the new log; a changed observation shows both.

            Recordings run in parallel (--jobs); the output does not depend on it.
            Exit status: 0 every log passes, 1 some differ or score worse (with
            --update: some were not updated because they score worse), 2 error.
            """)

    @Argument(help: "The folder of recordings and golden logs.")
    var folder: String

    @Flag(help: "Rewrite the golden logs that changed with the new ones, and list them (not those that score worse).")
    var update = false

    @Flag(help: "With --update: also replace goldens whose new log scores worse than the golden.")
    var acceptWorse = false

    @Option(name: .customLong("set"), help: "Analyzer option NAME.KEY=VALUE to change in every golden that runs NAME (repeatable).")
    var settings: [String] = []

    @Option(help: "Recordings replayed at once (1...256).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Flag(help: "One JSON object on stdout instead of the table.")
    var json = false

    @OptionGroup var tolerance: ToleranceOptions

    @OptionGroup var scoreTolerance: ScoreToleranceOptions

    @Flag(help: ArgumentHelp(stringLiteral: ProgramPermission.flagHelp))
    var allowExternal = false

    func validate() throws {
        guard (1...256).contains(jobs) else { throw ValidationError("--jobs \(jobs) is outside 1...256") }
        if acceptWorse, !update { throw ValidationError("--accept-worse only applies with --update") }
    }

    func run() throws {
        let results: [RegressionResult]
        do {
            let overrides = try OptionOverrides(settings)
            let goldens = try Self.goldenLogs(in: folder)
            let judge = try RegressionJudge(scoreTolerances: scoreTolerance.tolerances, byScores: scoreTolerance.judgeByScores,
                                            update: update, acceptWorse: acceptWorse)
            results = try Self.run(goldens, overrides: overrides, jobs: jobs, tolerances: tolerance.tolerances, judge: judge,
                                   allowPrograms: allowExternal)
        } catch {
            printError(error)
            throw ExitCode(2)
        }
        if json {
            print(JSONValue.object(["folder": .string(folder), "recordings": .array(results.map(\.json))]).serialized)
        } else {
            for line in Self.report(results, update: update) { print(line) }
        }
        if results.contains(where: { $0.error != nil }) { throw ExitCode(2) }
        if results.contains(where: { !$0.passed }) { throw ExitCode(1) }
    }

    /// The golden logs of a folder, by file name.
    static func goldenLogs(in folder: String) throws -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw CLIError("\(folder) is not a folder")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
            .filter { $0.hasSuffix(".events.jsonl") && !$0.hasPrefix(".") }.sorted()
        guard !names.isEmpty else { throw CLIError("\(folder) holds no golden logs (*.events.jsonl)") }
        return names.map { URL(fileURLWithPath: folder).appendingPathComponent($0).path }
    }

    /// Runs every golden on `jobs` threads; results come back in the goldens' order.
    static func run(_ goldens: [String], overrides: OptionOverrides, jobs: Int, tolerances: LogDiff.Tolerances,
                    judge: RegressionJudge, allowPrograms: Bool) throws -> [RegressionResult] {
        // Each override must name an analyzer some golden runs, or it is a typo.
        let headers = try goldens.map { try EventLog.read($0).header }
        // Every golden that would start a program is refused before anything runs.
        for (golden, header) in zip(goldens, headers) {
            try ProgramPermission.require(header.analyzers, from: golden, registry: Lumatrace.registry, allowed: allowPrograms)
        }
        for name in overrides.analyzers where !headers.contains(where: { $0.analyzers.contains { $0.name == name } }) {
            throw CLIError("--set \(name).…: no golden log in the folder runs analyzer '\(name)'")
        }
        let slots = ResultSlots(count: goldens.count)
        let next = Counter()
        DispatchQueue.concurrentPerform(iterations: min(jobs, goldens.count)) { _ in
            while let i = next.take(below: goldens.count) {
                slots.store(RegressionResult.measure(goldens[i], ordinal: i, overrides: overrides, tolerances: tolerances, judge: judge,
                                                     allowPrograms: allowPrograms), at: i)
            }
        }
        return slots.results
    }

    /// The summary table, then each changed recording's differences.
    static func report(_ results: [RegressionResult], update: Bool) -> [String] {
        var rows = [["recording", "events", "result", "trajectory F1", "point error", "tracking AUC", "P@20px"]]
        for r in results {
            var row = [r.name, r.eventCounts.map { $0 == $1 ? "\($0)" : "\($0) → \($1)" } ?? "", r.status]
            let (a, b) = (r.goldenScore, r.newScore)
            if let x = a?.trajectories, let y = b?.trajectories {
                row += [scoreChange(x.f1, y.f1), scoreChange(x.medianError, y.medianError, decimals: 2) + " px"]
            } else {
                row += ["", ""]
            }
            if let x = a?.tracking, let y = b?.tracking {
                row += [scoreChange(x.successAUC, y.successAUC), scoreChange(x.precision20, y.precision20)]
            } else {
                row += ["", ""]
            }
            rows.append(row)
        }
        var out = alignedRows(rows)
        for r in results {
            if let error = r.error {
                out += ["", "\(r.name): error: \(error)"]
                continue
            }
            for note in r.notes { out.append("note: \(note)") }
            guard let diff = r.diff, !diff.isSame else { continue }
            out += ["", "\(r.name):"] + Diff.lines(diff, indent: "  ", oldName: "golden")
            out += r.drops.map { "  worse: \($0.description)" }
            if r.keptWorse { out.append("  not updated: the new log scores worse; --accept-worse replaces the golden anyway") }
        }
        let changed = results.filter { $0.diff?.isSame == false }.count, failed = results.filter { $0.error != nil }.count
        let worse = results.filter { !$0.drops.isEmpty }.count
        var summary = "\(Plural.count(results.count, "recording")): \(results.count - changed - failed) unchanged, \(changed) changed"
        if worse > 0 { summary += " (\(worse) scoring worse)" }
        if failed > 0 { summary += ", \(failed) failed" }
        out += ["", summary]
        if update {
            let updated = results.filter(\.updated).map(\.name), kept = results.filter(\.keptWorse).map(\.name)
            if !updated.isEmpty || kept.isEmpty { out.append(updated.isEmpty ? "no golden log needed updating" : "updated: " + updated.joined(separator: ", ")) }
            if !kept.isEmpty { out.append("not updated, scoring worse: " + kept.joined(separator: ", ")) }
        }
        return out
    }
}

/// What makes a regressed recording pass, and whether its golden may be replaced.
struct RegressionJudge: Sendable {
    /// How far each score may drop (0 for a metric not listed).
    var scoreTolerances: [ScoreMetric: Double]
    /// Whether scores decide (some `--tolerance` given): a recording with truth then passes unless
    /// a score drops beyond its tolerance, whatever else changed.
    var byScores: Bool
    /// Replace goldens that changed (`--update`)…
    var update: Bool
    /// …even when their new log scores worse (`--accept-worse`).
    var acceptWorse: Bool
}

/// What regressing one golden log found.
struct RegressionResult: Sendable {
    /// The golden log's file name.
    var name: String
    var diff: LogDiff?
    /// Golden and new event counts.
    var eventCounts: (Int, Int)?
    /// Whether the new log is byte-identical to the golden one.
    var identical = false
    var goldenScore: LogScore?
    var newScore: LogScore?
    /// Scores of the new log worse than the golden's beyond their tolerances.
    var drops: [ScoreDrop] = []
    var updated = false
    /// With `--update`: the golden was kept because the new log scores worse.
    var keptWorse = false
    /// Whether this recording lets the run pass (see ``RegressionJudge``).
    var passed = false
    var notes: [String] = []
    var error: String?

    var status: String {
        if error != nil { return "error" }
        guard let diff else { return "" }
        if identical { return "identical" }
        if diff.isSame { return "within tolerance" }
        return Diff.summary(diff) + (drops.isEmpty ? "" : "; worse")
    }

    static func measure(_ goldenPath: String, ordinal: Int, overrides: OptionOverrides, tolerances: LogDiff.Tolerances,
                        judge: RegressionJudge, allowPrograms: Bool) -> RegressionResult {
        let url = URL(fileURLWithPath: goldenPath)
        var result = RegressionResult(name: url.lastPathComponent)
        let newPath = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).regress-\(getpid())-\(ordinal)").path
        defer { try? FileManager.default.removeItem(atPath: newPath) }
        do {
            let golden = try EventLog.read(goldenPath)
            let registry = Lumatrace.registry
            let replay = try GoldenReplay(golden: golden, overrides: overrides, registry: registry, allowPrograms: allowPrograms,
                                          missingRecordingHint: "regress needs each recording beside its golden log; copy or link it there")
            result.notes = replay.versionNotes
            try replay.run(to: newPath, jobs: 1, registry: registry)
            let new = try EventLog.read(newPath)
            result.eventCounts = (golden.events.count, new.events.count)
            for (x, y) in zip(golden.header.analyzers, new.header.analyzers) {
                result.notes += LogDiff.programChanges(x, y).map { "\(result.name): the plugin changed: \($0)" }
            }
            let diff = try LogDiff(old: golden, new: new, tolerances: tolerances)
            result.diff = diff
            result.identical = FileManager.default.contentsEqual(atPath: goldenPath, andPath: newPath)
            let stem = URL(fileURLWithPath: golden.header.recordingFile).deletingPathExtension().lastPathComponent
            let truthPath = url.deletingLastPathComponent().appendingPathComponent(stem + ".truth.json").path
            if FileManager.default.fileExists(atPath: truthPath) {
                let truth = try Score.readTruth(truthPath, for: golden)
                let (a, b) = (try LogScore(log: golden, truth: truth), try LogScore(log: new, truth: truth))
                result.goldenScore = a
                result.newScore = b
                result.drops = ScoreDrop.drops(golden: a, new: b, tolerances: judge.scoreTolerances)
            }
            if judge.update {
                result.keptWorse = !result.identical && !result.drops.isEmpty && !judge.acceptWorse
                if !result.identical, !result.keptWorse {
                    guard rename(newPath, goldenPath) == 0 else {
                        throw CLIError("cannot replace \(goldenPath): \(String(cString: strerror(errno)))")
                    }
                    result.updated = true
                }
                result.passed = !result.keptWorse
            } else if judge.byScores, result.newScore != nil {
                result.passed = result.drops.isEmpty
            } else {
                result.passed = diff.isSame
            }
        } catch {
            result.error = "\(error)"
        }
        return result
    }

    var json: JSONValue {
        func score(_ s: LogScore?) -> JSONValue { s.map { Score.json($0) } ?? .null }
        let drops = drops.map { d in
            JSONValue.object(["metric": .string(d.metric.rawValue), "golden": .double(d.golden), "new": .double(d.new),
                              "tolerance": .double(d.tolerance)])
        }
        return .object([
            "golden": .string(name),
            "result": .string(error == nil ? (identical ? "identical" : diff?.isSame == true ? "within tolerance" : "changed") : "error"),
            "passed": .bool(passed),
            "events": eventCounts.map { .array([.int(Int64($0.0)), .int(Int64($0.1))]) } ?? .null,
            "diff": diff.map { Diff.json($0) } ?? .null,
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

    func store(_ result: RegressionResult, at index: Int) { slots.withLock { $0[index] = result } }

    var results: [RegressionResult] { slots.withLock { $0.map { $0! } } }
}

/// Hands out 0, 1, 2, … to whichever thread asks next.
private final class Counter: Sendable {
    private let value = Mutex(0)

    func take(below limit: Int) -> Int? {
        value.withLock {
            guard $0 < limit else { return nil }
            $0 += 1
            return $0 - 1
        }
    }
}
