/// Where an analyzer emits events. The engine stamps each with the frame index, timestamp,
/// analyzer name and order; the analyzer gives only the payload (an ``EventPayload``, which names
/// its kind).
public struct EventSink: Sendable {
    /// An event as emitted, before the engine stamps it.
    public struct Emitted: Sendable, Equatable {
        public var kind: String
        public var payload: JSONValue
    }

    public private(set) var events: [Emitted] = []

    public init() {}

    /// Emits an event of the payload's kind (declare the type in ``Analyzer/eventTypes``), encoded
    /// with keys in declaration order. Floating-point values are written with six decimals.
    public mutating func emit<Payload: EventPayload>(_ payload: Payload) throws {
        events.append(Emitted(kind: Payload.kind, payload: try JSONValueEncoder.encode(payload)))
    }

    /// Emits an event of `kind` whose payload is already a ``JSONValue`` (events that come from
    /// elsewhere, like an external program's; declare them in ``Analyzer/eventSchemas``).
    public mutating func emit(_ kind: String, json payload: JSONValue) {
        events.append(Emitted(kind: kind, payload: payload))
    }

    package mutating func drain() -> [Emitted] {
        defer { events.removeAll(keepingCapacity: true) }
        return events
    }
}
