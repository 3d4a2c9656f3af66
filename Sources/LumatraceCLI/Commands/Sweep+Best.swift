import ArgumentParser
import LumaEngine
import LumaRegression

extension SweepResult.Measure: ExpressibleByArgument {}

/// `--best BY` of `sweep run` and `sweep merge`: one option, one help text, one check against
/// what the analyzer is scored by.
struct SweepBestOption: ParsableArguments {
    @Option(name: .customLong("best"), help: ArgumentHelp("""
        What the best setting is chosen by, pooled over the corpus: f1, recall or precision for an analyzer of \
        trajectories, success-auc or precision20 for one of tracks (default: f1, or success-auc; an analyzer whose \
        events are only counted has no best).
        """, valueName: "by"))
    var asked: SweepResult.Measure?

    /// The measure a sweep of `analyzer` ranks by (``SweepResult/Measure/chosen(_:for:)``), or a
    /// usage error naming what it is scored by.
    func measure(for analyzer: AnalyzerDescriptor) throws -> SweepResult.Measure? {
        do throws(SweepError) { return try SweepResult.Measure.chosen(asked, for: analyzer) } catch { throw UsageError(error) }
    }

    /// The measure once `result` is scored: for an analyzer whose kinds only a running instance
    /// knows (`external`), the family its events were scored as (``SweepResult/Measure/chosen(_:for:scored:)``).
    func measure(for analyzer: AnalyzerDescriptor, scored result: SweepResult) throws -> SweepResult.Measure? {
        do throws(SweepError) { return try SweepResult.Measure.chosen(asked, for: analyzer, scored: result.pooled) } catch { throw UsageError(error) }
    }
}
