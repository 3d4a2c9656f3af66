/// A refused option: which one, and what is wrong with it (``OptionProblem``: what was given, and
/// what is allowed).
///
/// The library's errors say what is wrong in the words of options and never name a command-line
/// flag; the engine prefixes `option` with the analyzer's name (`differencing.threshold`), and the
/// command line prints it as `option differencing.threshold: 0 is outside the allowed range 1...254`.
public struct OptionError: Error, Equatable, Sendable, CustomStringConvertible {
    public var option: String
    public var problem: OptionProblem

    public init(option: String, _ problem: OptionProblem) {
        self.option = option
        self.problem = problem
    }

    /// What is wrong, said after the option's name.
    public var message: String { problem.description }

    public var description: String { "option \(option): \(message)" }
}
