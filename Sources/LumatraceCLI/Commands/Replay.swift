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

    @Argument(help: "The .luma recording.")
    var recording: String

    @Option(name: .customLong("analyzer"), help: "Analyzer to run, or INSTANCE=ANALYZER to run it under a name of its own (repeatable; `lumatrace analyzers` lists them).")
    var analyzers: [String] = []

    @Option(name: .customLong("set"), help: "Analyzer option NAME.KEY=VALUE (repeatable), e.g. differencing.threshold=15; VALUE @FILE reads it from FILE (e.g. tracking.seeds=@seeds.json).")
    var settings: [String] = []

    @Option(help: "A pipeline JSON file, or an event log whose header is re-used.")
    var pipeline: String?

    @Option(help: "Default frameAnalysisSpacing for every analyzer: seconds of recording time between analyzed frames (0 = every frame).")
    var spacing: Double?

    @Option(help: "Default regionOfInterest for every analyzer: x,y,width,height normalized with a lower-left origin.")
    var roi: String?

    @Option(name: .shortAndLong, help: "The event log to write (default: RECORDING's name with .events.jsonl, in the current folder); - for standard output.")
    var output: String?

    @Flag(help: "Replace an existing log (only once the new one is complete; a failed replay never replaces it).")
    var force = false

    @Flag(help: ArgumentHelp(stringLiteral: FlagHints.allowExternalHelp))
    var allowExternal = false

    @OptionGroup var frames: FrameRangeOptions

    @Option(help: "Threads for decoding ahead and running analyzers side by side (1...256). The log does not depend on it.")
    var jobs: Int = min(ProcessInfo.processInfo.activeProcessorCount, 8)

    @Flag(help: "Replay around damaged chunks, logging each gap, instead of stopping at the first.")
    var skipDamaged = false

    @Option(help: "Folder for analyzers' debug images (e.g. differencing writes each difference image as PGM).")
    var dump: String?

    func validate() throws {
        guard (1...256).contains(jobs) else { throw ValidationError("--jobs \(jobs) is outside 1...256") }
        if let spacing, !(spacing.isFinite && spacing >= 0 && spacing <= 3600) {
            throw ValidationError("--spacing \(spacing) is outside 0...3600 seconds")
        }
        if let roi {
            guard let r = NormalizedRect(parsing: roi) else { throw ValidationError("--roi '\(roi)' is not x,y,width,height, e.g. 0,0,0.5,1") }
            if let problem = r.problem { throw ValidationError("--roi \(roi): \(problem)") }
        }
    }

    func run() throws {
        try reportingErrors {
            let registry = Lumatrace.registry
            let logPath = output ?? URL(fileURLWithPath: recording).deletingPathExtension().lastPathComponent + ".events.jsonl"
            let setups = try resolveSetups(registry: registry, logFolder: ConfigurationFolder.of(logPath))
            // Analyzers the user chose that can log nothing say so, once; in the default "every
            // analyzer" replay, an idle one is simply part of the set.
            if !analyzers.isEmpty || pipeline != nil {
                for setup in setups {
                    if let reason = try? registry.descriptor(named: setup.analyzer).idleReason(in: setup.configuration) {
                        warn("note: \(setup.name) will log nothing: \(reason)")
                    }
                }
            }
            let reader = try RecordingReader(path: recording)
            let range = try frames.range(in: reader)
            if let dump { try FileManager.default.createDirectory(atPath: dump, withIntermediateDirectories: true) }
            let progress = ProgressBar("replaying")
            var options = ReplayOptions(frames: range, skipDamaged: skipDamaged, jobs: jobs, debugOutputDirectory: dump,
                                        progress: { progress.update($0, $1) })
            options.replaceExistingLog = force
            options.warning = { warn("warning: " + $0) }
            options.otherInputs = pipeline.map { [$0] } ?? []
            options.configurationFolder = ConfigurationFolder.of(logPath)
            let footer: EventLogFooter
            do {
                footer = try LumaEngine.Replay.run(reader, setups: setups, registry: registry, options: options, logPath: logPath)
            } catch {
                progress.finish()
                throw error
            }
            progress.finish()
            // With the log on standard output, the summary goes to stderr so the stream stays JSON Lines.
            let say: (String) -> Void = logPath == "-" ? { FileHandle.standardError.write(Data(($0 + "\n").utf8)) } : { print($0) }
            say("replayed \(Plural.count(footer.framesReplayed, "frame")) of \(recording) → \(logPath == "-" ? "standard output" : logPath)")
            say("events: \(footer.eventCount)")
            for c in footer.counts { say("  \(c.analyzer).\(c.kind)".padding(toLength: 32, withPad: " ", startingAt: 0) + "\(c.count)") }
        }
    }

    /// The replay's analyzers, with their paths (a plugin's folder) re-expressed relative to `logFolder`.
    func resolveSetups(registry: AnalyzerRegistry, logFolder: String) throws -> [AnalyzerSetup] {
        let defaultROI = roi.flatMap(NormalizedRect.init(parsing:)) ?? .full
        let defaultSpacing = spacing ?? 0
        let overrides = try OptionOverrides(settings)
        var setups: [AnalyzerSetup] = []
        if let pipeline {
            setups = try PipelineFile.read(pipeline, registry: registry)
            try ProgramPermission.require(setups, from: pipeline, registry: registry, allowed: allowExternal)
            for i in setups.indices {
                if spacing != nil { setups[i].frameAnalysisSpacing = defaultSpacing }
                if roi != nil { setups[i].regionOfInterest = defaultROI }
                try overrides.explaining { try setups[i].apply(overrides.settings(for: setups[i].name), with: registry.descriptor(named: setups[i].analyzer)) }
                // Paths in a pipeline file are relative to its folder (a --set value to the current one: below).
                let setByUser = overrides.settings(for: setups[i].name).map(\.key)
                let pathKeys = try registry.descriptor(named: setups[i].analyzer).pathOptions
                if !pathKeys.contains(where: setByUser.contains) {
                    try ConfigurationFolder.rebase(&setups[i], registry: registry, from: ConfigurationFolder.of(pipeline), to: logFolder)
                }
            }
        }
        let everyAnalyzer = registry.descriptors.filter(\.runsWithDefaults).map(\.name)
        let choices = try (analyzers.isEmpty && pipeline == nil ? everyAnalyzer : analyzers).map(AnalyzerSetup.parseChoice)
        let fromPipeline = setups
        // An analyzer the pipeline runs already is not added again; one named twice on the command line is refused.
        for (name, analyzer) in choices where !fromPipeline.contains(where: { $0.name == name && $0.analyzer == analyzer }) {
            // With its --set options at once: some analyzers have no valid defaults (external needs a command).
            setups.append(try overrides.explaining {
                try AnalyzerSetup.resolve(registry.descriptor(named: analyzer), instance: name, overrides: overrides.settings(for: name),
                                          spacing: defaultSpacing, roi: defaultROI)
            })
        }
        // Paths given on the command line (or left at their default) are relative to the current folder.
        let cwd = ConfigurationFolder.current
        for i in setups.indices where i >= fromPipeline.count || overrides.settings(for: setups[i].name).contains(where: { setting in
            (try? registry.descriptor(named: setups[i].analyzer).pathOptions.contains(setting.key)) == true
        }) {
            try ConfigurationFolder.rebase(&setups[i], registry: registry, from: cwd, to: logFolder)
        }
        if let missing = overrides.analyzers.first(where: { name in !setups.contains { $0.name == name } }) {
            throw CLIError("--set \(missing).…: analyzer '\(missing)' is not part of this replay (add --analyzer \(missing))")
        }
        return setups
    }
}
