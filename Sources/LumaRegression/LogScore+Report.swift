import Foundation
import LumaAnalysis
import LumaBase
import LumaEngine
import LumaTruth

extension GroundTruth {
    /// Reads a truth file and checks that it describes the log's recording (its frame count, when
    /// the log knows it: a log cut short before its footer does not).
    public static func read(_ path: String, for log: EventLog) throws -> GroundTruth {
        let truth = try GroundTruth.read(path)
        try truth.check(againstFrames: log.header.knowsRecording ? log.header.frameCount : Int.max, width: log.header.width,
                        height: log.header.height, path: path)
        return truth
    }
}

/// A score as people and programs read it: text tables, JSON.
extension LogScore {
    /// The score as text tables.
    public func lines(indent: String = "") -> [String] {
        let score = self
        var out: [String] = []
        if let t = score.trajectories {
            out += alignedRows([
                ["trajectories", "segments", "found", "reported", "correct", "recall", "precision", "F1", "error median", "error p90"],
                ["", "\(t.segments)", "\(t.found)", "\(t.trajectories)", "\(t.correct)", DecimalText.fixed(t.recall, 3),
                 DecimalText.fixed(t.precision, 3), DecimalText.fixed(t.f1, 3),
                 DecimalText.fixed(t.medianError, 2) + " px", DecimalText.fixed(t.error90, 2) + " px"],
            ], rightAligned: Set(1...9), indent: indent)
            let p = t.points
            out.append(indent + "  points: \(p.coveredTruthPoints) of \(p.truthPoints) truth ball positions covered (\(DecimalText.fixed(p.coverage, 3))), "
                       + "\(p.pathPointsOnBall) of \(p.pathPoints) path points on a ball (\(DecimalText.fixed(p.precision, 3)))"
                       + (p.unjudgedPathPoints > 0 ? "; \(p.unjudgedPathPoints) in frames the truth leaves out" : ""))
            if !t.missed.isEmpty { out.append(indent + "  missed: " + t.missed.joined(separator: ", ")) }
            if !t.falseAlarms.isEmpty { out.append(indent + "  not in truth: " + t.falseAlarms.map { String($0.prefix(8)) }.joined(separator: ", ")) }
        }
        if let k = score.tracking {
            var rows = [["tracking", "track", "frames", "success AUC", "P@20px", "lost"]]
            for o in k.objects {
                rows.append([o.id, o.track.map { String($0.prefix(8)) } ?? "(none)", "\(o.frames)", DecimalText.fixed(o.successAUC, 3),
                             DecimalText.fixed(o.precision20, 3), "\(o.losses)"])
            }
            rows.append(["all", "", "\(k.objects.reduce(0) { $0 + $1.frames })", DecimalText.fixed(k.successAUC, 3),
                         DecimalText.fixed(k.precision20, 3), "\(k.losses)"])
            out += alignedRows(rows, rightAligned: [2, 3, 4, 5], indent: indent)
            if k.unpairedTracks > 0 { out.append(indent + "  tracks not in truth: \(k.unpairedTracks)") }
        }
        if out.isEmpty { out.append(indent + "nothing to score: the truth has no ball segments and no object tracks") }
        return out
    }

    public var json: JSONValue {
        let score = self
        var members: [JSONValue.Member] = []
        if let t = score.trajectories {
            let p = t.points
            let points: JSONValue = .object([
                "truth": .int(Int64(p.truthPoints)), "covered": .int(Int64(p.coveredTruthPoints)), "coverage": .double(p.coverage),
                "path": .int(Int64(p.pathPoints)), "onBall": .int(Int64(p.pathPointsOnBall)), "precision": .double(p.precision),
                "unjudged": .int(Int64(p.unjudgedPathPoints)),
            ])
            members.append(.init("trajectories", .object([
                "segments": .int(Int64(t.segments)), "found": .int(Int64(t.found)), "reported": .int(Int64(t.trajectories)),
                "correct": .int(Int64(t.correct)), "fragments": .int(Int64(t.fragments)),
                "recall": .double(t.recall), "precision": .double(t.precision), "f1": .double(t.f1),
                "medianErrorPixels": .double(t.medianError), "p90ErrorPixels": .double(t.error90),
                "missed": .array(t.missed.map(JSONValue.string)), "notInTruth": .array(t.falseAlarms.map(JSONValue.string)),
                "points": points,
            ])))
        }
        if let k = score.tracking {
            let objects = k.objects.map { o in
                JSONValue.object([
                    "id": .string(o.id), "track": o.track.map(JSONValue.string) ?? .null, "frames": .int(Int64(o.frames)),
                    "successAUC": .double(o.successAUC), "precision20": .double(o.precision20), "losses": .int(Int64(o.losses)),
                ])
            }
            members.append(.init("tracking", .object([
                "successAUC": .double(k.successAUC), "precision20": .double(k.precision20), "losses": .int(Int64(k.losses)),
                "tracksNotInTruth": .int(Int64(k.unpairedTracks)), "objects": .array(objects),
            ])))
        }
        return .object(members)
    }
}
