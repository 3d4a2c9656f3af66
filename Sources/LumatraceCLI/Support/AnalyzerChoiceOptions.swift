import ArgumentParser
import Foundation
import LumaAnalysis
import LumaEngine
import LumaRegression

/// Which analyzers run, with which options: `--analyzer`, `--set`, `--pipeline`, `--spacing`,
/// `--roi`, `--allow-external`, shared by `replay` and `record` (which analyzes as it records).
struct AnalyzerChoiceOptions: ParsableArguments {
    @Option(name: .customLong("analyzer"), help: "Analyzer to run, or INSTANCE=ANALYZER to run it under a name of its own (repeatable; `lumatrace analyzers` lists them).", completion: Completions.analyzerName)
    var analyzers: [String] = []

    @Option(name: .customLong("set"), help: "Analyzer option NAME.KEY=VALUE (repeatable), e.g. differencing.threshold=15; VALUE @FILE reads it from FILE (e.g. tracking.seeds=@seeds.json).", completion: Completions.setting)
    var settings: [String] = []

    @Option(help: "A pipeline JSON file, or an event log whose header is re-used.", completion: .file(extensions: ["json", "jsonl"]))
    var pipeline: String?

    @Option(help: "Default frameAnalysisSpacing for every analyzer: seconds of recording time between analyzed frames (0 = every frame).")
    var spacing: Double?

    @Option(help: "Default regionOfInterest for every analyzer: x,y,width,height normalized with a lower-left origin.")
    var roi: String?

    @Flag(help: ArgumentHelp(stringLiteral: FlagHints.allowExternalHelp))
    var allowExternal = false

    /// Whether the user chose analyzers (rather than every analyzer that runs with its defaults).
    var isChosen: Bool { !analyzers.isEmpty || pipeline != nil }

    /// Whether any analyzer option was given.
    var isGiven: Bool { isChosen || !settings.isEmpty || spacing != nil || roi != nil }

    func validate() throws {
        if let spacing, !(spacing.isFinite && spacing >= 0 && spacing <= 3600) {
            throw ValidationError("--spacing \(spacing) is outside 0...3600 seconds")
        }
        if let roi {
            guard let r = NormalizedRect(parsing: roi) else { throw ValidationError("--roi '\(roi)' is not x,y,width,height, e.g. 0,0,0.5,1") }
            if let problem = r.problem { throw ValidationError("--roi \(roi): \(problem)") }
        }
    }

    /// The analyzers to run, with their paths (a plugin's folder) re-expressed relative to
    /// `logFolder`. Analyzers the user chose that can log nothing say so, once; among every
    /// analyzer run by default, an idle one is simply part of the set.
    func resolveSetups(registry: AnalyzerRegistry, logFolder: String) throws -> [AnalyzerSetup] {
        let setups = try setups(registry: registry, logFolder: logFolder)
        if isChosen {
            for setup in setups {
                if let reason = (try? registry.descriptor(named: setup.analyzer)).flatMap(setup.idleReason(with:)) {
                    warn("note: \(setup.name) will log nothing: \(reason)")
                }
            }
        }
        return setups
    }

    private func setups(registry: AnalyzerRegistry, logFolder: String) throws -> [AnalyzerSetup] {
        let defaultROI = roi.flatMap(NormalizedRect.init(parsing:)) ?? .full
        let defaultSpacing = spacing ?? 0
        let overrides = try OptionOverrides(settings)
        var setups: [AnalyzerSetup] = []
        if let pipeline {
            // An entry that --set completes (external's command) is checked once the values are in.
            setups = try PipelineFile.read(pipeline, registry: registry, validating: { overrides.settings(for: $0).isEmpty })
            let asFiled = setups
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
            // A program the file names runs only when allowed; one given with --set is the user's own.
            let fileDecides = zip(asFiled, setups).filter { filed, run in
                let descriptor = try? registry.descriptor(named: run.analyzer)
                return descriptor.map(filed.program(with:)) == descriptor.map(run.program(with:))
            }.map(\.1)
            try ProgramPermission.require(fileDecides, from: pipeline, registry: registry, allowed: allowExternal)
        }
        let everyAnalyzer = registry.descriptors.filter(\.runsWithDefaults).map(\.name)
        let choices = try (analyzers.isEmpty && pipeline == nil ? everyAnalyzer : analyzers).map { text in
            do throws(OptionError) { return try AnalyzerSetup.parseChoice(text) } catch { throw UsageError(error) }
        }
        // One named twice on the command line is a usage error (64); twice in a pipeline file, the
        // file's error (2, when the run is set up).
        var named = Set<String>()
        for (name, analyzer) in choices where !named.insert(name).inserted { throw UsageError(AnalyzerSetup.givenTwice(name, analyzer: analyzer)) }
        let fromPipeline = setups
        // An analyzer the pipeline runs already is not added again.
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
            throw CLIError("--set \(missing).…: analyzer '\(missing)' is not part of this run (add --analyzer \(missing))")
        }
        return setups
    }
}
