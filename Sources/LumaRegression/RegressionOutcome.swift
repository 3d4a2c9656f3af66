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

    /// Renders `result`; `keptWorseHint` follows the line of a golden kept because its new log
    /// scores worse.
    public init(_ result: RegressionResult, keptWorseHint: String = "") {
        name = result.name
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
        .object([
            "name": .string(name), "row": .array(row.map(JSONValue.string)), "details": .array(details.map(JSONValue.string)),
            "json": json, "changed": .bool(changed), "failed": .bool(failed), "worse": .bool(worse), "updated": .bool(updated),
            "keptWorse": .bool(keptWorse), "passed": .bool(passed), "staged": staged?.encoded ?? .null,
        ])
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
        (self.name, self.row, self.details, self.json) = (name, row, details, json)
        (self.changed, self.failed, self.worse, self.updated, self.keptWorse, self.passed) = (changed, failed, worse, updated, keptWorse, passed)
    }
}
