/// An analyzer's options: a struct whose every property has a default (``init()``), so
/// `--analyzer NAME` alone works, and whose ``options`` declare each property once.
///
/// From the declarations the configuration gets, without writing them: `Codable` (one key per
/// option, in declaration order: the order of the log header, which records the full resolved
/// configuration so a replay can be repeated exactly), ``validate()`` (each option's range,
/// choices or check, in order), `--set NAME.KEY=VALUE` (read as the option's type) and
/// ``optionHelp`` (what `lumatrace analyzers NAME` prints).
///
/// ```swift
/// public struct GlareConfiguration: AnalyzerConfiguration {
///     /// Grey level from which a pixel is glare.
///     public var level = 250
///
///     public init() {}
///
///     public static let options: [AnalyzerOption<Self>] = [
///         AnalyzerOption("level", \.level, in: 1...255, help: "grey level from which a pixel is glare"),
///     ]
/// }
/// ```
public protocol AnalyzerConfiguration: Codable, Sendable, Equatable {
    /// All defaults.
    init()
    /// Every option, once, in the order they are listed, checked and written: by convention the
    /// order of the properties. A configuration without options declares `[]`.
    static var options: [AnalyzerOption<Self>] { get }
    /// Refuses impossible values with an ``OptionError`` naming the option and what it allows.
    /// The default checks every declaration in order; a rule that spans options and that no range
    /// can say is added by implementing it, calling ``validateOptions()`` first.
    func validate() throws(OptionError)
}

extension AnalyzerConfiguration {
    public func validate() throws(OptionError) { try validateOptions() }

    /// Checks every option against its declaration, in order, and refuses the first that breaks it.
    public func validateOptions() throws(OptionError) {
        for option in Self.options { try option.validate(self) }
    }

    /// One entry per option, in declaration order, as `lumatrace analyzers NAME` shows it.
    public static var optionHelp: [OptionHelp] { options.map(OptionHelp.init) }

    /// Reads each declared option's key; every key must be there (the engine fills in defaults
    /// first), and keys not declared are left to the engine, which refuses them by name.
    public init(from decoder: any Decoder) throws {
        self.init()
        let container = try decoder.container(keyedBy: OptionKey.self)
        for option in Self.options { try option.decode(from: container, into: &self) }
    }

    /// Writes each declared option's key, in declaration order.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: OptionKey.self)
        for option in Self.options { try option.encode(self, into: &container) }
    }
}
