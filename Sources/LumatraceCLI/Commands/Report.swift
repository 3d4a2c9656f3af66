import ArgumentParser
import Foundation
import LumaAnalysis
import LumaBase
import LumaEngine
import LumaFormat
import LumaRegression
import LumaRender
import LumaTruth
import LumaOutput

struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write one self-contained HTML page about a replay: facts, a timeline, the scene, every analyzer's output, scores.",
        discussion: """
              lumatrace report clip.luma --events clip.events.jsonl -o report.html
              lumatrace report clip.luma --events clip.events.jsonl --truth clip.truth.json -o report.html

            The page needs no network: images are inline PNG, plots inline SVG, and a
            small inline script filters by analyzer. It shows the recording's facts (its
            duration from the frames' own timestamps), a timeline of every analyzer's
            events, a still of the scene (the median of frames sampled across the
            recording) with trajectories, track paths and rectangles drawn over it and
            labelled, and a section per analyzer: its configuration as a table, its
            events, the changed fraction over time (differencing), its rectangles, a
            table of trajectories (frames, launch angle and speed, apex, confidence,
            why it ended) with a plot of each, and its tracks. Every time axis is in
            seconds from the first frame, at the frames' real times. With --truth, the
            scores of `lumatrace score`, and misses (orange) and false alarms (white)
            on the still.
            """)

    @Argument(help: "The .luma recording: a path, or an http(s):// URL read with range requests.", completion: Completions.recording)
    var recording: RecordingLocation

    @Option(help: "The event log (made from this recording).", completion: Completions.eventLog)
    var events: String

    @Option(help: "Ground truth to score against (*.truth.json).", completion: Completions.json)
    var truth: String?

    @Option(name: .shortAndLong, help: "The HTML file to write.")
    var output: String

    @OptionGroup var forcing: DrawOtherRecordingOption
    private var force: Bool { forcing.force }

    func run() throws {
        try reportingErrors {
            guard ["html", "htm"].contains(URL(fileURLWithPath: output).pathExtension.lowercased()) else {
                throw CLIError("-o \(output): a report is an .html file")
            }
            let file = try OutputFile.create(output, replacingExisting: force, inputs: [recording.filePath, events, truth].compactMap { $0 }, kind: .page,
                                             streams: .allowed)
            let log = try EventLog.read(events).declaringKinds(from: Lumatrace.registry)
            let reader = try openRecording(recording)
            let digest = try OutputChecks.requireSameRecording(log, reader: reader, recording: recording, force: force)
            let groundTruth = try truth.map { try GroundTruth.read($0, for: log) }
            var report = ReportPage(recording: recording, reader: reader, digest: digest, logPath: events, log: log,
                                    truthPath: truth, truth: groundTruth)
            for setup in log.header.analyzers {
                if let reason = (try? Lumatrace.registry.descriptor(named: setup.analyzer)).flatMap(setup.idleReason(with:)) {
                    report.idleReasons[setup.name] = reason
                }
            }
            let page = try report.html()
            try file.write(page)
            try file.commit()
            print("report on \(recording) (\(Plural.count(log.events.count, "event"))) → \(output) (\(page.utf8.count) bytes)")
            log.warnIfIncomplete()
        }
    }
}
