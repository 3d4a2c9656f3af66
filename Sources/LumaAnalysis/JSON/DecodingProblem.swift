/// Why a JSON value did not decode as a type, in a user's words: where in the value (`blobs.[0].x`,
/// an option's `regionOfInterest`) and what it must be there (`must be a number (found a string)`),
/// never Swift's type names or `DecodingError`'s debug text. Options, event payloads and files
/// read through `Decodable` all say it this way.
public struct DecodingProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where in the value: members by name, array items by index, joined by dots
    /// (`blobs.[0].x`); empty for the value itself.
    public var path: String
    /// What is wrong there, as a predicate: `is missing`, `must be an array`.
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// The problem `error` (thrown while decoding) describes; an error that is not a
    /// `DecodingError` keeps its own description.
    public init(_ error: any Error) {
        guard let error = error as? DecodingError else {
            self.init(path: "", reason: "does not fit: \(error)")
            return
        }
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .typeMismatch(let type, let context):
            self.init(path: path(context), reason: "must be \(Self.expected(type))\(Self.found(context))")
        case .valueNotFound(let type, let context):
            self.init(path: path(context), reason: "must be \(Self.expected(type)), not null")
        case .keyNotFound(let key, let context):
            self.init(path: (path(context).isEmpty ? "" : path(context) + ".") + key.stringValue, reason: "is missing")
        case .dataCorrupted(let context):
            self.init(path: path(context), reason: "is not a valid value: \(context.debugDescription)")
        @unknown default:
            self.init(path: "", reason: "does not fit")
        }
    }

    public var description: String { path.isEmpty ? reason : "\(path) \(reason)" }

    /// The JSON a Swift type reads from.
    private static func expected(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Int64.Type, is Int32.Type, is UInt.Type: "a whole number"
        case is Double.Type, is Float.Type: "a number"
        default:
            String(describing: type).hasPrefix("Array") ? "an array"
                : String(describing: type).hasPrefix("Dictionary") ? "an object" : "a value of another kind"
        }
    }

    /// What Foundation's decoder says it found instead (`found a string`), when it says.
    private static func found(_ context: DecodingError.Context) -> String {
        guard let range = context.debugDescription.range(of: "found ") else { return "" }
        let rest = context.debugDescription[range.upperBound...].split(separator: " ").prefix(2).joined(separator: " ")
        return " (found \(rest.hasSuffix("instead.") ? String(rest.dropLast(" instead.".count)) : rest))"
    }
}
