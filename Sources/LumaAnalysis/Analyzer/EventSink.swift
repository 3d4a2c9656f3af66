/// Where an analyzer emits events. The engine stamps each with the frame index, timestamp,
/// analyzer name and order; the analyzer gives only a `kind` and a payload.
public struct EventSink: Sendable {
    /// An event as emitted, before the engine stamps it.
    public struct Emitted: Sendable, Equatable {
        public var kind: String
        public var payload: JSONValue
    }

    public private(set) var events: [Emitted] = []

    public init() {}

    /// Emits an event of `kind` (e.g. `"trajectory"`, `"diff"`) with a `Codable` payload, encoded
    /// with keys in declaration order. Floating-point values are written with six decimals.
    public mutating func emit(_ kind: String, _ payload: some Encodable) throws {
        events.append(Emitted(kind: kind, payload: try JSONValueEncoder.encode(payload)))
    }

    /// Emits an event whose payload is already a ``JSONValue``.
    public mutating func emit(_ kind: String, json payload: JSONValue) {
        events.append(Emitted(kind: kind, payload: payload))
    }

    package mutating func drain() -> [Emitted] {
        defer { events.removeAll(keepingCapacity: true) }
        return events
    }
}
