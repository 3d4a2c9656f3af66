/// A file (a pipeline file, or a log's header) configures an analyzer that would start a program,
/// and the user did not allow programs for this run (``ProgramPermission``).
public struct ProgramNotAllowed: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file that names the program.
    public var source: String
    /// The command it would run, shown so the user can read it before allowing it.
    public var program: String
    /// The analyzer instance that would start it.
    public var analyzer: String

    public init(source: String, program: String, analyzer: String) {
        self.source = source
        self.program = program
        self.analyzer = analyzer
    }

    public var description: String {
        "\(source) would run a program: `\(program)` (analyzer \(analyzer)); a program named in a file runs only when allowed"
    }
}
