import LumaAnalysis
import LumaBase
/// One event line of a log: when, who, what, and the analyzer's payload.
public struct LoggedEvent: Equatable, Sendable {
    /// 0-based frame index in the recording.
    public var frame: Int
    /// Time of the frame in seconds, printed with exactly six decimals.
    public var time: String
    /// The analyzer that emitted it (`engine` for the engine's own events, such as gaps).
    public var analyzer: String
    public var kind: String
    public var data: JSONValue

    public init(frame: Int, time: String, analyzer: String, kind: String, data: JSONValue) {
        self.frame = frame
        self.time = time
        self.analyzer = analyzer
        self.kind = kind
        self.data = data
    }

    public var seconds: Double { Double(time) ?? 0 }

    /// The largest event time, in seconds, a log may hold: `Timestamp/maximumTicks` at one tick
    /// per second, the furthest any recording's timestamp can lie. A log read back refuses a time
    /// beyond it on the line that holds it.
    public static let maximumSeconds = Double(Timestamp.maximumTicks)

    public var json: JSONValue {
        .object([
            .init("frame", .int(Int64(frame))),
            .init("t", .number(time)),
            .init("analyzer", .string(analyzer)),
            .init("kind", .string(kind)),
            .init("data", data),
        ])
    }

    /// Decodes the payload as a typed value.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T { try data.decode(T.self) }
}

/// The last line of a complete log.
public struct EventLogFooter: Equatable, Sendable {
    /// `false` when the replay stopped on an error (see ``failure``).
    public var complete: Bool
    public var framesReplayed: Int
    public var eventCount: Int
    /// Events per analyzer and kind, in analyzer order then kind order.
    public var counts: [(analyzer: String, kind: String, count: Int)]
    /// SHA-256 of all event lines (each with its newline), hex.
    public var eventsDigest: String
    /// Which analyzer failed, at which frame, and why.
    public var failure: AnalyzerFailure?
    /// The recording's facts and the last frame replayed (logs of format version 2 only).
    public var ending: EventLogHeader.Ending?

    public static func == (a: EventLogFooter, b: EventLogFooter) -> Bool { a.json == b.json }


    public var json: JSONValue {
        var groups: [JSONValue.Member] = []
        for c in counts {
            if let i = groups.firstIndex(where: { $0.key == c.analyzer }), case .object(var kinds) = groups[i].value {
                kinds.append(.init(c.kind, .int(Int64(c.count))))
                groups[i].value = .object(kinds)
            } else {
                groups.append(.init(c.analyzer, .object([.init(c.kind, .int(Int64(c.count)))])))
            }
        }
        var members: [JSONValue.Member] = [
            .init("complete", .bool(complete)),
            .init("frames", .int(Int64(framesReplayed))),
            .init("events", .int(Int64(eventCount))),
            .init("counts", .object(groups)),
            .init("sha256", .string(eventsDigest)),
        ]
        if let failure { members.append(.init("failure", failure.json)) }
        if let ending { members += ending.members }
        return .object([.init("end", .object(members))])
    }
}

extension EventLogFooter {
    /// Reads a footer line (`{"end":{…}}`) as ``json`` writes it; `nil` when the line lacks what
    /// every footer has (`complete`, `frames`, `events`, `counts`, `sha256`), or a `failure` that
    /// lacks an analyzer failure's fields. The version-2
    /// recording facts are read when present (``ending``).
    public init?(json: JSONValue) {
        guard let end = json["end"], let complete = end["complete"]?.boolValue, let frames = end["frames"]?.intValue,
              let events = end["events"]?.intValue, let digest = end["sha256"]?.stringValue,
              case .object(let groups)? = end["counts"] else { return nil }
        var failure: AnalyzerFailure?
        if let recorded = end["failure"] {
            guard let read = AnalyzerFailure(json: recorded) else { return nil }
            failure = read
        }
        var counts: [(analyzer: String, kind: String, count: Int)] = []
        for group in groups {
            guard case .object(let kinds) = group.value else { return nil }
            for kind in kinds {
                guard let n = kind.value.intValue else { return nil }
                counts.append((group.key, kind.key, n))
            }
        }
        self.init(complete: complete, framesReplayed: frames, eventCount: events, counts: counts, eventsDigest: digest,
                  failure: failure, ending: EventLogHeader.Ending(end: end))
    }
}
