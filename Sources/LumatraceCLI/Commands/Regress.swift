import ArgumentParser
import Foundation
import LumaEngine
import LumaTruth

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
              lumatrace regress Recordings/ --update      # bless the new logs

            Recordings run in parallel (--jobs); the output does not depend on it.
            Exit status: 0 every log identical or within the tolerances, 1 some
            differ (0 with --update, which rewrites and lists them), 2 error.
            """)

    @Argument(help: "The folder of recordings and golden logs.")
    var folder: String

    @Flag(help: "Rewrite the golden logs that changed with the new ones, and list them.")
    var update = false

    @Option(name: .customLong("set"), help: "Analyzer option NAME.KEY=VALUE to change in every golden that runs NAME (repeatable).")
    var settings: [String] = []

    @Option(help: "Recordings replayed at once (1...256).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Flag(help: "One JSON object on stdout instead of the table.")
    var json = false

    @OptionGroup var tolerance: ToleranceOptions

    @Flag(help: ArgumentHelp(stringLiteral: ProgramPermission.flagHelp))
    var allowExternal = false

    func validate() throws {
        guard (1...256).contains(jobs) else { throw ValidationError("--jobs \(jobs) is outside 1...256") }
    }

    func run() throws {
        let results: [RegressionResult]
        do {
            let overrides = try OptionOverrides(settings)
            let goldens = try Self.goldenLogs(in: folder)
            results = try Self.run(goldens, overrides: overrides, jobs: jobs, tolerances: tolerance.tolerances, update: update,
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
        if !update, results.contains(where: { $0.diff?.isSame == false }) { throw ExitCode(1) }
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
                    update: Bool, allowPrograms: Bool) throws -> [RegressionResult] {
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
                slots.store(RegressionResult.measure(goldens[i], ordinal: i, overrides: overrides, tolerances: tolerances, update: update,
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
            out += ["", "\(r.name):"] + Diff.lines(diff, indent: "  ")
        }
        let changed = results.filter { $0.diff?.isSame == false }.count, failed = results.filter { $0.error != nil }.count
        var summary = "\(results.count) recording\(results.count == 1 ? "" : "s"): \(results.count - changed - failed) unchanged, \(changed) changed"
        if failed > 0 { summary += ", \(failed) failed" }
        out += ["", summary]
        let updated = results.filter(\.updated).map(\.name)
        if update { out.append(updated.isEmpty ? "no golden log needed updating" : "updated: " + updated.joined(separator: ", ")) }
        return out
    }
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
    var updated = false
    var notes: [String] = []
    var error: String?

    var status: String {
        if error != nil { return "error" }
        guard let diff else { return "" }
        if identical { return "identical" }
        if diff.isSame { return "within tolerance" }
        return Diff.summary(diff)
    }

    static func measure(_ goldenPath: String, ordinal: Int, overrides: OptionOverrides, tolerances: LogDiff.Tolerances,
                        update: Bool, allowPrograms: Bool) -> RegressionResult {
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
            result.diff = try LogDiff(old: golden, new: new, tolerances: tolerances)
            result.identical = FileManager.default.contentsEqual(atPath: goldenPath, andPath: newPath)
            let stem = URL(fileURLWithPath: golden.header.recordingFile).deletingPathExtension().lastPathComponent
            let truthPath = url.deletingLastPathComponent().appendingPathComponent(stem + ".truth.json").path
            if FileManager.default.fileExists(atPath: truthPath) {
                let truth = try Score.readTruth(truthPath, for: golden)
                result.goldenScore = try LogScore(log: golden, truth: truth)
                result.newScore = try LogScore(log: new, truth: truth)
            }
            if update, !result.identical {
                guard rename(newPath, goldenPath) == 0 else {
                    throw CLIError("cannot replace \(goldenPath): \(String(cString: strerror(errno)))")
                }
                result.updated = true
            }
        } catch {
            result.error = "\(error)"
        }
        return result
    }

    var json: JSONValue {
        func score(_ s: LogScore?) -> JSONValue { s.map { Score.json($0) } ?? .null }
        return .object([
            "golden": .string(name),
            "result": .string(error == nil ? (identical ? "identical" : diff?.isSame == true ? "within tolerance" : "changed") : "error"),
            "events": eventCounts.map { .array([.int(Int64($0.0)), .int(Int64($0.1))]) } ?? .null,
            "diff": diff.map { Diff.json($0) } ?? .null,
            "goldenScore": score(goldenScore), "newScore": score(newScore),
            "updated": .bool(updated), "notes": .array(notes.map(JSONValue.string)),
            "error": error.map(JSONValue.string) ?? .null,
        ])
    }
}

/// Results filled in by index from several threads.
private final class ResultSlots: @unchecked Sendable {
    private var slots: [RegressionResult?]
    private let lock = NSLock()

    init(count: Int) { slots = [RegressionResult?](repeating: nil, count: count) }

    func store(_ result: RegressionResult, at index: Int) {
        lock.lock()
        slots[index] = result
        lock.unlock()
    }

    var results: [RegressionResult] { lock.withLock { slots.map { $0! } } }
}

/// Hands out 0, 1, 2, … to whichever thread asks next.
private final class Counter: @unchecked Sendable {
    private var value = 0
    private let lock = NSLock()

    func take(below limit: Int) -> Int? {
        lock.withLock {
            guard value < limit else { return nil }
            value += 1
            return value - 1
        }
    }
}
