import DifferencingAnalyzer
import ExternalAnalyzer
import LumaAnalysis
import LumaEngine
import RectanglesAnalyzer
import Testing
import TrackingAnalyzer
import TrajectoryAnalyzer
import LumaTestSupport

/// The built-in analyzers' option declarations, taken at their word: every range as printed by
/// `lumatrace analyzers` is the range `--set` enforces, bound for bound, and every choice listed is
/// one it takes.
@Suite("Option declarations: the printed ranges and choices are what validation enforces")
struct OptionDeclarationTests {
    static let registry = AnalyzerRegistry([
        AnalyzerDescriptor(DifferencingAnalyzer.self), AnalyzerDescriptor(TrajectoryAnalyzer.self),
        AnalyzerDescriptor(TrackingAnalyzer.self), AnalyzerDescriptor(RectanglesAnalyzer.self),
        AnalyzerDescriptor(ExternalAnalyzer.self),
    ])

    /// What an analyzer needs besides its defaults to be valid at all (`external` runs a command).
    static let required: [String: [(key: String, value: String)]] = ["external": [("command", "cat")]]

    @Test("every range: a value at each bound is accepted, one just outside is refused naming the option, the value and the range",
          arguments: registry.names)
    func ranges(analyzer: String) throws {
        let descriptor = try Self.registry.descriptor(named: analyzer)
        var checked = 0
        for option in descriptor.options {
            guard let text = option.range else { continue }
            let isInteger = if case .int = descriptor.defaultConfiguration[option.key] { true } else { false }
            let range = try #require(PrintedRange(text, isInteger: isInteger, defaults: descriptor.defaultConfiguration),
                                     "\(analyzer).\(option.key): the range '\(text)' is not one of the printed forms")
            for value in range.inside {
                #expect(throws: Never.self, "\(analyzer).\(option.key)=\(value) is inside \(text)") {
                    _ = try setup(descriptor, option.key, value)
                }
            }
            for value in range.outside {
                let refusal = #expect(throws: OptionError.self, "\(analyzer).\(option.key)=\(value) is outside \(text)") {
                    _ = try setup(descriptor, option.key, value)
                }
                #expect(refusal?.option == "\(analyzer).\(option.key)")
                let message = refusal?.message ?? ""
                // The value as the refusal quotes it, read back: the same number.
                let quoted = message.components(separatedBy: " is outside the allowed range ")
                #expect(quoted.count == 2 && Double(quoted[0]) == Double(value), "\(message)")
                #expect(quoted.last?.hasPrefix(text) == true, "\(message) does not give the range \(text)")
            }
            checked += 1
        }
        #expect(checked > 0, "\(analyzer) declares no range")
    }

    @Test("every choice option takes each listed name and refuses any other, listing the names", arguments: registry.names)
    func choices(analyzer: String) throws {
        let descriptor = try Self.registry.descriptor(named: analyzer)
        for option in descriptor.options where !option.choices.isEmpty {
            for name in option.choices {
                let resolved = try setup(descriptor, option.key, name)
                #expect(resolved.configuration[option.key] == .string(name))
            }
            #expect(throws: OptionError(option: "\(analyzer).\(option.key)", .notAChoice(text: "sideways", choices: option.choices))) {
                _ = try setup(descriptor, option.key, "sideways")
            }
        }
    }

    @Test("a bound that is another option follows that option's value")
    func optionBound() throws {
        let rectangles = try Self.registry.descriptor(named: "rectangles")
        let raised = [("minimumAspectRatio", "0.8")]
        _ = try AnalyzerSetup.resolve(rectangles, overrides: raised + [("maximumAspectRatio", "0.8")])
        #expect(throws: OptionError(option: "rectangles.maximumAspectRatio",
                                    .outOfRange(value: "0.7", allowed: "minimumAspectRatio...1 (0.8...1)"))) {
            _ = try AnalyzerSetup.resolve(rectangles, overrides: raised + [("maximumAspectRatio", "0.7")])
        }
    }

    @discardableResult
    func setup(_ descriptor: AnalyzerDescriptor, _ key: String, _ value: String) throws(OptionError) -> AnalyzerSetup {
        try AnalyzerSetup.resolve(descriptor, overrides: (Self.required[descriptor.name] ?? []) + [(key, value)])
    }
}

/// A range as `lumatrace analyzers` prints it (`1...254`, `(0, 1]`, `(0, 1)`, `[0, 1)`,
/// `minimumAspectRatio...1`, `0 or 16...16384`), read back into values to try: each bound (or, for
/// an open end, the nearest value inside it) and the nearest value beyond each bound, nearest at
/// the options' resolution (whole numbers, or the six decimals a log header keeps).
struct PrintedRange {
    var inside: [String] = []
    var outside: [String] = []

    /// `defaults` gives the value of a bound that is another option.
    init?(_ text: String, isInteger: Bool, defaults: JSONValue) {
        var rest = Substring(text)
        if let or = rest.range(of: " or ") {
            inside.append(String(rest[..<or.lowerBound]))
            rest = rest[or.upperBound...]
        }
        let lowerOpen = rest.hasPrefix("("), upperOpen = rest.hasSuffix(")")
        let parts: [Substring]
        if rest.hasPrefix("(") || rest.hasPrefix("[") {
            parts = rest.dropFirst().dropLast().components(separatedBy: ", ").map { Substring($0) }
        } else {
            parts = rest.components(separatedBy: "...").map { Substring($0) }
        }
        guard parts.count == 2, let lower = Self.number(parts[0], defaults), let upper = Self.number(parts[1], defaults) else { return nil }
        // A number option holds what the log header can: six decimals (``JSONValue/decimals``).
        let step = isInteger ? 1 : 1 / 1e6
        func show(_ value: Double) -> String { isInteger ? String(Int(value)) : "\((value * 1e6).rounded() / 1e6)" }
        func below(_ value: Double) -> Double { value - step }
        func above(_ value: Double) -> Double { value + step }
        inside += [show(lowerOpen ? above(lower) : lower), show(upperOpen ? below(upper) : upper)]
        outside += [show(lowerOpen ? lower : below(lower)), show(upperOpen ? upper : above(upper))]
    }

    /// A printed bound: a number, or the key of the option whose default it is.
    private static func number(_ text: Substring, _ defaults: JSONValue) -> Double? {
        Double(text) ?? defaults[String(text)]?.doubleValue
    }
}
