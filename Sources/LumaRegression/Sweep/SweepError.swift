import LumaBase

/// Why a sweep cannot run: its grid, its corpus or its size. Found before anything is replayed.
/// A grid value the analyzer refuses is the analyzer's own ``OptionError``, naming the option.
public enum SweepError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `--grid` text that is not `NAME.KEY=VALUES`.
    case notAGrid(String)
    /// `--grid` names an analyzer the sweep does not run.
    case otherAnalyzer(grid: String, analyzer: String)
    /// The same option swept twice, or swept and also fixed with `--set`.
    case givenTwice(option: String)
    /// A list or range that gives no values, an empty value, or a range `A:B:N` that is not one.
    case badValues(option: String, text: String, reason: String)
    /// A list whose commas may be its one value's own (the option takes a box, a list or text):
    /// each value holding commas is to be grouped.
    case ambiguousCommas(option: String, text: String)
    /// A range over an integer option whose N even steps land between integers.
    case notWhole(option: String, text: String, value: String)
    /// Values that repeat (a list naming one twice, a range narrower than its count allows).
    case repeated(option: String, text: String, value: String)
    /// More settings than one sweep runs; `largest` is the option with the most values, to split by.
    case tooManySettings(count: Int, limit: Int, largest: String)
    /// `--best` by a measure the analyzer is not scored by; `measures` are those it is (none for
    /// an analyzer whose events are only counted).
    case notMeasured(measure: String, analyzer: String, measures: [String])
    /// `--random N` with N outside 1...limit.
    case badSampleCount(count: Int, limit: Int)
    /// `--random N` with N above the number of distinct settings the grid's lists and whole-number ranges hold.
    case sampleSpaceTooSmall(count: Int, space: Int)
    /// `--random N`: only `found` distinct settings the analyzer accepts after `draws` draws; `refusal` is the analyzer's last word.
    case samplingExhausted(found: Int, wanted: Int, draws: Int, refusal: String?)
    /// The corpus is not a folder that can be listed.
    case corpusUnreadable(folder: String, reason: String)
    /// No recording of the corpus has truth beside it (`STEM.truth.json`).
    case noTruth(folder: String, recordings: Int)
    /// `--keep-logs`: the folder cannot be made, or a log of this sweep is already there (and not to be replaced).
    case keptLogsUnwritable(folder: String, reason: String)
    case keptLogExists(path: String)

    public var description: String {
        switch self {
        case .notAGrid(let text):
            return "--grid '\(text)' is not NAME.KEY=V1,V2,… or NAME.KEY=FROM:TO:COUNT (e.g. trajectory.trajectoryLength=8,10,15)"
        case .otherAnalyzer(let grid, let analyzer):
            return "--grid \(grid): the sweep runs \(analyzer); give its options as \(analyzer).KEY=…"
        case .givenTwice(let option):
            return "--grid \(option) is given twice (or also with --set): give each option once"
        case .badValues(let option, let text, let reason):
            return "--grid \(option)=\(text): \(reason)"
        case .ambiguousCommas(let option, let text):
            return "--grid \(option)=\(text): is this one value or several? \(option) takes values with commas; "
                + "write each value in double quotes (\"0.1,0.1,0.2,0.2\",\"0.3,0.3,0.2,0.2\") or brackets ([1,2],[3,4]), "
                + "the whole --grid in single quotes for the shell"
        case .notWhole(let option, let text, let value):
            return "--grid \(option)=\(text): \(option) is an integer, and the range gives \(value); choose a count that steps by whole numbers, or list the values"
        case .repeated(let option, let text, let value):
            return "--grid \(option)=\(text): \(value) appears twice; each value of a grid is tried once"
        case .tooManySettings(let count, let limit, let largest):
            return "the grid has \(count) settings, more than the \(limit) one sweep runs; split it into several sweeps, "
                + "e.g. one per value of \(largest) (its values as --set, the rest as --grid)"
        case .notMeasured(let measure, let analyzer, let measures) where measures.isEmpty:
            return "--best \(measure): the \(analyzer) analyzer's events are only counted, not scored against truth "
                + "(score measures trajectories and tracks); a sweep of it has no best: leave out --best"
        case .notMeasured(let measure, let analyzer, let measures):
            return "--best \(measure): the \(analyzer) analyzer is scored by \(measures.joined(separator: ", ")); rank by one of those"
        case .badSampleCount(let count, let limit):
            return "--random \(count): the number of settings to draw is within 1...\(limit)"
        case .sampleSpaceTooSmall(let count, let space):
            return "--random \(count): the grid holds only \(Plural.count(space, "distinct setting")); draw at most \(space), or sweep the whole grid without --random"
        case .samplingExhausted(let found, let wanted, let draws, let refusal):
            return "--random \(wanted): only \(found) distinct settings the analyzer accepts after \(draws) draws"
                + (refusal.map { "; the analyzer refused e.g.: \($0)" } ?? "") + "; widen the ranges or draw fewer"
        case .corpusUnreadable(let folder, let reason):
            return "\(folder): \(reason) (the corpus is a folder of .luma recordings, each with STEM.truth.json beside it)"
        case .noTruth(let folder, let recordings):
            return "\(folder): none of its \(recordings) .luma recordings has truth beside it (STEM.truth.json); "
                + "nothing to score (lumatrace synth --truth or lumatrace truth import make truth)"
        case .keptLogsUnwritable(let folder, let reason):
            return "--keep-logs \(folder): \(reason)"
        case .keptLogExists(let path):
            return "--keep-logs: \(path) exists (--force replaces it)"
        }
    }
}
