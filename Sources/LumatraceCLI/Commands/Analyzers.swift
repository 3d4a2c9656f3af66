import ArgumentParser
import LumaAnalysis
import LumaEngine

struct Analyzers: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the analyzers and their options with defaults.",
        discussion: """
              lumatrace analyzers
              lumatrace analyzers differencing
            Every analyzer also takes the engine options frameAnalysisSpacing (seconds between analyzed
            frames, 0 = every frame) and regionOfInterest (x,y,width,height normalized, lower-left origin).
            """)

    @Argument(help: "Show only this analyzer.")
    var name: String?

    func run() throws {
        try reportingErrors {
            let registry = Lumatrace.registry
            let descriptors = try name.map { [try registry.descriptor(named: $0)] } ?? registry.descriptors
            for d in descriptors { Self.listing(of: d).forEach { print($0) } }
        }
    }

    /// An analyzer's name, version and summary, then one line per option in declaration order:
    /// `--set NAME.KEY=DEFAULT` and the option's help (its sentence, range or choices, and default),
    /// then the engine's options.
    static func listing(of d: AnalyzerDescriptor) -> [String] {
        var rows = d.options.map { (setting: "--set \(d.name).\($0.key)=\($0.defaultValue)", help: $0.text) }
        rows.append(("--set \(d.name).frameAnalysisSpacing=0", "seconds between analyzed frames (engine option)"))
        rows.append(("--set \(d.name).regionOfInterest=0,0,1,1", "x,y,width,height normalized, lower-left origin (engine option)"))
        // One column as wide as the longest setting: a default is never cut short.
        let width = rows.map(\.setting.count).max() ?? 0
        return ["\(d.name) (version \(d.version)): \(d.summary)"]
            + rows.map { "  " + $0.setting.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.help }
    }
}
