import LumaAnalysis

/// An analyzer that threw while analyzing a frame, or in `finish`, or emitted what it does not
/// declare; the footer of the log it stopped records it (``EventLogFooter/failure``).
///
/// The footer records the cause as one `message` sentence (the log format has no other field for
/// it), made by ``Cause/description``; reading a footer gives the cause back from that sentence.
public struct AnalyzerFailure: Error, Equatable, Sendable {
    /// The failing analyzer's name in the log.
    public var analyzer: String
    /// The frame it failed at (the last frame for a failure in `finish`).
    public var frame: Int
    /// What went wrong.
    public var cause: Cause

    public init(analyzer: String, frame: Int, _ cause: Cause) {
        self.analyzer = analyzer
        self.frame = frame
        self.cause = cause
    }

    /// What went wrong, as the footer's `message` says it.
    public var message: String { cause.description }

    /// Why an analyzer stopped its replay.
    public enum Cause: Equatable, Sendable, CustomStringConvertible {
        /// It threw (while starting or analyzing a frame): the error's words.
        case threw(String)
        /// It threw in `finish`: the error's words.
        case threwInFinish(String)
        /// It emitted an event of `kind`, which it does not declare; `declared` are the kinds it does, in name order.
        case undeclaredKind(String, declared: [String])
        /// It emitted an event of `kind` without the fields of its declared `shape`: what the shape's reader found.
        case notItsShape(kind: String, shape: String, problem: String)
        /// It emitted two events of `kind` placing the object `id` (a JSON string, quotes included) in one frame
        /// (``ShapedEvent/placedObjectId``).
        case repeatedId(kind: String, id: String)

        private static let inFinish = "in finish: "
        private static let repeatedIdPrefix = "emitted two "
        private static let repeatedIdSuffix = ": one id names one object, which is in one place per frame"

        public var description: String {
            switch self {
            case .threw(let words): words
            case .threwInFinish(let words): Self.inFinish + words
            case .undeclaredKind(let kind, let declared):
                "emitted a '\(kind)' event, which it does not declare (its events: \(declared.joined(separator: ", ")))"
            case .notItsShape(let kind, let shape, let problem): "its '\(kind)' event does not have the fields of shape \(shape): \(problem)"
            case .repeatedId(let kind, let id): Self.repeatedIdPrefix + "'\(kind)' events with the id \(id) in one frame" + Self.repeatedIdSuffix
            }
        }

        /// The cause a footer's `message` says: the case whose sentence it is, else what the
        /// analyzer threw (whose words may be anything).
        public init(message: String) {
            if message.hasPrefix(Self.inFinish) {
                self = .threwInFinish(String(message.dropFirst(Self.inFinish.count)))
            } else if let (kind, rest) = Self.quotedKind(message, after: "emitted a '", before: "' event, which it does not declare (its events: "),
                      rest.hasSuffix(")") {
                let list = rest.dropLast()
                self = .undeclaredKind(kind, declared: list.isEmpty ? [] : list.components(separatedBy: ", "))
            } else if let (kind, rest) = Self.quotedKind(message, after: "its '", before: "' event does not have the fields of shape "),
                      let colon = rest.range(of: ": ") {
                self = .notItsShape(kind: kind, shape: String(rest[..<colon.lowerBound]), problem: String(rest[colon.upperBound...]))
            } else if message.hasPrefix(Self.repeatedIdPrefix + "'"), message.hasSuffix(Self.repeatedIdSuffix),
                      let (kind, rest) = Self.quotedKind(message, after: Self.repeatedIdPrefix + "'", before: "' events with the id "),
                      rest.hasSuffix(" in one frame" + Self.repeatedIdSuffix) {
                self = .repeatedId(kind: kind, id: String(rest.dropLast((" in one frame" + Self.repeatedIdSuffix).count)))
            } else {
                self = .threw(message)
            }
        }

        /// The kind between `after` and `before` at the start of `message`, and what follows `before`.
        private static func quotedKind(_ message: String, after: String, before: String) -> (String, Substring)? {
            guard message.hasPrefix(after), let end = message.range(of: before) else { return nil }
            return (String(message[message.index(message.startIndex, offsetBy: after.count)..<end.lowerBound]), message[end.upperBound...])
        }
    }

    /// As the log's footer records it.
    public var json: JSONValue {
        .object([.init("analyzer", .string(analyzer)), .init("frame", .int(Int64(frame))), .init("message", .string(message))])
    }

    /// Reads ``json``'s object; `nil` when it lacks the analyzer, the frame or the message.
    public init?(json: JSONValue) {
        guard let analyzer = json["analyzer"]?.stringValue, let frame = json["frame"]?.intValue,
              let message = json["message"]?.stringValue else { return nil }
        self.init(analyzer: analyzer, frame: frame, Cause(message: message))
    }
}
