import ArgumentParser
import Foundation
import LumaAnalysis
import LumaEngine
import LumaRegression
import LumaTruth

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

            Which change fails: without --tolerance, any difference beyond the diff
            tolerances (--point-tolerance, …). With --tolerance METRIC=DROP, a
            recording with truth fails only when a score gets worse by more than its
            tolerance (a metric not named may not drop at all); one without truth
            still fails on any difference, as there is nothing to judge it by.

            --update replaces each golden that changed with its new log, but never
            with a log that scores worse (beyond the tolerances) unless
            --accept-worse is given: such goldens are kept, listed, and fail the run.

            Ids in the differences: "golden" is the observation's id in the golden
            log, "new" in the new log; a changed observation shows both.

            Recordings run in parallel (--jobs); the output does not depend on it.
            Exit status: 0 every log passes, 1 some differ or score worse (with
            --update: some were not updated because they score worse), 2 error.
            """)

    @Argument(help: "The folder of recordings and golden logs.")
    var folder: String

    @Flag(help: "Rewrite the golden logs that changed with the new ones, and list them (not those that score worse).")
    var update = false

    @Flag(help: "With --update: also replace goldens whose new log scores worse than the golden.")
    var acceptWorse = false

    @Option(name: .customLong("set"), help: "Analyzer option NAME.KEY=VALUE to change in every golden that runs NAME (repeatable).")
    var settings: [String] = []

    @Option(help: "Recordings replayed at once (1...256).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @OptionGroup var report: ReportFormatOption

    @OptionGroup var tolerance: ToleranceOptions

    @OptionGroup var scoreTolerance: ScoreToleranceOptions

    @Flag(help: ArgumentHelp(stringLiteral: FlagHints.allowExternalHelp))
    var allowExternal = false

    func validate() throws {
        guard (1...256).contains(jobs) else { throw ValidationError("--jobs \(jobs) is outside 1...256") }
        if acceptWorse, !update { throw ValidationError("--accept-worse only applies with --update") }
    }

    func run() throws {
        try reportingErrors(in: .regress) { try regress() }
    }

    private func regress() throws {
        let overrides = try OptionOverrides(settings)
        let goldens = try RegressionRun.goldenLogs(in: folder)
        let registry = Lumatrace.registry
        // A bad value (from --set or @FILE) is refused before anything runs, naming the file it came from.
        for golden in goldens {
            var setups = try EventLog.read(golden).header.analyzers.filter { registry.names.contains($0.analyzer) }
            try overrides.apply(to: &setups, registry: registry)
        }
        let judge = RegressionJudge(scoreTolerances: try scoreTolerance.tolerances, byScores: scoreTolerance.judgeByScores,
                                    update: update, acceptWorse: acceptWorse)
        let results = try RegressionRun.run(goldens, overrides: overrides.settings, jobs: jobs, tolerances: tolerance.tolerances,
                                            judge: judge, allowPrograms: allowExternal, registry: registry)
        if report.isJSON {
            print(JSONValue.object(["folder": .string(folder), "recordings": .array(results.map(\.json))]).serialized)
        } else {
            for line in RegressionRun.report(results, update: update, keptWorseHint: "; --accept-worse replaces the golden anyway") { print(line) }
        }
        if results.contains(where: { $0.error != nil }) { throw ExitCode(2) }
        if results.contains(where: { !$0.passed }) { throw ExitCode(1) }
    }
}
