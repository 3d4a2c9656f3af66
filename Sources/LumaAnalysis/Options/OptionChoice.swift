/// An option that is one of a set of names: an enumeration whose raw values are the names, in the
/// order `lumatrace analyzers` lists them.
///
/// ```swift
/// public enum Mode: String, OptionChoice {
///     case previous, background
/// }
/// ```
/// Any other text is refused naming the option and listing the names:
/// `option differencing.mode: 'fastest' is not one of previous, background`.
public protocol OptionChoice: OptionValue, CaseIterable, RawRepresentable where RawValue == String {}

extension OptionChoice {
    public init(optionText text: String) throws(OptionError) {
        guard let value = Self(rawValue: text) else { throw Self.refusal(of: text, option: "") }
        self = value
    }

    public var optionText: String { rawValue }

    /// Reads one of the names, refusing any other text with an ``OptionError`` that names the
    /// option (the key it is read under) and lists the names.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = Self(rawValue: text) else {
            throw Self.refusal(of: text, option: decoder.codingPath.last?.stringValue ?? "")
        }
        self = value
    }

    /// The names, in declaration order.
    static var names: [String] { allCases.map(\.rawValue) }

    /// The refusal of `text`, which is none of the names.
    static func refusal(of text: String, option: String) -> OptionError {
        OptionError(option: option, .notAChoice(text: text, choices: names))
    }
}
