import ArgumentParser
import Foundation
import LumaAnalysis
import LumaBase
import LumaEngine
import LumaFormat
import LumaRegression
import LumaTruth
import LumaOutput

/// `lumatrace regress`: a corpus of golden logs re-run (`regress DIR`, the default), or the parts of
/// a sharded run merged (`regress merge`).
struct Regress: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Re-run every golden log in a folder, diff it and score it: did a detector change help or hurt?",
        discussion: """
            For each NAME.events.jsonl in FOLDER whose recording (named in its header)
            is there too: replay the analyzers and options of the golden header,
            compare the new log with the golden one (like `lumatrace diff`) and, when
            RECORDING-STEM.truth.json is there, score both (like `lumatrace score`).
            One summary table, then the differences of each changed recording.

              lumatrace regress Recordings/
              lumatrace regress Recordings/ --set trajectory.trajectoryLength=15
              lumatrace regress Recordings/ --tolerance f1=0.01 --tolerance point-error=0.5
              lumatrace regress Recordings/ --update      # bless the new logs
              lumatrace regress Recordings/ --junit regress.xml   # and a report for CI

            Which change fails: without --tolerance, any difference beyond the diff
            tolerances (--point-tolerance, …). With --tolerance METRIC=DROP, a
            recording with truth fails only when a score gets worse by more than its
            tolerance (a metric not named may not drop at all); one without truth
            still fails on any difference, as there is nothing to judge it by.

            --update replaces each golden that changed with its new log, but never
            with a log that scores worse (beyond the tolerances) unless
            --accept-worse is given: such goldens are kept, listed, and fail the run.

            Ids in the differences: "golden" is the observation's id in the golden
            log, "new" in the new log; a changed observation shows both. Observations
            are paired by content, not id; "where (px)" says where each one is.

            --junit FILE also writes the results as JUnit XML, which CI systems show
            as test results: one test case per golden log, failing with what regress
            prints for it (docs/ci.md has a complete GitHub Actions workflow).
            --junit-timings adds each case's time: the report is then no longer the
            same bytes from run to run.

            Recordings run in parallel (--jobs); the output does not depend on it.
            Together they stay within the memory budget (4 GiB, or
            \(MemoryBudget.variable), e.g. 8G): a recording waits while the ones
            running leave no room for it, and one that needs more than the whole
            budget is that recording's error, with the memory it would need.
            Exit status: 0 every log passes, 1 some differ or score worse (with
            --update: some were not updated because they score worse), 2 error.

            On a cluster, split the corpus into N shards that run anywhere (a Slurm
            job array, a Kubernetes Indexed Job), each writing a part file, then
            merge the parts: the merged report and exit status are those one
            machine would give, whatever N.

              lumatrace regress Recordings/ --shard 0/3 -o part-0.json   # … 1/3, 2/3
              lumatrace regress merge part-*.json
            --shard auto reads the shard from a Slurm job array's environment
            (scripts/slurm/submit-regress does it all); a shard only reads the corpus.
            With --update, each shard stages its new logs (--stage DIR, shared by
            the shards) and the merge moves them over the goldens, one atomic rename
            each, only once every shard's part is there: a half-finished run leaves
            the goldens as they were.

              lumatrace regress Recordings/ --update --shard 0/3 --stage stage -o part-0.json

            Every option: lumatrace regress run --help (`run` may be left out).
            """,
        subcommands: [Corpus.self, Merge.self], defaultSubcommand: Corpus.self)

    /// The help of `--junit`, shared by a whole run and a merge.
    static let junitHelp = ArgumentHelp(
        "Also write the results as a JUnit XML report to FILE, the format CI systems (GitHub Actions, GitLab, Jenkins) show test results in: one test case per golden log, failing with the differences and scores regress prints for it. An existing FILE is replaced only with --force; - writes the report to standard output and the table to standard error.",
        valueName: "file")

    /// The help of `--junit-timings`, shared by a whole run, a shard and a merge.
    static let junitTimingsHelp = ArgumentHelp(
        "With --junit: give each test case, and the suite, a time attribute (seconds it took by the clock). The report then differs from run to run: without it, the same run gives the same bytes. A shard given it records its times in its part, for `regress merge --junit-timings`.")

    /// Refuses `--junit -` with `--json`: both would be standard output.
    static func validateJUnit(_ junit: String?, json: Bool) throws {
        if junit == "-", json {
            throw ValidationError("--junit - and --json would both write to standard output: write the JUnit report to a file (--junit regress.xml)")
        }
    }

    /// Claims the JUnit report's path before anything runs, so a refusal (it exists, it is an
    /// input) comes before the wait; it is written once the outcomes are known.
    static func claimJUnit(_ junit: String?, force: Bool, inputs: [String]) throws -> OutputFile? {
        try junit.map { try OutputFile.create($0, replacingExisting: force, inputs: inputs, kind: .junitReport, streams: .allowed) }
    }
}

extension Regress {
    /// `lumatrace regress [run] DIR`: re-runs a corpus, or one shard of it.
    struct Corpus: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "run",
            abstract: "Re-run every golden log in a folder, or one shard of it, diff it and score it (`lumatrace regress DIR` runs this).")

        @Argument(help: "The folder of recordings and golden logs.")
        var folder: String

        @Flag(help: "Rewrite the golden logs that changed with the new ones, and list them (not those that score worse).")
        var update = false

        @Flag(help: "With --update: also replace goldens whose new log scores worse than the golden.")
        var acceptWorse = false

        @Option(name: .customLong("set"), help: "Analyzer option NAME.KEY=VALUE to change in every golden that runs NAME (repeatable).")
        var settings: [String] = []

        @Option(help: ArgumentHelp("Where the goldens' recordings are, when not beside them: a folder, or an http(s):// URL (a web server, an object store) that each golden's recording file name is appended to; read with range requests.",
                                   valueName: "location"))
        var recordings: RecordingLocation?

        @OptionGroup var parallel: JobsOption
        private var jobs: Int { parallel.count }

        @OptionGroup var report: ReportFormatOption

        @OptionGroup var tolerance: ToleranceOptions

        @OptionGroup var scoreTolerance: ScoreToleranceOptions

        @Flag(help: ArgumentHelp(stringLiteral: FlagHints.allowExternalHelp))
        var allowExternal = false

        @Option(help: ArgumentHelp("Run one share of the corpus: shard K of N (K from 0, e.g. 0/3), auto (a Slurm job array) or auto/N; writes a part file (-o) for `regress merge`.",
                                   valueName: "k/n"))
        var shard: String?

        @Option(name: .shortAndLong, help: "With --shard: the part file to write.")
        var output: String?

        @Option(help: ArgumentHelp("With --shard and --update: the folder where this shard writes the new logs of the goldens it would replace; `regress merge` moves them into the corpus once every shard has succeeded. Shared by all shards, not the corpus folder.",
                                   valueName: "dir"))
        var stage: String?

        @Option(help: Regress.junitHelp)
        var junit: String?

        @Flag(help: Regress.junitTimingsHelp)
        var junitTimings = false

        @OptionGroup var replacing: ReplaceResultOption
        private var force: Bool { replacing.replacesExisting }

        func validate() throws {
            if junitTimings, junit == nil, shard == nil {
                throw ValidationError("--junit-timings applies with --junit (the times go in the JUnit report) or --shard (they go in the part, for the merge's report)")
            }
            try Regress.validateJUnit(junit, json: report.isJSON)
            if acceptWorse, !update { throw ValidationError("--accept-worse only applies with --update") }
            if let shard {
                _ = try ShardSelection(parsing: shard)
                guard output != nil else { throw ValidationError("--shard \(shard) writes a part file: give it with -o PART.json") }
                if update, stage == nil {
                    throw ValidationError("--update with --shard needs --stage DIR: shards stage the new logs there, and `regress merge` moves them into place")
                }
                if stage != nil, !update { throw ValidationError("--stage applies with --update (it is where a shard's new logs wait for the merge)") }
                if junit != nil { throw ValidationError("--junit writes the report of a whole run: give it to `regress merge`, which joins the shards' parts") }
            } else if output != nil || stage != nil {
                throw ValidationError("-o and --stage apply with --shard (a whole run prints its report, and --update replaces goldens in place)")
            } else if force, junit == nil {
                throw ValidationError("--force applies with --shard (to replace a part file) or --junit (to replace a report)")
            }
        }

        func run() throws {
            try reportingErrors(in: .regress) { try regress() }
        }

        private func regress() throws {
            let overrides = try OptionOverrides(settings)
            let goldens = try RegressionRun.goldenLogs(in: folder)
            let registry = Lumatrace.registry
            // What a run reads, which no report may replace: the goldens, their recordings and truth.
            var inputs: [String] = []
            // A bad value (from --set or @FILE) is refused before anything runs, naming the file it came from.
            for golden in goldens {
                let header = try EventLog.read(golden).header
                var setups = header.analyzers.filter { registry.names.contains($0.analyzer) }
                try overrides.apply(to: &setups, registry: registry)
                let beside = URL(fileURLWithPath: golden).deletingLastPathComponent()
                let stem = URL(fileURLWithPath: header.recordingFile).deletingPathExtension().lastPathComponent
                inputs += [golden, beside.appendingPathComponent(header.recordingFile).path, beside.appendingPathComponent(stem + ".truth.json").path]
            }
            let judge = RegressionJudge(scoreTolerances: try scoreTolerance.tolerances, byScores: scoreTolerance.judgeByScores,
                                        update: update, acceptWorse: acceptWorse)
            if let shard, let output {
                try writePart(ShardSelection(parsing: shard), to: output, goldens: goldens, overrides: overrides, judge: judge, registry: registry)
                return
            }
            let junitFile = try Regress.claimJUnit(junit, force: force, inputs: inputs)
            let results = try RegressionRun.run(goldens, overrides: overrides.settings, jobs: jobs, tolerances: tolerance.tolerances,
                                                judge: judge, allowPrograms: allowExternal, recordings: recordings,
                                                memory: memoryBudget(), registry: registry)
            let outcomes = results.map { RegressionOutcome(FlagHints.regressResult($0), keptWorseHint: Self.keptWorseHint, timed: junitTimings) }
            try Self.printReport(outcomes, folder: folder, corpusPath: URL(fileURLWithPath: folder).standardizedFileURL.path, settings: settings,
                                 update: update, json: report.isJSON, junit: junitFile)
        }

        static let keptWorseHint = "; --accept-worse replaces the golden anyway"

        /// Prints the report of `outcomes` (from this machine or merged), writes the JUnit report to
        /// `junit` when asked, and ends with the exit status. A JUnit report on standard output
        /// sends the table to standard error.
        /// `settings` are the run's `--set` values, as given; `corpusPath` is the corpus folder, absolute.
        static func printReport(_ outcomes: [RegressionOutcome], folder: String, corpusPath: String, settings: [String], update: Bool, json: Bool,
                                junit: OutputFile? = nil) throws {
            if json {
                print(RegressionRun.json(folder: folder, outcomes).serialized)
            } else if junit?.path == "-" {
                for line in RegressionRun.report(outcomes, update: update) { printOnStandardError(line) }
            } else {
                for line in RegressionRun.report(outcomes, update: update) { print(line) }
            }
            if let junit {
                try junit.write(JUnitReport.xml(folder: folder, corpusPath: corpusPath, settings: settings, outcomes))
                try junit.commit()
            }
            if outcomes.contains(where: \.failed) { throw ExitCode(2) }
            if outcomes.contains(where: { !$0.passed }) { throw ExitCode(1) }
        }

        /// The options that change what a run finds: the parts of one run must agree on them.
        private var runSettings: RegressionSettings {
            RegressionSettings(set: settings, diffTolerances: tolerance.tolerances, scoreTolerances: (try? scoreTolerance.tolerances) ?? [:],
                               judgeByScores: scoreTolerance.judgeByScores, update: update, allowExternal: allowExternal, timed: junitTimings)
        }

        /// Runs this shard's goldens and writes their outcomes as a part file. The exit status is 0
        /// once the part is written, whatever the goldens gave: the merge judges the run.
        private func writePart(_ shard: ShardSelection, to output: String, goldens: [String], overrides: OptionOverrides,
                               judge: RegressionJudge, registry: AnalyzerRegistry) throws {
            let file = try OutputFile.create(output, replacingExisting: force, inputs: goldens, kind: .regressPart, streams: .allowed)
            let listing = try CorpusListing(goldens)
            let plan = ShardPlan(costs: listing.goldens.map(\.cost), shards: shard.count)
            let mine = plan.shards[shard.index]
            let staging = try stage.map {
                try GoldenStage(folder: $0, corpus: folder, goldens: mine.map { goldens[$0] }, replacingExisting: force)
            }
            let results = try RegressionRun.run(goldens, selection: mine, overrides: overrides.settings, jobs: jobs, tolerances: tolerance.tolerances,
                                                judge: judge, stage: staging, allowPrograms: allowExternal, recordings: recordings,
                                                memory: memoryBudget(), registry: registry)
            let outcomes = zip(mine, results).map { (index: $0, outcome: RegressionOutcome(FlagHints.regressResult($1), keptWorseHint: Self.keptWorseHint, timed: junitTimings)) }
            let part = RegressionPart(shard: shard.index, shards: shard.count, folder: folder, listing: listing, settings: runSettings,
                                      outcomes: outcomes)
            try file.write(part.json.serialized + "\n")
            try file.commit()
            let said = "shard \(shard.index) of \(shard.count): \(Plural.count(mine.count, "golden log")) of \(listing.goldens.count) → \(output)"
            if output == "-" { printOnStandardError(said) } else { print(said) }
        }
    }
}

extension Regress {
    /// `lumatrace regress merge`: the parts of a sharded run, joined.
    struct Merge: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Join the part files of a sharded regress run into the report one machine would print.",
            discussion: """
                Each part is what `lumatrace regress DIR --shard K/N -o PART` wrote. The
                parts must be every shard of one run exactly once: the same corpus (its
                listing's digest), shard count, options and lumatrace version; a missing,
                repeated or foreign part is refused, naming it. The report, the JSON
                (--json) and the exit status are those of `lumatrace regress DIR`.

                Parts of an --update run name the logs their shards staged: the merge
                checks that each staged log and each golden are the files the shard
                wrote and read, then moves the staged logs over the goldens (nothing
                moves if any is not). Merging the same parts again finds them in place.

                  lumatrace regress merge part-*.json
                  lumatrace regress merge parts/part-0.json parts/part-1.json --json
                  lumatrace regress merge part-*.json --junit regress.xml
                """)

        @Argument(help: "The part files, one per shard.")
        var parts: [String]

        @OptionGroup var report: ReportFormatOption

        @Option(help: Regress.junitHelp)
        var junit: String?

        @Flag(help: Regress.junitTimingsHelp)
        var junitTimings = false

        @OptionGroup var replacing: ReplaceResultOption
        private var force: Bool { replacing.replacesExisting }

        func validate() throws {
            try Regress.validateJUnit(junit, json: report.isJSON)
            if junitTimings, junit == nil { throw ValidationError("--junit-timings applies with --junit (the times go in the JUnit report)") }
            if force, junit == nil { throw ValidationError("--force applies with --junit (to replace a report)") }
        }

        func run() throws {
            try reportingErrors(in: .regress) {
                let read = try parts.map { (path: $0, part: try RegressionPart.read($0)) }
                let run = try RegressionPart.merge(read)
                let folder = run.folder
                var outcomes = run.outcomes
                let runSettings = read.first?.part.settings
                let update = runSettings?.update ?? false
                let settings = runSettings?.set ?? []
                if junitTimings, runSettings?.timed != true {
                    throw CLIError("--junit-timings: the parts hold no times (their shards ran without --junit-timings)")
                }
                // Times the parts hold are reported only when asked, so the report stays the same bytes.
                if !junitTimings { for i in outcomes.indices { outcomes[i].seconds = nil } }
                let goldens = outcomes.map { URL(fileURLWithPath: folder).appendingPathComponent($0.name).path }
                let junitFile = try Regress.claimJUnit(junit, force: force, inputs: parts + goldens)
                let staged = run.staged
                if !staged.isEmpty {
                    let moved = try StagedGolden.moveIntoPlace(run)
                    var said = moved == 0 ? "" : "moved \(Plural.count(moved, "staged log")) over \(moved == 1 ? "its golden" : "their goldens") in \(folder)"
                    if moved < staged.count {
                        said += (moved == 0 ? "" : "; ") + "\(Plural.count(staged.count - moved, "staged log")) already in place (moved by an earlier merge)"
                    }
                    printOnStandardError(said)
                }
                try Regress.Corpus.printReport(outcomes, folder: folder, corpusPath: run.corpusPath, settings: settings, update: update,
                                               json: report.isJSON, junit: junitFile)
            }
        }
    }
}
