/// A refused option: which one, what was given, and what is allowed.
///
/// The library's messages say what is wrong in the words of options and never name a command-line
/// flag; the engine prefixes `option` with the analyzer's name (`differencing.threshold`), and the
/// command line prints it as `option differencing.threshold: 0 is outside the allowed range 1...254`.
public struct OptionError: Error, Equatable, Sendable, CustomStringConvertible {
    public var option: String
    public var message: String

    public init(option: String, message: String) {
        self.option = option
        self.message = message
    }

    /// `option` = `value` is outside `allowed`.
    public static func outOfRange(_ option: String, _ value: some CustomStringConvertible, allowed: String) -> OptionError {
        OptionError(option: option, message: "\(value) is outside the allowed range \(allowed)")
    }

    public var description: String { "option \(option): \(message)" }
}
