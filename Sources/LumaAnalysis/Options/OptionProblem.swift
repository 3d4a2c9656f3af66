/// What is wrong with an option (``OptionError``): the text or value given, and what is allowed
/// there (the kind of value, the range, the choices, the analyzers and options that exist).
///
/// `description` says it after the option's name, in the words of options, never a command-line
/// flag: `0 is outside the allowed range 1...254`.
public enum OptionProblem: Equatable, Sendable, CustomStringConvertible {
    // A value's text or JSON
    /// `text` does not read as a value of `kind`.
    case notA(OptionTextKind, text: String)
    /// `text` is not JSON: where and why the parser stopped.
    case notJSON(text: String, JSONParser.Failure)
    /// `text` is JSON, but not a value of the option's type.
    case notValid(text: String, DecodingProblem)
    /// The value `text` reads as has no JSON form (a number JSON cannot hold): the encoder's words.
    case notWritableAsJSON(text: String, reason: String)
    /// A value of a configuration's JSON that does not decode as its option's type.
    case notDecodable(DecodingProblem.Reason)
    /// An entry member (of a pipeline file, a log header) that is not of `kind`.
    case entryMember(JSONKind)
    /// `value` (as written after `--set NAME.KEY=`) is outside `allowed` (`1...254`, `(0, 1]`, `0...3600 seconds`).
    case outOfRange(value: String, allowed: String)
    /// A region of interest `values` (x, y, width, height) that is not a rectangle inside the frame.
    case region([Double], NormalizedRect.Problem)
    /// `text` is none of `choices`.
    case notAChoice(text: String, choices: [String])

    // Analyzers and their options
    /// No analyzer is called `name`; `known` are the analyzers there are.
    case unknownAnalyzer(String, known: [String])
    /// No analyzer is given; `known` are the analyzers there are.
    case noAnalyzer(known: [String])
    /// `count` analyzer instances, more than the `limit` one replay runs (set by `variable`).
    case tooManyInstances(count: Int, limit: Int, variable: String)
    /// `name` is not an instance name: 1 to 64 letters, digits, `_` or `-`, not `engine`.
    case notAnInstanceName(String)
    /// The instance `name` (running `analyzer`) is given twice.
    case givenTwice(name: String, analyzer: String)
    /// The analyzer `analyzer` has no such option; `known` are the ones it has.
    case unknownOption(analyzer: String, known: [String])
    /// An analyzer entry (of a pipeline file, a log header) without a `"name"`.
    case entryWithoutName
    /// The configuration as a whole does not fit the analyzer: the analyzer's words.
    case configurationDoesNotFit(String)
    /// An analyzer's own rule refuses the value (a declaration's `check`, a plugin's parsing): its words.
    case analyzerRule(String)

    // A replay's own options
    /// The frames `frames` reach outside the recording's `0...lastFrame`.
    case framesOutside(ClosedRange<Int>, lastFrame: Int)
    /// An event log format version outside `readable`.
    case logFormatVersion(Int, readable: ClosedRange<Int>)

    public var description: String {
        switch self {
        case .notA(let kind, let text): return "'\(text)' is not \(kind)"
        case .notJSON(let text, let failure): return "'\(text)' is not valid JSON: \(failure)"
        case .notValid(let text, let problem): return "'\(text)' is not valid here: \(problem)"
        case .notWritableAsJSON(let text, let reason): return "'\(text)' cannot be written as JSON: \(reason)"
        case .notDecodable(let reason): return reason.description
        case .entryMember(let kind): return "must be \(kind)"
        case .outOfRange(let value, let allowed): return "\(value) is outside the allowed range \(allowed)"
        case .region(let values, let problem): return "\(values.map(JSONValue.format).joined(separator: ",")): \(problem)"
        case .notAChoice(let text, let choices): return "'\(text)' is not one of \(choices.joined(separator: ", "))"
        case .unknownAnalyzer(let name, let known): return "unknown analyzer '\(name)'; known analyzers: \(known.joined(separator: ", "))"
        case .noAnalyzer(let known): return "no analyzer given; known analyzers: \(known.joined(separator: ", "))"
        case .tooManyInstances(let count, let limit, let variable):
            return "the replay names " + Self.instanceCount(count, limit: limit, variable: variable)
        case .notAnInstanceName(let name):
            return "'\(name)' is not an analyzer instance name: use 1 to 64 letters, digits, _ or -, not 'engine'"
        case .givenTwice(let name, let analyzer):
            return "\(name) is given twice; to run an analyzer more than once, give each its own name: \(name)2=\(analyzer)"
        case .unknownOption(let analyzer, let known): return "unknown option; \(analyzer) has: \(known.joined(separator: ", "))"
        case .entryWithoutName: return "an analyzer entry has no \"name\""
        case .configurationDoesNotFit(let reason): return "configuration does not fit the analyzer: \(reason)"
        case .analyzerRule(let words): return words
        case .framesOutside(let frames, let lastFrame):
            return "frames \(frames.lowerBound)...\(frames.upperBound) are outside the recording's 0...\(lastFrame)"
        case .logFormatVersion(let version, let readable): return "\(version) is not one of \(readable)"
        }
    }

    /// `N analyzer instances, more than the limit …`: the words of every refusal of too many
    /// instances (here, and a file's that lists them).
    public static func instanceCount(_ count: Int, limit: Int, variable: String) -> String {
        "\(count) analyzer instances, more than the limit of \(limit) (each holds frame-sized buffers; "
            + "set \(variable)=N, up to 100000, to allow more)"
    }
}

/// The kinds of value an option's text is read as (``OptionProblem/notA(_:text:)``).
public enum OptionTextKind: Equatable, Sendable, CustomStringConvertible {
    case integer, number, trueOrFalse
    /// A time in seconds within the range.
    case seconds(ClosedRange<Double>)
    /// A region `x,y,width,height`, normalized with a lower-left origin.
    case region

    public var description: String {
        switch self {
        case .integer: "an integer"
        case .number: "a number"
        case .trueOrFalse: "true or false"
        case .seconds(let range): "a time in seconds within \(range.lowerBound.optionText)...\(range.upperBound.optionText)"
        case .region: "x,y,width,height (normalized, lower-left origin), e.g. 0,0,0.5,1"
        }
    }
}
