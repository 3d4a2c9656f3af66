import LumaAnalysis
/// An analyzer type, erased: its name, version, defaults, and how to build a configured instance.
/// Built once per analyzer type at registration; the engine never inspects types per frame.
public struct AnalyzerDescriptor: Sendable {
    public let name: String
    public let version: String
    public let summary: String
    /// The default configuration, as it appears in a log header.
    public let defaultConfiguration: JSONValue
    /// Each option as `lumatrace analyzers` lists it, in declaration order.
    public let options: [OptionHelp]
    /// Whether the defaults alone are a valid configuration. Analyzers that need an option first
    /// (e.g. `external`, which needs a command) do not run when `replay` runs "every analyzer".
    public let runsWithDefaults: Bool
    /// Option keys holding paths relative to the configuration's file (`Analyzer/pathOptions`).
    public let pathOptions: [String]
    /// The event kinds its type declares (`Analyzer/eventTypes`); empty when only a running
    /// instance knows them (`external`).
    public let eventSchemas: [EventSchema]

    /// The program a configuration starts (see `Analyzer/program(in:)`), or `nil`. Keys the
    /// configuration leaves out take their defaults, as in a replay.
    public func program(in configuration: JSONValue) -> String? {
        findProgram(withDefaults(configuration))
    }

    /// Why `configuration` can log nothing (see `Analyzer/idleReason(in:)`), or `nil`.
    public func idleReason(in configuration: JSONValue) -> String? {
        findIdleReason(withDefaults(configuration))
    }

    /// The memory one instance keeps per frame pixel under `configuration` (see
    /// `Analyzer/memoryPerPixel(in:)`); the analyzer's default when the configuration does not decode.
    public func memoryPerPixel(in configuration: JSONValue) -> Double {
        findMemoryPerPixel(withDefaults(configuration))
    }

    /// `configuration` with the keys it leaves out at their defaults, as in a replay.
    private func withDefaults(_ configuration: JSONValue) -> JSONValue {
        var merged = defaultConfiguration.objectValue ?? []
        for m in configuration.objectValue ?? [] {
            if let i = merged.firstIndex(where: { $0.key == m.key }) { merged[i].value = m.value } else { merged.append(m) }
        }
        return .object(merged)
    }

    /// The JSON value `--set NAME.KEY=TEXT` gives option `key`, read as the option's type, or `nil`
    /// when the analyzer has no such option.
    public func value(ofSetting key: String, text: String) throws(OptionError) -> JSONValue? {
        try readSetting(key, text)
    }

    let findProgram: @Sendable (JSONValue) -> String?
    let findIdleReason: @Sendable (JSONValue) -> String?
    let findMemoryPerPixel: @Sendable (JSONValue) -> Double
    /// Decodes and validates a configuration, once (``ValidatedConfiguration``).
    let decodeAndValidate: @Sendable (JSONValue) throws -> ValidatedConfiguration
    let readSetting: @Sendable (String, String) throws(OptionError) -> JSONValue?

    public init<A: Analyzer>(_ type: A.Type) where A.Configuration: Sendable {
        name = A.name
        version = A.version
        summary = A.summary
        defaultConfiguration = (try? JSONValueEncoder.encode(A.Configuration())) ?? .object([])
        options = A.Configuration.optionHelp
        runsWithDefaults = (try? A.Configuration().validate()) != nil
        pathOptions = A.pathOptions
        eventSchemas = A.eventTypes.map(EventSchema.init)
        findProgram = { json in (try? json.asPrinted.decode(A.Configuration.self)).flatMap { A.program(in: $0) } }
        findIdleReason = { json in (try? json.asPrinted.decode(A.Configuration.self)).flatMap { A.idleReason(in: $0) } }
        findMemoryPerPixel = { json in A.memoryPerPixel(in: (try? json.asPrinted.decode(A.Configuration.self)) ?? A.Configuration()) }
        decodeAndValidate = { json in try ValidatedConfiguration(A.self, json: json) }
        readSetting = { key, text throws(OptionError) in
            try A.Configuration.options.first { $0.key == key }?.json(forSetting: text)
        }
    }
}

/// A live analyzer, boxed so the engine can hold different analyzer types in one array.
final class AnalyzerInstance: @unchecked Sendable {
    private let analyzeFrame: (Frame, inout EventSink) throws -> Void
    private let finishStream: (inout EventSink) throws -> Void
    /// The files its program is made of, as it started (``Analyzer/programFiles``).
    let programFiles: [ProgramFile]
    /// The event kinds it declares (``Analyzer/eventSchemas``).
    let eventSchemas: [EventSchema]

    init<A: Analyzer>(_ analyzer: A) {
        programFiles = analyzer.programFiles
        eventSchemas = analyzer.eventSchemas
        let box = AnalyzerBox(analyzer)
        analyzeFrame = { frame, sink in try box.value.analyze(frame, into: &sink) }
        finishStream = { sink in try box.value.finish(into: &sink) }
    }

    func analyze(_ frame: Frame, into sink: inout EventSink) throws { try analyzeFrame(frame, &sink) }
    func finish(into sink: inout EventSink) throws { try finishStream(&sink) }
}

private final class AnalyzerBox<A: Analyzer> {
    var value: A
    init(_ value: A) { self.value = value }
}

/// The analyzers a `lumatrace` build knows, in a fixed order (the order of their events within a
/// frame when several run together is the order of the replay's setups, not of the registry).
public struct AnalyzerRegistry: Sendable {
    public let descriptors: [AnalyzerDescriptor]

    public init(_ descriptors: [AnalyzerDescriptor]) {
        self.descriptors = descriptors
    }

    public var names: [String] { descriptors.map(\.name) }

    public func descriptor(named name: String) throws(OptionError) -> AnalyzerDescriptor {
        guard let d = descriptors.first(where: { $0.name == name }) else {
            throw OptionError(option: "analyzer", .unknownAnalyzer(name, known: names))
        }
        return d
    }
}
