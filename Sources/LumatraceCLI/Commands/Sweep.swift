import ArgumentParser
import Foundation
import LumaAnalysis
import LumaBase
import LumaEngine
import LumaOutput
import LumaRegression
import LumaRender

struct Sweep: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Tune an analyzer over a corpus: replay each recording once through a grid of settings and score every setting against the truth.",
        discussion: """
              lumatrace sweep Recordings/ --analyzer trajectory \\
                --grid trajectory.trajectoryLength=8,10,15 \\
                --grid trajectory.objectMinimumNormalizedRadius=0.005:0.02:4 \\
                -o sweep-out

            CORPUS is a folder: every *.luma with STEM.truth.json beside it is
            scored, in name order (recordings without truth are named and left out).

            The grid:
              --grid NAME.KEY=V1,V2,V3       a list of values
              --grid NAME.KEY=FROM:TO:COUNT  COUNT evenly spaced values, both ends
                                             included: whole numbers for an integer
                                             option, else the log's fixed decimals
                                             (0.005:0.02:4 is 0.005,0.01,0.015,0.02)
            A value holding commas (a box, a list, JSON) is written in double
            quotes, the quotes removed, or in [ ] or { }, kept as written:
              --grid 'tracking.seeds="a=0.1,0.1,0.2,0.2","a=0.3,0.3,0.2,0.2"'
            A list that could be one value or several is refused.
            Several --grid make the product; the first --grid changes slowest.
            --random N --seed S draws N distinct settings instead: one of a list's
            values, a number uniformly in a range written FROM:TO (whole for an
            integer option; FROM:TO:COUNT stays its list), from SplitMix64 (the same
            seed, the same settings, on any machine); a drawn setting the analyzer
            refuses is drawn again.
            Settings are numbered in that order (s01, s02, ...). --set fixes an
            option for every setting. Every value is checked by the analyzer's own
            rules before anything runs. A grid holds at most \(SweepGrid.maximumSettings) settings.

            Each recording is decoded once per pass: one replay runs one instance of
            the analyzer per setting, as many as fit the memory budget (4 GiB, or
            \(MemoryBudget.variable): bytes, or a whole number with K, M, G or T, e.g. 8G)
            beside the decoding of the corpus's largest frames, by what the analyzer
            says an instance keeps per pixel, and at most \(AnalyzerSetup.instanceLimit) (the instance
            limit, \(AnalyzerSetup.instanceLimitVariable)); a larger grid takes several passes,
            with the same outputs. When not one instance fits, the sweep is refused
            with the memory it would need. Logs stay in memory (--keep-logs DIR writes each setting's log
            of each recording, DIR/STEM.ID.events.jsonl). Each instance is scored as
            `lumatrace score LOG --analyzer INSTANCE` scores it.

            Written into the folder -o OUT (new or empty; --force replaces one a
            sweep wrote; never inside CORPUS):
              sweep.txt   the settings in grid order, pooled over the corpus, the
                          best, then a table per recording
              sweep.json  the same, with counts; sweep.csv: one row per setting
                          pooled (recording *) and per setting and recording
            Pooled: counts summed over the recordings, then the ratios. --best names
            the best setting (a tie goes to the earlier) and the `replay` flags that
            reproduce it, by what `score` gives for the analyzer's events: f1 (the
            default), recall or precision for trajectories; success-auc (the
            default) or precision20 for tracks. An analyzer whose events are only
            counted (differencing, rectangles) has no best. The outputs are
            byte-identical for the same corpus and grid, whatever --jobs is.

            An interrupted sweep resumes: each recording's scores are stored in
            OUT/scores/STEM.json as soon as every setting has been scored on it, and
            the same command with the same -o OUT scores only the recordings not yet
            stored (a stored file of another grid, analyzer, recording or truth is
            refused, naming it; --force starts over). The outputs are written once
            every recording is scored, and OUT/scores goes with them. The unfinished
            output folder a killed sweep leaves beside OUT (.OUT.PID-N.partial) is
            removed by the next run with the same -o OUT.

            Across machines: --shard K/N -o PART.json scores shard K's share of the
            recordings × passes and writes a part; `lumatrace sweep merge PART… -o
            OUT` joins every shard's part into the outputs one sweep writes.
            """)

    @Argument(help: "The corpus: a folder of .luma recordings, each with STEM.truth.json beside it.")
    var corpus: String

    @Option(help: "The analyzer to tune, or INSTANCE=ANALYZER (default: the analyzer the --grid options name).")
    var analyzer: String?

    @Option(name: .customLong("grid"), help: "A swept option NAME.KEY=V1,V2,… or NAME.KEY=FROM:TO:COUNT (repeatable: the product).")
    var grid: [String] = []

    @Option(name: .customLong("set"), help: "An option fixed for every setting, NAME.KEY=VALUE (repeatable).")
    var settings: [String] = []

    // Read unconditionally, so that `--random -1` is refused as a count, not taken for a missing value.
    @Option(parsing: .unconditional, help: "Draw this many settings at random instead of the grid's product (a range FROM:TO then gives any number in it).")
    var random: Int?

    @Option(parsing: .unconditional, help: "The seed of --random's draws (default 0; the same seed, the same settings).")
    var seed: UInt64?

    @OptionGroup var best: SweepBestOption

    @Option(name: .shortAndLong, help: "The folder to write sweep.txt, sweep.json and sweep.csv into (new or empty, or an unfinished sweep's to resume); with --shard, the part file.")
    var output: String

    @Option(help: ArgumentHelp("Score one share of the recordings × passes: shard K of N (K from 0, e.g. 0/3), auto (a Slurm job array) or auto/N; -o is then the part file for `sweep merge`.",
                               valueName: "k/n"))
    var shard: String?

    @Flag(help: "Also measure each setting's own analysis time per frame: a ms/frame column and a second front (F1 against time) in every output. Times differ from run to run, so the outputs are no longer the same bytes.")
    var timings = false

    @Option(help: "Also keep each setting's log of each recording in this folder, as DIR/STEM.ID.events.jsonl (a replay of that setting alone, which verify re-runs).")
    var keepLogs: String?

    // --force replaces an output folder a sweep wrote and kept logs (never an input, never a folder
    // holding other files).
    @OptionGroup var replaceOutput: ReplaceOutputOption
    private var force: Bool { replaceOutput.replacesExisting }

    // --jobs: threads for decoding ahead and running a replay's instances side by side.
    @OptionGroup var parallel: JobsOption
    private var jobs: Int { parallel.count }

    func validate() throws {
        guard seed == nil || random != nil else { throw ValidationError("--seed is the seed of --random N's draws: give --random too") }
        guard !grid.isEmpty else { throw ValidationError("give at least one --grid NAME.KEY=V1,V2,… to sweep") }
        if let shard {
            _ = try ShardSelection(parsing: shard)
            guard keepLogs == nil else { throw ValidationError("--keep-logs applies to a whole sweep, not a --shard") }
        }
    }

    func run() throws {
        try reportingErrors {
            let (sweepGrid, descriptor) = try settingsToSweep()
            _ = try best.measure(for: descriptor)
            let listing = try SweepCorpus.list(corpus)
            try refuseInside(corpus: corpus, output, option: "-o")
            let inputs = listing.entries.flatMap { [$0.recordingPath, $0.truthPath] }
            if shard == nil { try checkOutputs(inputs: inputs) }
            let recordings = try listing.entries.map(SweepRecordingIdentity.init)
            let passSize = try SweepRun.passSize(sweepGrid, corpus: listing, registry: Lumatrace.registry, budget: memoryBudget())
            let definition = SweepDefinition(sweepGrid, passSize: passSize)
            if let shard {
                try writePart(try ShardSelection(parsing: shard), definition: definition, grid: sweepGrid, corpus: listing, recordings: recordings)
                return
            }
            let resume = SweepResume(output: output)
            let folder = try OutputFolder.create(output, replacingExisting: force || Self.isUnfinished(output), inputs: inputs,
                                                 owns: Self.ownsTopLevel, ownsInside: SweepResume.isOwnEntry)
            let interruption = SweepInterruption(folder, resume: resume, keptLogs: keepLogs)
            defer { interruption.restore() }
            let stored = try storedScores(resume, definition: definition, recordings: recordings)
            let kept = try keptLogs(of: listing, settings: sweepGrid.settings, except: stored)
            if !listing.withoutTruth.isEmpty {
                warn("note: left out for lack of truth beside them: \(listing.withoutTruth.joined(separator: ", "))")
            }
            let units = try scoreTheRest(sweepGrid, definition: definition, corpus: listing, recordings: recordings, stored: stored,
                                         resume: resume, kept: kept)
            let result = SweepResult(grid: sweepGrid, recordings: listing.entries.map(\.name), withoutTruth: listing.withoutTruth,
                                     passes: definition.passes, units: units)
            try Self.write(SweepReport(result, best: try best.measure(for: descriptor, scored: result)), into: folder, saying: "swept")
        }
    }

    /// The grid of settings `--grid`, `--set`, `--random` and `--analyzer` give, and the analyzer it runs.
    private func settingsToSweep() throws -> (SweepGrid, AnalyzerDescriptor) {
        let (name, analyzerName) = try choice()
        let overrides = try OptionOverrides(settings)
        if let other = overrides.analyzers.first(where: { $0 != name }) {
            throw UsageError("--set \(other).…: the sweep runs \(name); give its options as \(name).KEY=…")
        }
        let descriptor: AnalyzerDescriptor
        do throws(OptionError) { descriptor = try Lumatrace.registry.descriptor(named: analyzerName) } catch { throw UsageError(error) }
        do {
            let sweepGrid = try overrides.explaining {
                try SweepGrid(name: name, analyzer: descriptor, grid: grid, fixed: overrides.settings(for: name),
                              random: random.map { SweepSampling(count: $0, seed: seed ?? 0) })
            }
            return (sweepGrid, descriptor)
        } catch let error as SweepError { throw UsageError(error) }
    }

    /// The scores an interrupted run of this sweep stored (none with --force), said when there are some.
    private func storedScores(_ resume: SweepResume, definition: SweepDefinition, recordings: [SweepRecordingIdentity]) throws -> [Int: [SweepScore]] {
        let stored: [Int: [SweepScore]]
        do { stored = force ? [:] : try resume.stored(definition, recordings: recordings) } catch {
            throw CLIError("\(error) (--force starts the sweep over)")
        }
        if !stored.isEmpty {
            warn("resuming: \(stored.count) of \(Plural.count(recordings.count, "recording")) already scored in \(resume.folder)")
            if timings { warn("note: no times in the outputs: the recordings scored before this run were not timed (--force starts over)") }
        }
        return stored
    }

    /// `--keep-logs DIR`, checked for the recordings not yet `stored` (a resumed sweep kept the logs of those it stored).
    private func keptLogs(of listing: SweepCorpus, settings: [SweepSetting], except stored: [Int: [SweepScore]]) throws -> SweepLogs? {
        try keepLogs.map { folder in
            try refuseInside(corpus: corpus, folder, option: "--keep-logs")
            let logs = SweepLogs(folder: folder, replacingExisting: force)
            var rest = listing
            rest.entries = listing.entries.indices.filter { stored[$0] == nil }.map { listing.entries[$0] }
            try logs.prepare(rest, settings: settings)
            return logs
        }
    }

    /// Scores every unit of the recordings not `stored`, storing each recording's scores once its
    /// last pass is scored; returns the stored units and the new ones.
    private func scoreTheRest(_ grid: SweepGrid, definition: SweepDefinition, corpus listing: SweepCorpus, recordings: [SweepRecordingIdentity],
                              stored: [Int: [SweepScore]], resume: SweepResume, kept: SweepLogs?) throws -> [SweepUnitScores] {
        let passes = definition.passes
        let storedUnits = stored.flatMap { r, scores in passes.indices.map { SweepUnitScores(recording: r, pass: $0, scores: Array(scores[passes[$0]])) } }
        let units = listing.entries.indices.filter { stored[$0] == nil }.flatMap { r in passes.indices.map { SweepUnit(recording: r, pass: $0) } }
        var scores: [SweepScore] = []
        let bar = ProgressBar("sweeping")
        defer { bar.finish() }
        let scored = try SweepRun.score(units, of: grid, corpus: listing, registry: Lumatrace.registry, jobs: jobs, timings: timings,
                                        passSize: definition.passSize,
                                        didReplay: kept.map { logs in { entry, log in try logs.keep(log, of: entry) } },
                                        didScore: { unit in
                                            scores += unit.scores
                                            guard unit.pass == passes.count - 1 else { return }
                                            try resume.store(scores, of: recordings[unit.recording], sweep: definition)
                                            scores = []
                                        },
                                        progress: { bar.update($0, $1) })
        return storedUnits + scored
    }

    /// Scores this shard's units and writes them as a part file for `sweep merge`.
    private func writePart(_ shard: ShardSelection, definition: SweepDefinition, grid: SweepGrid, corpus listing: SweepCorpus,
                           recordings: [SweepRecordingIdentity]) throws {
        let file = try OutputFile.create(output, replacingExisting: force, inputs: listing.entries.flatMap { [$0.recordingPath, $0.truthPath] },
                                         kind: .text, streams: .refused(why: "a part is a file"))
        let mine = SweepPart.plan(definition, corpus: recordings, shard: shard.index, of: shard.count)
        let bar = ProgressBar("sweeping shard \(shard.index) of \(shard.count)")
        let scored: [SweepUnitScores]
        do {
            scored = try SweepRun.score(mine, of: grid, corpus: listing, registry: Lumatrace.registry, jobs: jobs, timings: timings,
                                        passSize: definition.passSize, progress: { bar.update($0, $1) })
        } catch {
            bar.finish()
            throw error
        }
        bar.finish()
        let part = SweepPart(sweep: definition, shard: shard.index, shards: shard.count, corpus: recordings, withoutTruth: listing.withoutTruth, units: scored)
        try file.write(try part.bytes())
        try file.commit()
        print("shard \(shard.index) of \(shard.count): \(Plural.count(mine.count, "replay")) of \(recordings.count * definition.passes.count) → \(output)")
    }

    /// The instance the grid tunes and its analyzer: `--analyzer`, else the NAME of the first `--grid`.
    private func choice() throws -> (name: String, analyzer: String) {
        if let analyzer {
            do throws(OptionError) { return try AnalyzerSetup.parseChoice(analyzer) } catch { throw UsageError(error) }
        }
        let first = grid[0]
        guard let dot = first.firstIndex(of: "."), dot > first.startIndex else { throw UsageError(SweepError.notAGrid(first)) }
        return (String(first[..<dot]), String(first[..<dot]))
    }

    /// Refuses an output folder inside the corpus (the next sweep or regress of it would find its files).
    private func refuseInside(corpus: String, _ output: String, option: String) throws {
        let url = URL(fileURLWithPath: output)
        guard let corpusPath = try? SystemPath.resolved(corpus),
              let parent = try? SystemPath.resolved(url.deletingLastPathComponent().path) else { return }
        let target = parent == "/" ? "/" + url.lastPathComponent : parent + "/" + url.lastPathComponent
        if target == corpusPath || target.hasPrefix(corpusPath + "/") {
            throw CLIError("\(option) \(output) is inside the corpus \(corpus): write the sweep elsewhere")
        }
    }
}
