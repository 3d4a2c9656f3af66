import LumaAnalysis

/// The shape of each event of a log, from its header: what each analyzer declared. An analyzer
/// that declared nothing (a log written before event kinds were declared) has its events read as
/// JSON, unless the log was read with a registry that knows the analyzer
/// (``EventLog/declaringKinds(from:)``).
public struct EventShapes: Sendable {
    private var declared: [String: [String: EventShape?]] = [:]

    public init(_ header: EventLogHeader) {
        for a in header.analyzers where !a.events.isEmpty {
            declared[a.name] = Dictionary(a.events.map { ($0.kind, $0.shape) }, uniquingKeysWith: { x, _ in x })
        }
    }

    /// The shape `event` is read as, or `nil` (compared as JSON).
    public func shape(of event: LoggedEvent) -> EventShape? {
        declared[event.analyzer]?[event.kind] ?? nil
    }
}

extension EventLog {
    /// This log with the event kinds of each analyzer its header declares none for (a log written
    /// before headers declared them) taken from `registry`: the kinds the analyzer of that name
    /// declares in this build. Analyzers the registry does not know stay undeclared.
    public func declaringKinds(from registry: AnalyzerRegistry) -> EventLog {
        var log = self
        for i in log.header.analyzers.indices where log.header.analyzers[i].events.isEmpty {
            let analyzer = log.header.analyzers[i].analyzer
            log.header.analyzers[i].events = registry.descriptors.first { $0.name == analyzer }?.eventSchemas ?? []
        }
        return log
    }
}
