/// One option of an analyzer's configuration, declared once: the property it sets, its key, what it
/// does and what values it allows. Everything else follows from the declarations in
/// ``AnalyzerConfiguration/options``: the default is the property's initial value, and `--set
/// NAME.KEY=VALUE`, the configuration's JSON (pipeline files, log headers),
/// ``AnalyzerConfiguration/validate()`` and what `lumatrace analyzers NAME` prints all read them.
///
/// ```swift
/// public struct GlareConfiguration: AnalyzerConfiguration {
///     public enum Mode: String, OptionChoice { case mean, peak }
///
///     public var level = 250
///     public var mode = Mode.mean
///     public var label = ""
///
///     public init() {}
///
///     public static let options: [AnalyzerOption<Self>] = [
///         AnalyzerOption("level", \.level, in: 1...255, help: "grey level from which a pixel is glare"),
///         AnalyzerOption("mode", \.mode, help: "how glare is measured"),
///         AnalyzerOption("label", \.label, help: "the name its events carry") {
///             $0.contains(" ") ? "has a space: use letters, digits, - or _" : nil
///         },
///     ]
/// }
/// ```
///
/// `lumatrace analyzers glare` then prints, among others,
/// `--set glare.level=250  grey level from which a pixel is glare, 1...255 (default 250)`, and
/// `--set glare.level=0` is refused with `option glare.level: 0 is outside the allowed range 1...255`.
public struct AnalyzerOption<Configuration: AnalyzerConfiguration>: Sendable {
    /// The option's name in `--set NAME.KEY=VALUE`, in pipeline files and in log headers: the
    /// property's name, by convention (the conformance check requires it).
    public let key: String
    /// What the option does, in a few words; its range, choices and default are printed after it
    /// from the declaration, so the sentence never restates them.
    public let help: String
    /// The allowed values, as declared (`1...254`, `(0, 1]`, `minimumAspectRatio...1`); `nil` for
    /// an option that is not a number in a range.
    public var range: String? { rangeText?() }
    /// The names a choice option (``OptionChoice``) takes, in declaration order; empty otherwise.
    public let choices: [String]
    /// The default, as written after `--set NAME.KEY=`: the property's initial value.
    public var defaultValue: String { valueText(Configuration()) }

    /// The property the option sets, to find the option a range's bound names.
    let property: PartialKeyPath<Configuration> & Sendable
    private let rangeText: (@Sendable () -> String)?
    private let valueText: @Sendable (Configuration) -> String
    private let check: @Sendable (Configuration) throws(OptionError) -> Void
    private let read: @Sendable (KeyedDecodingContainer<OptionKey>, inout Configuration) throws -> Void
    private let write: @Sendable (Configuration, inout KeyedEncodingContainer<OptionKey>) throws -> Void
    private let parse: @Sendable (String) throws(OptionError) -> JSONValue

    /// An option that takes any value of its type: any text, any JSON, any of an
    /// ``OptionChoice``'s names. `check`, when given, returns what is wrong with a value, said after
    /// the option's name (`is empty: give the program to run`), or `nil`; a refusal carries it as
    /// ``OptionProblem/analyzerRule(_:)``.
    public init<Value: OptionValue>(_ key: String, _ property: WritableKeyPath<Configuration, Value> & Sendable, help: String,
                                    check: (@Sendable (Value) -> String?)? = nil) {
        self.init(key, property, help: help, rangeText: nil) { (value, _) throws(OptionError) in
            if let problem = check?(value) { throw OptionError(option: key, .analyzerRule(problem)) }
        }
    }

    /// A number option allowed within `range`, both bounds included: `in: 1...254`.
    public init<Value: OptionValue & Comparable>(_ key: String, _ property: WritableKeyPath<Configuration, Value> & Sendable,
                                                 in range: ClosedRange<Value>, help: String) {
        self.init(key, property, in: OptionRange(range), help: help)
    }

    /// A number option allowed within `range`: `in: .above(0, atMost: 1)`, `in: .atLeast(\.minimum, atMost: 1)`.
    public init<Value: OptionValue & Comparable>(_ key: String, _ property: WritableKeyPath<Configuration, Value> & Sendable,
                                                 in range: OptionRange<Configuration, Value>, help: String) {
        self.init(key, property, help: help, rangeText: { range.text }) { (value, configuration) throws(OptionError) in
            guard range.contains(value, in: configuration) else {
                throw OptionError(option: key, .outOfRange(value: value.optionText, allowed: range.text(in: configuration)))
            }
        }
    }

    private init<Value: OptionValue>(_ key: String, _ property: WritableKeyPath<Configuration, Value> & Sendable, help: String,
                                     rangeText: (@Sendable () -> String)?,
                                     check: @escaping @Sendable (Value, Configuration) throws(OptionError) -> Void) {
        self.key = key
        self.help = help
        self.property = property
        choices = (Value.self as? any OptionChoice.Type)?.names ?? []
        self.rangeText = rangeText
        valueText = { $0[keyPath: property].optionText }
        self.check = { configuration throws(OptionError) in try check(configuration[keyPath: property], configuration) }
        read = { container, configuration in configuration[keyPath: property] = try container.decode(Value.self, forKey: OptionKey(key)) }
        write = { configuration, container in try container.encode(configuration[keyPath: property], forKey: OptionKey(key)) }
        parse = { text throws(OptionError) in
            let value: Value
            do throws(OptionError) { value = try Value(optionText: text) } catch { throw OptionError(option: key, error.problem) }
            do { return try JSONValueEncoder.encode(value) } catch {
                throw OptionError(option: key, .notWritableAsJSON(text: text, reason: "\(error)"))
            }
        }
    }

    // MARK: - What the configuration does with it

    /// Refuses the option's value in `configuration` when the declaration does not allow it.
    func validate(_ configuration: Configuration) throws(OptionError) { try check(configuration) }

    /// Reads the option's value from a configuration's JSON object.
    func decode(from container: KeyedDecodingContainer<OptionKey>, into configuration: inout Configuration) throws {
        try read(container, &configuration)
    }

    /// Writes the option's value into a configuration's JSON object.
    func encode(_ configuration: Configuration, into container: inout KeyedEncodingContainer<OptionKey>) throws {
        try write(configuration, &container)
    }

    /// The JSON value `--set NAME.KEY=TEXT` gives the option; a refusal names the key.
    package func json(forSetting text: String) throws(OptionError) -> JSONValue { try parse(text) }
}

/// A configuration's key in its JSON object: an option's ``AnalyzerOption/key``.
struct OptionKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ key: String) { stringValue = key }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
