/// The payload of one kind of event: a `Codable` type that names its kind, the version of its
/// schema, and its shape, so logs can be read by commands that were not built with the analyzer.
///
/// ```swift
/// public struct Spot: EventPayload {
///     public static let kind = "spot"
///     public static let version = 1
///     public static let shape: EventShape? = .box      // drawn, scored and diffed as a tracked box
///     public var id: String
///     public var boundingBox: [Double]
///     public var confidence: Double
/// }
/// // in the analyzer: public static let eventTypes: [any EventPayload.Type] = [Spot.self]
/// try events.emit(Spot(id: id, boundingBox: box.array, confidence: 0.9))
/// ```
///
/// Bump `version` when the payload's fields change meaning; the analyzer's own `version` covers
/// what it detects.
public protocol EventPayload: Codable, Sendable {
    /// The event kind in the log (`"trajectory.end"`): unique within the analyzer.
    static var kind: String { get }
    /// The version of this payload's schema.
    static var version: Int { get }
    /// What the stock commands may read it as (``EventShape``); `nil`: compared as JSON only.
    static var shape: EventShape? { get }
}

extension EventPayload {
    public static var shape: EventShape? { nil }
}

/// One event kind as a log header records it: `{"kind":"track","version":1,"shape":"box"}`.
public struct EventSchema: Sendable, Equatable {
    public var kind: String
    public var version: Int
    public var shape: EventShape?

    public init(kind: String, version: Int, shape: EventShape?) {
        self.kind = kind
        self.version = version
        self.shape = shape
    }

    /// The schema a payload type declares.
    public init(_ type: any EventPayload.Type) {
        self.init(kind: type.kind, version: type.version, shape: type.shape)
    }

    public var json: JSONValue {
        .object([.init("kind", .string(kind)), .init("version", .int(Int64(version))),
                 .init("shape", shape.map { .string($0.rawValue) } ?? .null)])
    }

    /// Reads `{"kind":…,"version":…,"shape":…}`; `nil` when it is not one.
    public init?(json: JSONValue) {
        guard let kind = json["kind"]?.stringValue, !kind.isEmpty, let version = json["version"]?.intValue,
              let version = Int(exactly: version) else { return nil }
        var shape: EventShape?
        if let s = json["shape"], s != .null {
            guard let name = s.stringValue, let known = EventShape(rawValue: name) else { return nil }
            shape = known
        }
        self.init(kind: kind, version: version, shape: shape)
    }
}
