import Foundation
import LumaAnalysis
import LumaBase
import LumaEngine

/// A diff as people and programs read it: a table of changes, a summary line, JSON.
extension LogDiff {
    /// The human report: settings changed, a table of changes with their details, a summary line.
    /// Each row names the observation's id in each log it is in (`oldName` heads the old log's
    /// column), as the same id in the two logs may be two different observations, and where it
    /// is: its frames, and its centre in pixels from the top left, first frame → last frame.
    public func lines(indent: String = "", oldName: String = "old") -> [String] {
        let diff = self
        var out: [String] = []
        if !diff.settingChanges.isEmpty {
            out.append(indent + "settings changed:")
            out += diff.settingChanges.map { indent + "  " + $0 }
        }
        guard !diff.isSame else {
            out.append(indent + "same: no differences beyond the tolerances")
            return out
        }
        var rows = [["change", "what", "\(oldName) id", "new id", "frames", "where (px)", "details"]]
        for c in diff.changes {
            let frames = c.frames.lowerBound == c.frames.upperBound ? "\(c.frames.lowerBound)" : "\(c.frames.lowerBound)…\(c.frames.upperBound)"
            let ids = [c.oldId, c.newId].map { $0.map { String($0.prefix(8)) } ?? "-" }
            rows.append([c.kind.rawValue, c.subject] + ids + [frames, c.place?.text ?? "", c.details.first ?? ""])
            for more in c.details.dropFirst() { rows.append(["", "", "", "", "", "", more]) }
        }
        out += alignedRows(rows, indent: indent)
        out.append(indent + summary)
        return out
    }

    /// `3 differences: 1 added, 1 lost, 1 changed`.
    public var summary: String {
        let diff = self
        guard !diff.isSame else { return "same" }
        let counts = [LogDiff.Change.Kind.added, .lost, .changed].compactMap { kind -> String? in
            let n = diff.changes.filter { $0.kind == kind }.count
            return n == 0 ? nil : "\(n) \(kind.rawValue)"
        }
        let n = diff.changes.count
        return "\(n) difference\(n == 1 ? "" : "s"): " + counts.joined(separator: ", ")
    }

    public var json: JSONValue {
        let diff = self
        let changes = diff.changes.map { c in
            JSONValue.object([
                "change": .string(c.kind.rawValue), "what": .string(c.subject),
                "oldId": c.oldId.map(JSONValue.string) ?? .null, "newId": c.newId.map(JSONValue.string) ?? .null,
                "frames": .array([.int(Int64(c.frames.lowerBound)), .int(Int64(c.frames.upperBound))]),
                "place": c.place?.json ?? .null,
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

extension LogDiff.Place {
    /// `112,40 → 250,131`: whole pixels, first frame → last frame.
    public var text: String {
        func point(_ p: SIMD2<Double>) -> String { DecimalText.fixed(p.x, 0) + "," + DecimalText.fixed(p.y, 0) }
        return point(start) + " → " + point(end)
    }

    /// `{"start": [x, y], "end": [x, y]}`, pixels to a tenth.
    public var json: JSONValue {
        func point(_ p: SIMD2<Double>) -> JSONValue { .array([.double((p.x * 10).rounded() / 10), .double((p.y * 10).rounded() / 10)]) }
        return .object(["start": point(start), "end": point(end)])
    }
}
