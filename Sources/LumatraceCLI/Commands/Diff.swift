import ArgumentParser
import Foundation
import LumaAnalysis
import LumaBase
import LumaEngine
import LumaFormat
import LumaRegression

struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compare two event logs of the same recording: observations added, lost or changed.",
        discussion: """
            A semantic diff, not a text diff: trajectories and tracks are paired by
            what they are, their overlap in time and space (never by id alone), then
            compared within tolerances; each difference is listed once.

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
            both logs may be two different observations. Its frames and "where (px)",
            the object's centre in its first and last frame (pixels from the top
            left), tell them apart.
            Exit status: 0 same within the tolerances, 1 different, 2 error.
            """)

    @Argument(help: "The old (golden) event log.", completion: Completions.eventLog)
    var old: String

    @Argument(help: "The new event log.", completion: Completions.eventLog)
    var new: String

    @OptionGroup var report: ReportFormatOption

    @OptionGroup var forcing: CompareOtherRecordingOption
    private var force: Bool { forcing.force }

    @Option(help: ArgumentHelp("The recording both logs were made from: each log is checked against its frames and exact times, so logs of one source recorded at two timescales (a file and a Y4M pipe) compare.",
                               valueName: "rec"))
    var recording: RecordingLocation?

    @OptionGroup var tolerance: ToleranceOptions

    func run() throws {
        try reportingErrors { try compare() }
    }

    private func compare() throws {
        let (a, b) = (try EventLog.read(old).declaringKinds(from: Lumatrace.registry), try EventLog.read(new).declaringKinds(from: Lumatrace.registry))
        let logs = [a, b], header = b.header
        var sameRecording = force
        if let recording {
            let reader = try openRecording(recording)
            for log in logs where try reader.framesDigest(atTimescale: log.header.timescale)?.hexString != log.header.recordingDigest {
                if !reader.hasIndex { throw RegressionError.recordingNotClosed(path: recording.description, log: log.path) }
                throw CLIError("\(log.path) is not a log of \(recording): its frames digest \(log.header.recordingDigest.prefix(12))… is not the recording's frames at \(log.header.timescale)/s")
            }
            sameRecording = true
        }
        let diff = try LogDiff(old: a, new: b, tolerances: tolerance.tolerances, force: sameRecording)
        if report.isJSON {
            var members = diff.json.objectValue ?? []
            members.insert(contentsOf: [.init("old", .string(old)), .init("new", .string(new))], at: 0)
            print(JSONValue.object(members).serialized)
        } else {
            print("\(old) → \(new) (recording \(header.recordingFile), \(Plural.count(header.frameCount, "frame")), \(header.width)x\(header.height))")
            for line in diff.lines() { print(line) }
        }
        for log in logs { log.warnIfIncomplete() }
        if !diff.isSame { throw ExitCode(1) }
    }
}
