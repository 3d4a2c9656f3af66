import LumaAnalysis

/// The shape of each event of a log, from its header: what each analyzer declared, or, for an
/// analyzer that declared nothing (a log written before event kinds were declared), the built-in
/// kinds by name.
public struct EventShapes: Sendable {
    private var declared: [String: [String: EventShape?]] = [:]

    public init(_ header: EventLogHeader) {
        for a in header.analyzers where !a.events.isEmpty {
            declared[a.name] = Dictionary(a.events.map { ($0.kind, $0.shape) }, uniquingKeysWith: { x, _ in x })
        }
    }

    /// The shape `event` is read as, or `nil` (compared as JSON).
    public func shape(of event: LoggedEvent) -> EventShape? {
        if let kinds = declared[event.analyzer] { return kinds[event.kind] ?? nil }
        return EventShape.ofUndeclaredKind(event.kind)
    }
}

extension EventShape {
    /// The shapes of the built-in analyzers' kinds, for logs whose header declares none.
    public static func ofUndeclaredKind(_ kind: String) -> EventShape? {
        switch kind {
        case "trajectory.end": return .pathEnd
        case "trajectory": return .pathUpdate
        case "track": return .box
        case "track.lost": return .boxLost
        case "track.recovered": return .boxRecovered
        case "rectangleTrack", "rectangle": return .quadrilateral
        case "diff": return .blobs
        default: return nil
        }
    }
}
