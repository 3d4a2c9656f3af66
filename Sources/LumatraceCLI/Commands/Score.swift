import ArgumentParser
import Foundation
import LumaAnalysis
import LumaEngine
import LumaRegression
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

    @Argument(help: "The event log to score.", completion: Completions.eventLog)
    var log: String

    @Option(help: "The ground truth file (*.truth.json).", completion: Completions.json)
    var truth: String

    @OptionGroup var report: ReportFormatOption

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
            var events = try EventLog.read(log).declaringKinds(from: Lumatrace.registry)
            if let analyzer {
                let names = events.header.analyzers.map(\.name)
                guard names.contains(analyzer) else {
                    throw CLIError("--analyzer \(analyzer): \(log) has no analyzer of that name (it has \(names.joined(separator: ", ")))")
                }
                events = events.keepingOnly(analyzer)
            }
            let truth = try GroundTruth.read(truth, for: events)
            let score = try LogScore(log: events, truth: truth, minimumSegmentFrames: minimumSegmentFrames)
            if report.isJSON {
                print(JSONValue.object([.init("log", .string(log)), .init("truth", .string(self.truth))] + (score.json.objectValue ?? [])).serialized)
            } else {
                print("\(log) against \(self.truth)")
                for line in score.lines() { print(line) }
            }
            events.warnIfIncomplete()
        }
    }
}
