import ArgumentParser
import Foundation
import LumaAnalysis
import LumaBase
import LumaEngine
import LumaFormat
import LumaRegression

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replay a recording through analyzers and write a deterministic event log.",
        discussion: """
              lumatrace replay clip.luma --analyzer differencing -o clip.events.jsonl
              lumatrace replay clip.luma --analyzer differencing --set differencing.threshold=15 --set differencing.mode=background
              lumatrace replay clip.luma --roi 0,0.5,1,0.5 --spacing 0.1        # every analyzer: top half, 10 frames/s
              lumatrace replay clip.luma --pipeline pipeline.json                 # analyzers and options from a file
              lumatrace replay clip.luma --pipeline golden.events.jsonl           # ...or from a log's header
            Without --analyzer or --pipeline every built-in analyzer that needs no option runs. A pipeline file is
            {"analyzers":[{"name":"differencing","frameAnalysisSpacing":0,"regionOfInterest":[0,0,1,1],
            "configuration":{"threshold":15}}]}, listing only the options it changes.

            One analyzer can run more than once under names of its own (INSTANCE=ANALYZER), each with
            its own options and events, e.g. trajectory at two lengths side by side, or two programs:
              lumatrace replay clip.luma --analyzer short=trajectory --analyzer long=trajectory \\
                --set short.trajectoryLength=6 --set long.trajectoryLength=15
              lumatrace replay clip.luma --analyzer hist=external --analyzer blobs=external \\
                --set hist.command="python3 hist.py" --set blobs.command="./blobs"
            (in a pipeline file: {"name":"short","analyzer":"trajectory",…}).
            The log is byte-identical for the same recording and settings, whatever --jobs is.
            """)

    @Argument(help: "The .luma recording: a path, or an http(s):// URL read with range requests.", completion: Completions.recording)
    var recording: RecordingLocation

    @OptionGroup var choice: AnalyzerChoiceOptions

    @Option(name: .shortAndLong, help: "The event log to write (default: RECORDING's name with .events.jsonl, in the current folder); - for standard output.")
    var output: String?

    @OptionGroup var replacing: ReplaceResultOption
    private var force: Bool { replacing.replacesExisting }


    @OptionGroup var frames: FrameRangeOptions

    @OptionGroup var parallel: JobsOption
    private var jobs: Int { parallel.count }

    @Flag(help: "Replay around damaged chunks, logging each gap, instead of stopping at the first.")
    var skipDamaged = false

    @Option(help: "Folder for analyzers' debug images (e.g. differencing writes each difference image as PGM).")
    var dump: String?

    func run() throws {
        try reportingErrors {
            let registry = Lumatrace.registry
            let logPath = output ?? URL(fileURLWithPath: recording.fileName).deletingPathExtension().lastPathComponent + ".events.jsonl"
            let setups = try choice.resolveSetups(registry: registry, logFolder: ConfigurationFolder.of(logPath))
            let reader = try openRecording(recording)
            let range = try frames.range(in: reader)
            if let dump { try FileManager.default.createDirectory(atPath: dump, withIntermediateDirectories: true) }
            let progress = ProgressBar("replaying")
            var options = ReplayOptions(frames: range, skipDamaged: skipDamaged, jobs: jobs, debugOutputDirectory: dump,
                                        progress: { progress.update($0, $1) })
            options.replaceExistingLog = force
            options.warning = { warn("warning: " + $0) }
            options.otherInputs = choice.pipeline.map { [$0] } ?? []
            options.configurationFolder = ConfigurationFolder.of(logPath)
            options.memoryBudget = try memoryBudget()
            let footer: EventLogFooter
            do {
                footer = try LumaEngine.Replay.run(reader, setups: setups, registry: registry, options: options, logPath: logPath)
            } catch {
                progress.finish()
                throw error
            }
            progress.finish()
            // With the log on standard output, the summary goes to stderr so the stream stays JSON Lines.
            let say: (String) -> Void = logPath == "-" ? { printOnStandardError($0) } : { print($0) }
            say("replayed \(Plural.count(footer.framesReplayed, "frame")) of \(recording) → \(logPath == "-" ? "standard output" : logPath)")
            say("events: \(footer.eventCount)")
            for line in Self.countLines(footer.counts, setups: setups, registry: registry) { say(line) }
        }
    }

    /// The summary's count of each analyzer run, in the order they ran: a line per event kind it
    /// logged, or one line with 0 and why (settings that can log nothing say what to set; otherwise
    /// it ran and found nothing), so that "found nothing" never reads like "did not run".
    static func countLines(_ counts: [(analyzer: String, kind: String, count: Int)], setups: [AnalyzerSetup], registry: AnalyzerRegistry) -> [String] {
        func row(_ name: String, _ count: Int) -> String { "  \(name)".padding(toLength: 32, withPad: " ", startingAt: 0) + "\(count)" }
        var lines: [String] = []
        for setup in setups {
            let own = counts.filter { $0.analyzer == setup.name }
            guard own.isEmpty else {
                lines += own.map { row("\($0.analyzer).\($0.kind)", $0.count) }
                continue
            }
            let reason = (try? registry.descriptor(named: setup.analyzer)).flatMap(setup.idleReason(with:))
            lines.append(row(setup.name, 0) + "  " + (reason.map { "logs nothing: " + $0 } ?? "ran and found nothing"))
        }
        let named = Set(setups.map(\.name))
        lines += counts.filter { !named.contains($0.analyzer) }.map { row("\($0.analyzer).\($0.kind)", $0.count) }
        return lines
    }
}
