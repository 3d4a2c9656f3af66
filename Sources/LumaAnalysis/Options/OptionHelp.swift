/// One option as `lumatrace analyzers NAME` lists it, made from its declaration
/// (``AnalyzerOption``): nothing in it is written by hand.
public struct OptionHelp: Sendable, Equatable {
    public var key: String
    /// The default, as written after `--set NAME.KEY=`.
    public var defaultValue: String
    /// What the option does (``AnalyzerOption/help``).
    public var help: String
    /// The allowed range as declared (`1...254`, `(0, 1]`), or `nil`.
    public var range: String?
    /// The names a choice option takes; empty otherwise.
    public var choices: [String]

    public init<Configuration>(_ option: AnalyzerOption<Configuration>) {
        key = option.key
        defaultValue = option.defaultValue
        help = option.help
        range = option.range
        choices = option.choices
    }

    /// The help line: the sentence, then the range or the choices, then the default:
    /// `changed-pixel threshold, grey levels, 1...254 (default 25)`,
    /// `what each frame is compared with: previous or background (default previous)`.
    public var text: String {
        var line = help
        if let range { line += ", " + range }
        if let last = choices.last {
            line += ": " + (choices.count == 1 ? last : choices.dropLast().joined(separator: ", ") + " or " + last)
        }
        return line + " (default \(defaultValue))"
    }
}
