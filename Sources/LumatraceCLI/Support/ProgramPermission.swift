import LumaAnalysis
import LumaEngine

/// Programs named in a file run only when the user allows it for that run.
///
/// A pipeline file or an event log's header can configure an analyzer that starts a program (the
/// `external` analyzer's shell command). Such a file may come from anyone, so `replay --pipeline`,
/// `verify` and `regress` refuse it, showing the command, unless `--allow-external` is given.
enum ProgramPermission {
    static let flagHelp = "Run the programs (external analyzers' commands) that a pipeline file or a log's header names. Without it such a file is refused, showing the command."

    /// Throws, naming `source` and the command, if a setup starts a program and `allowed` is false.
    static func require(_ setups: [AnalyzerSetup], from source: String, registry: AnalyzerRegistry, allowed: Bool) throws {
        guard !allowed else { return }
        for setup in setups {
            guard let descriptor = try? registry.descriptor(named: setup.analyzer),
                  let program = descriptor.program(in: setup.configuration) else { continue }
            throw CLIError("\(source) would run a program: `\(program)` (analyzer \(setup.name)); a program named in a file runs only "
                + "with --allow-external for this run: read the command, then pass it if you trust it")
        }
    }
}
