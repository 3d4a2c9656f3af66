/// A type an analyzer option can hold: how `--set NAME.KEY=TEXT` reads it and how it is printed.
///
/// `Int`, `Double`, `Bool`, `String`, ``JSONValue``, arrays of option values and enumerations of
/// names (``OptionChoice``) are option values. Any other `Codable` type becomes one by conforming;
/// its text is then JSON (an array may leave out its brackets: `1,2,3`).
public protocol OptionValue: Codable, Sendable, Equatable {
    /// Reads `TEXT` of `--set NAME.KEY=TEXT`, or throws an ``OptionError`` whose message says what
    /// the text should be (`'abc' is not an integer`); the option's declaration fills in its key.
    init(optionText text: String) throws(OptionError)
    /// The value as written after `--set NAME.KEY=`: how `lumatrace analyzers` prints a default or a
    /// bound, and how a refusal quotes a value.
    var optionText: String { get }
}

extension OptionValue {
    public init(optionText text: String) throws(OptionError) {
        let candidate = text.hasPrefix("[") || text.hasPrefix("{") || text.hasPrefix("\"") ? text : "[\(text)]"
        let json: JSONValue
        do { json = try JSONParser.parse(candidate) } catch { throw OptionError(option: "", .notJSON(text: text, error)) }
        do { self = try json.decode(Self.self) } catch { throw OptionError(option: "", .notValid(text: text, DecodingProblem(error))) }
    }

    public var optionText: String { (try? JSONValueEncoder.encode(self))?.serialized ?? "" }
}

extension Int: OptionValue {
    public init(optionText text: String) throws(OptionError) {
        guard let value = Int(text) else { throw OptionError(option: "", .notA(.integer, text: text)) }
        self = value
    }

    public var optionText: String { String(self) }
}

extension Double: OptionValue {
    public init(optionText text: String) throws(OptionError) {
        guard let value = Double(text), value.isFinite else { throw OptionError(option: "", .notA(.number, text: text)) }
        self = value
    }

    /// Whole numbers without a decimal point (`30`, not `30.0`); others in Swift's shortest form
    /// that reads back as the same number (`0.05`).
    public var optionText: String {
        rounded() == self && abs(self) < 1e15 ? String(Int64(self)) : description
    }
}

extension Bool: OptionValue {
    public init(optionText text: String) throws(OptionError) {
        switch text.lowercased() {
        case "true", "yes", "1", "on": self = true
        case "false", "no", "0", "off": self = false
        default: throw OptionError(option: "", .notA(.trueOrFalse, text: text))
        }
    }

    public var optionText: String { self ? "true" : "false" }
}

extension String: OptionValue {
    public init(optionText text: String) throws(OptionError) { self = text }

    /// The text itself; the empty string as `""`, as a shell takes it.
    public var optionText: String { isEmpty ? "\"\"" : self }
}

extension JSONValue: OptionValue {
    /// Any JSON text: `{"every":10}`, `[1,2]`, `"text"`.
    public init(optionText text: String) throws(OptionError) {
        do { self = try JSONParser.parse(text) } catch {
            throw OptionError(option: "", .notJSON(text: text, error))
        }
    }

    public var optionText: String { serialized }
}

extension Array: OptionValue where Element: OptionValue {}
