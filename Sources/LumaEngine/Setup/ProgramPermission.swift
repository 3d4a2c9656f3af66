import Foundation
import LumaAnalysis

/// Programs named in a file run only when the user allows it for that run.
///
/// A pipeline file or an event log's header can configure an analyzer that starts a program (the
/// `external` analyzer's shell command). Such a file may come from anyone, so replaying it, and
/// verifying or regressing a log that names one, is refused, showing the command, unless the user
/// allowed programs for this run.
public enum ProgramPermission {
    /// Throws ``ProgramNotAllowed``, naming `source` and
    /// the command, if a setup starts a program and `allowed` is false.
    public static func require(_ setups: [AnalyzerSetup], from source: String, registry: AnalyzerRegistry, allowed: Bool) throws(ProgramNotAllowed) {
        guard !allowed else { return }
        for setup in setups {
            guard let descriptor = try? registry.descriptor(named: setup.analyzer),
                  let program = setup.program(with: descriptor) else { continue }
            throw ProgramNotAllowed(source: source, program: program, analyzer: setup.name)
        }
    }
}
