import DifferencingAnalyzer
import ExternalAnalyzer
import LumaAnalysis
import LumaEngine
import RectanglesAnalyzer
import Testing
import TrackingAnalyzer
import TrajectoryAnalyzer
import LumaTestSupport

/// `lumatrace analyzers NAME` against the plugins' own option declarations: what a user reads is
/// what the declaration says, and what the declaration says is what the analyzer does.
@Suite("lumatrace analyzers: every option as its declaration says, in declaration order")
struct AnalyzerListingTests {
    /// Each built-in analyzer with its configuration's declarations, read from the plugin itself.
    static let declared: [(descriptor: AnalyzerDescriptor, options: [OptionHelp])] = [
        (AnalyzerDescriptor(DifferencingAnalyzer.self), DifferencingConfiguration.optionHelp),
        (AnalyzerDescriptor(TrajectoryAnalyzer.self), TrajectoryConfiguration.optionHelp),
        (AnalyzerDescriptor(TrackingAnalyzer.self), TrackingConfiguration.optionHelp),
        (AnalyzerDescriptor(RectanglesAnalyzer.self), RectanglesConfiguration.optionHelp),
        (AnalyzerDescriptor(ExternalAnalyzer.self), ExternalConfiguration.optionHelp),
    ]

    /// The engine's options, listed after the analyzer's own.
    static let engineSettings = ["frameAnalysisSpacing=0", "regionOfInterest=0,0,1,1"]

    @Test("each option's line: --set NAME.KEY=DEFAULT, then its help sentence, range or choices, and default",
          arguments: declared.map(\.descriptor.name))
    func listing(name: String) throws {
        let options = try #require(Self.declared.first { $0.descriptor.name == name }).options
        let run = try CLI.run(["analyzers", name])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("\(name) (version ") == true, "\(run.stdout)")
        let rows = lines.dropFirst().map(Self.row)
        #expect(rows.map(\.setting) == options.map { "--set \(name).\($0.key)=\($0.defaultValue)" }
                    + Self.engineSettings.map { "--set \(name).\($0)" })
        for (row, option) in zip(rows, options) {
            #expect(row.help == Self.line(option), "\(name).\(option.key)")
        }
    }

    @Test("the printed defaults are the configuration's, and its header keys come in declaration order",
          arguments: declared.map(\.descriptor.name))
    func defaults(name: String) throws {
        let (descriptor, options) = try #require(Self.declared.first { $0.descriptor.name == name })
        let header = try #require(descriptor.defaultConfiguration.objectValue)
        #expect(header.map(\.key) == options.map(\.key))
        for (member, option) in zip(header, options) {
            // What a shell hands over for `--set NAME.KEY=DEFAULT`: `""` is the empty string.
            let typed = option.defaultValue == "\"\"" ? "" : option.defaultValue
            #expect(try descriptor.value(ofSetting: option.key, text: typed) == member.value, "\(name).\(option.key)")
        }
    }

    @Test("a changed declaration changes the line: the listing is made from it, not written beside it")
    func followsTheDeclaration() {
        var option = DifferencingConfiguration.optionHelp[0]
        #expect(option.text == "changed-pixel threshold on the absolute difference, grey levels, 1...254 (default 25)")
        option.range = "2...200"
        option.defaultValue = "30"
        #expect(option.text == "changed-pixel threshold on the absolute difference, grey levels, 2...200 (default 30)")
        #expect(Self.line(option) == option.text)
    }

    // MARK: - Support

    /// The help column as the declaration composes it: the sentence, `, RANGE` or `: A, B or C`,
    /// and ` (default DEFAULT)`.
    static func line(_ option: OptionHelp) -> String {
        var text = option.help
        if let range = option.range { text += ", \(range)" }
        switch option.choices.count {
        case 0: break
        case 1: text += ": \(option.choices[0])"
        default: text += ": " + option.choices.dropLast().joined(separator: ", ") + " or " + option.choices.last!
        }
        return text + " (default \(option.defaultValue))"
    }

    /// A listed option: the `--set` column and the help column, split where two spaces follow the setting.
    static func row(_ line: String) -> (setting: String, help: String) {
        let text = line.drop { $0 == " " }
        guard let gap = text.range(of: "  ") else { return (String(text), "") }
        return (String(text[..<gap.lowerBound]), String(text[gap.upperBound...].drop { $0 == " " }))
    }
}
