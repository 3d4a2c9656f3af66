/// The kind of JSON value a place must hold, in a user's words: `a number`, `an array`.
public enum JSONKind: Equatable, Sendable, CustomStringConvertible {
    case string, trueOrFalse, wholeNumber, number, array, object
    /// An array of numbers.
    case arrayOfNumbers
    /// The name of an analyzer (a string).
    case analyzerName
    /// A number of seconds.
    case seconds
    /// A region: `[x, y, width, height]`.
    case region
    /// A Swift type none of the others reads from.
    case otherKind

    /// The JSON a Swift type reads from.
    public init(_ type: Any.Type) {
        switch type {
        case is String.Type: self = .string
        case is Bool.Type: self = .trueOrFalse
        case is Int.Type, is Int64.Type, is Int32.Type, is UInt.Type: self = .wholeNumber
        case is Double.Type, is Float.Type: self = .number
        default:
            self = String(describing: type).hasPrefix("Array") ? .array
                : String(describing: type).hasPrefix("Dictionary") ? .object : .otherKind
        }
    }

    public var description: String {
        switch self {
        case .string: "a string"
        case .trueOrFalse: "true or false"
        case .wholeNumber: "a whole number"
        case .number: "a number"
        case .array: "an array"
        case .object: "an object"
        case .arrayOfNumbers: "an array of numbers"
        case .analyzerName: "an analyzer's name"
        case .seconds: "a number of seconds"
        case .region: "[x, y, width, height]"
        case .otherKind: "a value of another kind"
        }
    }
}
