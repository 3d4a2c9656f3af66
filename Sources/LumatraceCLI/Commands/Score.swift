import ArgumentParser
import Foundation
import LumaAnalysis
import LumaEngine
import LumaTruth

struct Score: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Score an event log against ground truth: trajectory recall/precision/F1, tracking success AUC.",
        discussion: """
              lumatrace score balls.events.jsonl --truth balls.truth.json
              lumatrace score crossing.events.jsonl --truth crossing.truth.json --json

            Trajectories (trajectory.end events) against the truth's ball segments:
            a segment is found when a trajectory follows it (points within 2 px +
            half the ball's radius on 80% of their shared frames, covering half the
            segment). Prints recall, precision, F1 and the point error of correct
            trajectories (median, 90th percentile, pixels). Segments shorter than
            --minimum-segment-frames are not counted.
            Tracks (track events) against the truth's object tracks, one-pass like
            OTB: success AUC (IoU thresholds 0, 0.05, …, 1), precision at 20 px and
            the number of track.lost events.
            A log that ran an analyzer under several names (--analyzer short=trajectory
            --analyzer long=trajectory) is scored one instance at a time: --analyzer short.
            `lumatrace truth import` converts OTB, VOT and TrackNet labels to truth.
            """)

    @Argument(help: "The event log to score.")
    var log: String

    @Option(help: "The ground truth file (*.truth.json).")
    var truth: String

    @Flag(help: "One JSON object on stdout instead of the table.")
    var json = false

    @Option(help: "Truth segments with fewer frames are not counted (1...10000).")
    var minimumSegmentFrames = 10

    @Option(help: "Score only the events of this analyzer (its instance name in the log's header); default: all of them.")
    var analyzer: String?

    func validate() throws {
        guard (1...10000).contains(minimumSegmentFrames) else {
            throw ValidationError("--minimum-segment-frames \(minimumSegmentFrames) is outside 1...10000")
        }
    }

    func run() throws {
        try reportingErrors {
            var events = try EventLog.read(log)
            if let analyzer {
                let names = events.header.analyzers.map(\.name)
                guard names.contains(analyzer) else {
                    throw CLIError("--analyzer \(analyzer): \(log) has no analyzer of that name (it has \(names.joined(separator: ", ")))")
                }
                events.events.removeAll { $0.analyzer != analyzer }
            }
            let truth = try Self.readTruth(truth, for: events)
            let score = try LogScore(log: events, truth: truth, minimumSegmentFrames: minimumSegmentFrames)
            if json {
                print(JSONValue.object([.init("log", .string(log)), .init("truth", .string(self.truth))] + (Self.json(score).objectValue ?? [])).serialized)
            } else {
                print("\(log) against \(self.truth)")
                for line in Self.lines(score) { print(line) }
            }
            events.warnIfIncomplete()
        }
    }

    /// Reads a truth file and checks that it describes the log's recording.
    static func readTruth(_ path: String, for log: EventLog) throws -> GroundTruth {
        let truth = try GroundTruth.read(path)
        try truth.check(againstFrames: log.header.frameCount, width: log.header.width, height: log.header.height, path: path)
        return truth
    }

    static func lines(_ score: LogScore, indent: String = "") -> [String] {
        var out: [String] = []
        if let t = score.trajectories {
            out += alignedRows([
                ["trajectories", "segments", "found", "reported", "correct", "recall", "precision", "F1", "error median", "error p90"],
                ["", "\(t.segments)", "\(t.found)", "\(t.trajectories)", "\(t.correct)", DecimalText.fixed(t.recall, 3),
                 DecimalText.fixed(t.precision, 3), DecimalText.fixed(t.f1, 3),
                 DecimalText.fixed(t.medianError, 2) + " px", DecimalText.fixed(t.error90, 2) + " px"],
            ], rightAligned: Set(1...9), indent: indent)
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

    static func json(_ score: LogScore) -> JSONValue {
        var members: [JSONValue.Member] = []
        if let t = score.trajectories {
            members.append(.init("trajectories", .object([
                "segments": .int(Int64(t.segments)), "found": .int(Int64(t.found)), "reported": .int(Int64(t.trajectories)),
                "correct": .int(Int64(t.correct)), "fragments": .int(Int64(t.fragments)),
                "recall": .double(t.recall), "precision": .double(t.precision), "f1": .double(t.f1),
                "medianErrorPixels": .double(t.medianError), "p90ErrorPixels": .double(t.error90),
                "missed": .array(t.missed.map(JSONValue.string)), "notInTruth": .array(t.falseAlarms.map(JSONValue.string)),
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
