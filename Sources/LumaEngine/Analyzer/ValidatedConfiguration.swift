import LumaAnalysis

/// An analyzer's configuration once decoded and validated: the typed value, type-erased, from
/// which the analyzer is built without reading or checking it again, and its JSON as the log
/// header prints it. ``AnalyzerSetup/validate(with:)`` makes it; the replay's
/// `FrameAnalysis` builds the analyzer from it.
public struct ValidatedConfiguration: Sendable {
    /// The analyzer it configures (``AnalyzerDescriptor/name``).
    public let analyzer: String
    /// The configuration's JSON, every option in declaration order: what the log header holds.
    public let json: JSONValue
    /// The program it starts (`Analyzer.program(in:)`, LumaAnalysis), or `nil`.
    public let program: String?
    /// Why it can log nothing (`Analyzer.idleReason(in:)`, LumaAnalysis), or `nil`.
    public let idleReason: String?
    private let make: @Sendable (AnalyzerContext) throws -> AnalyzerInstance

    /// Decodes `json` (each number as its log line prints it) as `A`'s configuration and validates
    /// it, once.
    init<A: Analyzer>(_ type: A.Type, json: JSONValue) throws where A.Configuration: Sendable {
        let configuration = try json.asPrinted.decode(A.Configuration.self)
        try configuration.validate()
        analyzer = A.name
        self.json = try JSONValueEncoder.encode(configuration)
        program = A.program(in: configuration)
        idleReason = A.idleReason(in: configuration)
        make = { context in AnalyzerInstance(try A(configuration: configuration, context: context)) }
    }

    /// The analyzer, built for `context` from the typed configuration.
    func makeAnalyzer(context: AnalyzerContext) throws -> AnalyzerInstance { try make(context) }
}
