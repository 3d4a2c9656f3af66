/// Swift string literals: how Lumatrace writes a text it does not control (a folder's path) into
/// Swift source it generates, such as the `Package.swift` of `lumatrace new-analyzer`.
///
/// The literal means exactly `text` and nothing else: `"` and `\` take a backslash, so the text can
/// neither close the literal nor start an interpolation `\(…)`; newline, carriage return, tab and
/// NUL their short escapes; every other character that is not visible text (control characters,
/// format characters such as the bidirectional overrides, line and paragraph separators) a
/// `\u{XX}` escape. Everything else, non-ASCII included, is written as it is.
public enum SwiftLiteral {
    /// `text` as a Swift string literal, quotes included: `say "hi"` becomes `"say \"hi\""`.
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\0": out += "\\0"
            case _ where invisible(scalar): out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    private static func invisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned, .privateUse: return true
        default: return false
        }
    }
}
