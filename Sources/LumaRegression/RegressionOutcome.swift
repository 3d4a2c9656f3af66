import LumaAnalysis
import LumaBase

/// What `regress` reports about one recording, already rendered: its row of the summary table,
/// the lines after the table, its JSON, and the facts the summary line and the exit status count.
///
/// One machine prints the outcomes of its results; a shard writes them into its part file, and
/// `regress merge` prints the parts' outcomes in corpus order, so the two reports are the same
/// bytes by construction.
public struct RegressionOutcome: Sendable, Equatable {
    /// The golden log's file name.
    public var name: String
    /// Cells of the summary table, under ``columns``.
    public var row: [String]
    /// The summary table's headings, one per cell of ``row``.
    public static let columns = ["recording", "events", "result", "trajectory F1", "point error", "tracking AUC", "P@20px"]
    /// Lines printed after the table: an error, notes, the differences, worse scores.
    public var details: [String]
    /// The recording's object in the JSON report.
    public var json: JSONValue
    public var changed: Bool
    public var failed: Bool
    public var worse: Bool
    public var updated: Bool
    public var keptWorse: Bool
    /// Whether this recording lets the run pass.
    public var passed: Bool
    /// A shard's update: the new log the merge moves over the golden (not part of the report,
    /// which says `updated` as one machine would).
    public var staged: StagedGolden?
    /// The folder of the golden's recording relative to the corpus folder (or to `--recordings`),
    /// empty when it is beside the golden: the JUnit report's class name adds it to the corpus's.
    public var recordingFolder = ""
    /// How long the golden took to regress, in seconds, when the run was timed
    /// (`--junit-timings`); `nil` otherwise, so that an untimed run's reports and parts are the
    /// same bytes every time.
    public var seconds: Double?

    /// Renders `result`; `keptWorseHint` follows the line of a golden kept because its new log
    /// scores worse. `timed` keeps the result's ``RegressionResult/seconds``.
    public init(_ result: RegressionResult, keptWorseHint: String = "", timed: Bool = false) {
        name = result.name
        recordingFolder = result.recordingFile.map { String($0.split(separator: "/", omittingEmptySubsequences: true).dropLast().joined(separator: "/")) } ?? ""
        seconds = timed ? result.seconds : nil
        var row = [result.name, result.eventCounts.map { $0 == $1 ? "\($0)" : "\($0) → \($1)" } ?? "", result.status]
        let (a, b) = (result.goldenScore, result.newScore)
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
        self.row = row
        var details: [String] = []
        if let error = result.error {
            details += ["", "\(result.name): error: \(error)"]
        } else {
            details += result.notes.map { "note: \($0)" }
            if let diff = result.diff, !diff.isSame {
                details += ["", "\(result.name):"] + diff.lines(indent: "  ", oldName: "golden")
                details += result.drops.map { "  worse: \($0.description)" }
                if result.keptWorse { details.append("  not updated: the new log scores worse" + keptWorseHint) }
            }
        }
        self.details = details
        json = result.json
        changed = result.diff?.isSame == false
        failed = result.error != nil
        worse = !result.drops.isEmpty
        updated = result.updated
        keptWorse = result.keptWorse
        passed = result.passed
        staged = result.staged
    }

    /// The outcome as a part file holds it.
    public var encoded: JSONValue {
        var members: [JSONValue.Member] = [
            .init("name", .string(name)), .init("row", .array(row.map(JSONValue.string))), .init("details", .array(details.map(JSONValue.string))),
            .init("json", json), .init("changed", .bool(changed)), .init("failed", .bool(failed)), .init("worse", .bool(worse)),
            .init("updated", .bool(updated)), .init("keptWorse", .bool(keptWorse)), .init("passed", .bool(passed)),
            .init("staged", staged?.encoded ?? .null),
        ]
        // Written only when there is something to say, so an untimed run's part of a flat corpus
        // keeps the bytes it always had.
        if !recordingFolder.isEmpty { members.append(.init("recordingFolder", .string(recordingFolder))) }
        if let seconds { members.append(.init("seconds", .double(seconds))) }
        return .object(members)
    }

    /// An outcome read back from a part file; `nil` when `value` is not one.
    public init?(encoded value: JSONValue) {
        func strings(_ key: String) -> [String]? {
            value[key]?.arrayValue.flatMap { items in
                let texts = items.compactMap(\.stringValue)
                return texts.count == items.count ? texts : nil
            }
        }
        guard let name = value["name"]?.stringValue, let row = strings("row"), let details = strings("details"),
              let json = value["json"], let changed = value["changed"]?.boolValue, let failed = value["failed"]?.boolValue,
              let worse = value["worse"]?.boolValue, let updated = value["updated"]?.boolValue,
              let keptWorse = value["keptWorse"]?.boolValue, let passed = value["passed"]?.boolValue
        else { return nil }
        switch value["staged"] {
        case nil, .null?: staged = nil
        case let encoded?:
            guard let s = StagedGolden(encoded: encoded) else { return nil }
            staged = s
        }
        recordingFolder = value["recordingFolder"]?.stringValue ?? ""
        seconds = value["seconds"]?.doubleValue
        (self.name, self.row, self.details, self.json) = (name, row, details, json)
        (self.changed, self.failed, self.worse, self.updated, self.keptWorse, self.passed) = (changed, failed, worse, updated, keptWorse, passed)
    }
}
