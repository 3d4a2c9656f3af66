import ArgumentParser
import Foundation
import LumaAnalysis
import LumaEngine

struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compare two event logs of the same recording: observations added, lost or changed.",
        discussion: """
            A semantic diff, not a text diff: trajectories and tracks are paired by
            id and by overlap in time and space, then compared within tolerances;
            each difference is listed once.

              lumatrace diff golden.events.jsonl new.events.jsonl
              lumatrace diff golden.events.jsonl new.events.jsonl --json

            Trajectories added / lost / changed: points moved more than
            --point-tolerance pixels, frames gained or lost, confidence moved more
            than --confidence-tolerance, another end reason. Tracks added / lost /
            changed: boxes whose IoU with the old box falls below --iou-tolerance,
            other live frames, confidence, losses. Differencing statistics and any
            other event kind frame by frame. Changed analyzer options are listed.
            Each row gives the observation's id in the old and in the new log ("-"
            where it is in only one): ids are numbered per log, so the same id in
            both logs may be two different observations.
            Exit status: 0 same within the tolerances, 1 different, 2 error.
            """)

    @Argument(help: "The old (golden) event log.")
    var old: String

    @Argument(help: "The new event log.")
    var new: String

    @Flag(help: "One JSON object on stdout instead of the table.")
    var json = false

    @Flag(help: "Compare logs of different recordings anyway.")
    var force = false

    @OptionGroup var tolerance: ToleranceOptions

    func run() throws {
        let diff: LogDiff
        let header: EventLogHeader
        let logs: [EventLog]
        do {
            let (a, b) = (try EventLog.read(old), try EventLog.read(new))
            logs = [a, b]
            header = b.header
            diff = try LogDiff(old: a, new: b, tolerances: tolerance.tolerances, force: force)
        } catch {
            printError(error)
            throw ExitCode(2)
        }
        if json {
            var members = Self.json(diff).objectValue ?? []
            members.insert(contentsOf: [.init("old", .string(old)), .init("new", .string(new))], at: 0)
            print(JSONValue.object(members).serialized)
        } else {
            print("\(old) → \(new) (recording \(header.recordingFile), \(Plural.count(header.frameCount, "frame")), \(header.width)x\(header.height))")
            for line in Self.lines(diff) { print(line) }
        }
        for log in logs { log.warnIfIncomplete() }
        if !diff.isSame { throw ExitCode(1) }
    }

    /// The human report: settings changed, a table of changes with their details, a summary line.
    /// Each row names the observation's id in each log it is in (`oldName` heads the old log's
    /// column), as the same id in the two logs may be two different observations.
    static func lines(_ diff: LogDiff, indent: String = "", oldName: String = "old") -> [String] {
        var out: [String] = []
        if !diff.settingChanges.isEmpty {
            out.append(indent + "settings changed:")
            out += diff.settingChanges.map { indent + "  " + $0 }
        }
        guard !diff.isSame else {
            out.append(indent + "same: no differences beyond the tolerances")
            return out
        }
        var rows = [["change", "what", "\(oldName) id", "new id", "frames", "details"]]
        for c in diff.changes {
            let frames = c.frames.lowerBound == c.frames.upperBound ? "\(c.frames.lowerBound)" : "\(c.frames.lowerBound)…\(c.frames.upperBound)"
            let ids = [c.oldId, c.newId].map { $0.map { String($0.prefix(8)) } ?? "-" }
            rows.append([c.kind.rawValue, c.subject] + ids + [frames, c.details.first ?? ""])
            for more in c.details.dropFirst() { rows.append(["", "", "", "", "", more]) }
        }
        out += alignedRows(rows, indent: indent)
        out.append(indent + summary(diff))
        return out
    }

    /// `3 differences: 1 added, 1 lost, 1 changed`.
    static func summary(_ diff: LogDiff) -> String {
        guard !diff.isSame else { return "same" }
        let counts = [LogDiff.Change.Kind.added, .lost, .changed].compactMap { kind -> String? in
            let n = diff.changes.filter { $0.kind == kind }.count
            return n == 0 ? nil : "\(n) \(kind.rawValue)"
        }
        let n = diff.changes.count
        return "\(n) difference\(n == 1 ? "" : "s"): " + counts.joined(separator: ", ")
    }

    static func json(_ diff: LogDiff) -> JSONValue {
        let changes = diff.changes.map { c in
            JSONValue.object([
                "change": .string(c.kind.rawValue), "what": .string(c.subject),
                "oldId": c.oldId.map(JSONValue.string) ?? .null, "newId": c.newId.map(JSONValue.string) ?? .null,
                "frames": .array([.int(Int64(c.frames.lowerBound)), .int(Int64(c.frames.upperBound))]),
                "details": .array(c.details.map(JSONValue.string)),
            ])
        }
        func count(_ kind: LogDiff.Change.Kind) -> JSONValue { .int(Int64(diff.changes.filter { $0.kind == kind }.count)) }
        return .object([
            "same": .bool(diff.isSame),
            "settings": .array(diff.settingChanges.map(JSONValue.string)),
            "summary": .object(["added": count(.added), "lost": count(.lost), "changed": count(.changed)]),
            "changes": .array(changes),
        ])
    }
}
