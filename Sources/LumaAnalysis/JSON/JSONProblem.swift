/// Why a document is not JSON, at the place ``JSONParser/Failure`` names: typed, so a test can ask
/// for the exact refusal and the message is made in one place.
public enum JSONProblem: Equatable, Sendable, CustomStringConvertible {
    /// The two containers a problem can be inside.
    public enum Container: String, Sendable { case object, array }

    /// The value ended and more text follows.
    case textAfterValue
    /// The text ends where a value, or the rest of a container, should be.
    case endOfText(inside: Container?)
    /// Neither `true`, `false` nor `null`.
    case invalidLiteral
    /// Objects and arrays inside each other deeper than `limit`.
    case nestedTooDeep(limit: Int)
    /// An object member that does not start with a quoted key.
    case expectedKey
    case expectedColon
    /// Neither a comma nor the container's closing bracket after a member.
    case expectedSeparator(in: Container)
    case unterminatedString
    /// A byte below 0x20, which JSON allows in a string only escaped.
    case controlCharacterInString
    case unterminatedEscape
    case invalidEscape
    case truncatedUnicodeEscape
    case invalidHexDigit
    case invalidUnicodeEscape
    /// A high surrogate without its low one, or a low one on its own.
    case unpairedSurrogate
    case invalidSurrogatePair
    case stringNotUTF8
    /// Nothing here starts a JSON value.
    case invalidValue
    case leadingZero
    case expectedFractionDigits
    case expectedExponentDigits
    case invalidNumber
    /// A number too large for a Double (its first 32 characters).
    case numberOutOfRange(String)

    public var description: String {
        switch self {
        case .textAfterValue: "unexpected text after the JSON value"
        case .endOfText(nil): "unexpected end of text"
        case .endOfText(let container?): "unexpected end of text inside an \(container.rawValue)"
        case .invalidLiteral: "invalid literal"
        case .nestedTooDeep(let limit): "nesting deeper than \(limit) levels"
        case .expectedKey: "expected a quoted key"
        case .expectedColon: "expected ':' after a key"
        case .expectedSeparator(.object): "expected ',' or '}' in an object"
        case .expectedSeparator(.array): "expected ',' or ']' in an array"
        case .unterminatedString: "unterminated string"
        case .controlCharacterInString: "control character inside a string"
        case .unterminatedEscape: "unterminated escape"
        case .invalidEscape: "invalid escape"
        case .truncatedUnicodeEscape: "truncated unicode escape"
        case .invalidHexDigit: "invalid hex digit in a unicode escape"
        case .invalidUnicodeEscape: "invalid unicode escape"
        case .unpairedSurrogate: "unpaired surrogate"
        case .invalidSurrogatePair: "invalid surrogate pair"
        case .stringNotUTF8: "string is not valid UTF-8"
        case .invalidValue: "invalid value"
        case .leadingZero: "numbers may not have leading zeros"
        case .expectedFractionDigits: "expected digits after '.'"
        case .expectedExponentDigits: "expected digits in the exponent"
        case .invalidNumber: "invalid number"
        case .numberOutOfRange(let text): "number \(text) is out of range"
        }
    }
}
