import LumaAnalysis
import LumaBase
import LumaEngine

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
    case badValues(option: String, text: String, ValuesProblem)
    /// A list whose commas may be its one value's own (the option takes a box, a list or text):
    /// each value holding commas is to be grouped.
    case ambiguousCommas(option: String, text: String)
    /// A range over an integer option whose N even steps land between integers.
    case notWhole(option: String, text: String, value: String)
    /// Values that repeat (a list naming one twice, a range narrower than its count allows).
    case repeated(option: String, text: String, value: String)
    /// Two spellings of one value (`08` and `8`): `value` gives the setting `sameAs` gave.
    case sameValue(option: String, text: String, value: String, sameAs: String)
    /// More settings than one sweep runs; `largest` is the option with the most values, to split by.
    case tooManySettings(count: Int, limit: Int, largest: String)
    /// The best setting asked by a measure the analyzer is not scored by; `measures` are those it
    /// is (none for an analyzer whose events are only counted).
    case notMeasured(measure: String, analyzer: String, measures: [String])
    /// `--random N` with N outside 1...limit.
    case badSampleCount(count: Int, limit: Int)
    /// `--random N` with N above the number of distinct settings the grid's lists and whole-number ranges hold.
    case sampleSpaceTooSmall(count: Int, space: Int)
    /// `--random N`: only `found` distinct settings the analyzer accepts after `draws` draws; `refusal` is the analyzer's last.
    case samplingExhausted(found: Int, wanted: Int, draws: Int, refusal: OptionError?)
    /// The corpus is not a folder that can be listed.
    case corpusUnreadable(folder: String, SystemCallError)
    /// No recording of the corpus has truth beside it (`STEM.truth.json`).
    case noTruth(folder: String, recordings: Int)
    /// `--keep-logs`: the folder cannot be made, or a log of this sweep is already there (and not to be replaced).
    case keptLogsUnwritable(folder: String, SystemCallError)
    /// `--keep-logs` names something that is not a folder (a device, a file, a link to nothing): what it is.
    case keptLogsNotAFolder(folder: String, found: String)
    case keptLogExists(path: String)
    /// Not even one instance fits the memory budget beside the replay of the corpus's largest frames.
    case memory(MemoryNeed)
    /// The replay of a corpus recording failed (damaged, no frames, an analyzer that threw).
    case replay(recording: String, ReplayError)

    /// What a refusal is about, said before its ``detail``: a grid, a random sample, the measure
    /// the best setting is ranked by, the folder for kept logs, or nothing more than the detail says.
    public enum Subject: Equatable, Sendable {
        case grid
        case best(measure: String)
        case sample(count: Int)
        case keptLogs
        case none
    }

    public var subject: Subject {
        switch self {
        case .notAGrid, .otherAnalyzer, .givenTwice, .badValues, .ambiguousCommas, .notWhole, .repeated, .sameValue: .grid
        case .notMeasured(let measure, _, _): .best(measure: measure)
        case .badSampleCount(let count, _), .sampleSpaceTooSmall(let count, _): .sample(count: count)
        case .samplingExhausted(_, let wanted, _, _): .sample(count: wanted)
        case .keptLogsUnwritable, .keptLogsNotAFolder, .keptLogExists: .keptLogs
        case .tooManySettings, .corpusUnreadable, .noTruth, .memory, .replay: .none
        }
    }

    /// What is wrong, said after the ``subject``, in the words of grids, samples and folders; the
    /// command line's printer says the subject with its flag (`--grid`, `--random N`, `--keep-logs`)
    /// and adds the flags that fix it.
    public var detail: String {
        switch self {
        case .notAGrid(let text):
            return "'\(text)' is not NAME.KEY=V1,V2,… or NAME.KEY=FROM:TO:COUNT (e.g. trajectory.trajectoryLength=8,10,15)"
        case .otherAnalyzer(let grid, let analyzer): return "\(grid): the sweep runs \(analyzer); give its options as \(analyzer).KEY=…"
        case .givenTwice(let option): return "\(option) is given twice: give each option once, swept or fixed"
        case .badValues(let option, let text, let problem):
            return "\(option)=\(text): " + (problem == .rangeNotWhole ? "\(option) is an integer: \(problem)" : "\(problem)")
        case .ambiguousCommas(let option, let text):
            return "\(option)=\(text): is this one value or several? \(option) takes values with commas; "
                + "write each value in double quotes (\"0.1,0.1,0.2,0.2\",\"0.3,0.3,0.2,0.2\") or brackets ([1,2],[3,4])"
        case .notWhole(let option, let text, let value):
            return "\(option)=\(text): \(option) is an integer, and the range gives \(value); choose a count that steps by whole numbers, or list the values"
        case .repeated(let option, let text, let value): return "\(option)=\(text): \(value) appears twice; each value of a grid is tried once"
        case .sameValue(let option, let text, let value, let first):
            return "\(option)=\(text): \(value) and \(first) are the same value; each value of a grid is tried once"
        case .tooManySettings(let count, let limit, let largest):
            return "the grid has \(count) settings, more than the \(limit) one sweep runs; split it into several sweeps, e.g. one per value of \(largest)"
        case .notMeasured(_, let analyzer, let measures) where measures.isEmpty:
            return "the \(analyzer) analyzer's events are only counted, not scored against truth "
                + "(score measures trajectories and tracks); a sweep of it has no best"
        case .notMeasured(_, let analyzer, let measures):
            return "the \(analyzer) analyzer is scored by \(measures.joined(separator: ", ")); rank by one of those"
        case .badSampleCount(_, let limit): return "the number of settings to draw is within 1...\(limit)"
        case .sampleSpaceTooSmall(_, let space):
            return "the grid holds only \(Plural.count(space, "distinct setting")); draw at most \(space), or sweep the whole grid"
        case .samplingExhausted(let found, _, let draws, let refusal):
            return "only \(found) distinct settings the analyzer accepts after \(draws) draws"
                + (refusal.map { "; the analyzer refused e.g.: \($0)" } ?? "") + "; widen the ranges or draw fewer"
        case .corpusUnreadable(let folder, let failure):
            return "\(folder): \(failure) (the corpus is a folder of .luma recordings, each with STEM.truth.json beside it)"
        case .noTruth(let folder, let recordings):
            return "\(folder): none of its \(recordings) .luma recordings has truth beside it (STEM.truth.json); nothing to score"
        case .keptLogsUnwritable(let folder, let failure): return "\(folder): \(failure)"
        case .keptLogsNotAFolder(let folder, let found): return "\(folder): is \(found), not a folder"
        case .keptLogExists(let path): return "\(path) exists"
        case .memory(let need): return "a sweep of the corpus: \(need)"
        case .replay(_, let error) where error.namesRecording: return error.description
        case .replay(let recording, let error): return "\(recording): \(error)"
        }
    }

    public var description: String {
        switch subject {
        case .grid: "grid \(detail)"
        case .best(let measure): "best by \(measure): \(detail)"
        case .sample(let count): "a random sample of \(count) settings: \(detail)"
        case .keptLogs: "kept logs \(detail)"
        case .none: detail
        }
    }
}

extension SweepError {
    /// What is wrong with the values a grid gives an option (``SweepError/badValues(option:text:_:)``).
    public enum ValuesProblem: Equatable, Sendable, CustomStringConvertible {
        /// FROM or TO of a range is not a finite number; `counted` for a range `FROM:TO:COUNT`, else `FROM:TO`.
        case rangeNotNumbers(counted: Bool)
        /// COUNT of a range `FROM:TO:COUNT` is not a whole number within `allowed`.
        case countOutside(allowed: ClosedRange<Int>)
        /// A value of a range is too large to print in the log's fixed decimals.
        case valueTooLarge(Double)
        /// A list `V1,V2,…` with an empty value.
        case emptyValue
        /// A range `FROM:TO` whose FROM is not below its TO.
        case rangeReversed
        /// A range `FROM:TO` of numbers where settings are not drawn at random: it needs its COUNT.
        case rangeWithoutCount
        /// A range `FROM:TO` with a bound too large to draw from.
        case rangeTooLarge
        /// A range `FROM:TO` of an integer option whose bounds are not whole numbers.
        case rangeNotWhole
        /// A list whose text does not read: a group not closed, a bracket closing nothing, text
        /// after a group, a quoted value that is not a JSON string.
        case malformedList(SweepValueList.Refusal)

        public var description: String {
            switch self {
            case .rangeNotNumbers(let counted): "FROM and TO of a range \(counted ? "FROM:TO:COUNT" : "FROM:TO") are numbers"
            case .countOutside(let allowed): "COUNT of a range FROM:TO:COUNT is a whole number within \(allowed)"
            case .valueTooLarge(let value): "\(value) is too large"
            case .emptyValue: "a list V1,V2,… has no empty values"
            case .rangeReversed: "a range FROM:TO needs FROM below TO"
            case .rangeWithoutCount: "a range is FROM:TO:COUNT (COUNT values from FROM to TO); FROM:TO without a count is for drawing at random"
            case .rangeTooLarge: "FROM and TO are too large"
            case .rangeNotWhole: "FROM and TO of its range are whole numbers"
            case .malformedList(let refusal): refusal.reason
            }
        }
    }
}

private extension ReplayError {
    /// Whether the description already names the recording's file (a damaged or unreadable one).
    var namesRecording: Bool {
        switch self {
        case .damaged, .recording: true
        default: false
        }
    }
}
