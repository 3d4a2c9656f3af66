/// Why a JSON value did not decode as a type, in a user's words: where in the value (`blobs.[0].x`,
/// an option's `regionOfInterest`) and what it must be there (`must be a number (found a string)`),
/// never Swift's type names or `DecodingError`'s debug text. Options, event payloads and files
/// read through `Decodable` all say it this way.
public struct DecodingProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where in the value: members by name, array items by index, joined by dots
    /// (`blobs.[0].x`); empty for the value itself.
    public var path: String
    /// What is wrong there.
    public var reason: Reason

    /// What is wrong at a place in a JSON value; said as a predicate: `is missing`, `must be an array`.
    public enum Reason: Equatable, Sendable, CustomStringConvertible {
        /// The member is missing.
        case missing
        /// A value of another kind; `found` is what the decoder says it found (`a string`), when it says.
        case mustBe(JSONKind, found: String? = nil)
        /// `null` where a value of `kind` must be.
        case null(JSONKind)
        /// A value of the right kind the type refuses (a number too large for it): the decoder's words.
        case invalid(String)
        /// An error other than a decoding error, thrown while decoding: its words.
        case doesNotFit(String)

        public var description: String {
            switch self {
            case .missing: "is missing"
            case .mustBe(let kind, let found): "must be \(kind)" + (found.map { " (found \($0))" } ?? "")
            case .null(let kind): "must be \(kind), not null"
            case .invalid(let words): "is not a valid value: \(words)"
            case .doesNotFit(let words): "does not fit: \(words)"
            }
        }
    }

    public init(path: String, _ reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// The problem `error` (thrown while decoding) describes; an error that is not a
    /// `DecodingError` keeps its own description.
    public init(_ error: any Error) {
        guard let error = error as? DecodingError else {
            self.init(path: "", .doesNotFit("\(error)"))
            return
        }
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .typeMismatch(let type, let context):
            self.init(path: path(context), .mustBe(JSONKind(type), found: Self.found(context)))
        case .valueNotFound(let type, let context):
            self.init(path: path(context), .null(JSONKind(type)))
        case .keyNotFound(let key, let context):
            self.init(path: (path(context).isEmpty ? "" : path(context) + ".") + key.stringValue, .missing)
        case .dataCorrupted(let context):
            self.init(path: path(context), .invalid(context.debugDescription))
        @unknown default:
            self.init(path: "", .doesNotFit("an unknown decoding error"))
        }
    }

    public var description: String { path.isEmpty ? reason.description : "\(path) \(reason)" }

    /// What Foundation's decoder says it found instead (`a string`), when it says.
    private static func found(_ context: DecodingError.Context) -> String? {
        guard let range = context.debugDescription.range(of: "found ") else { return nil }
        let rest = context.debugDescription[range.upperBound...].split(separator: " ").prefix(2).joined(separator: " ")
        return rest.hasSuffix("instead.") ? String(rest.dropLast(" instead.".count)) : rest
    }
}
