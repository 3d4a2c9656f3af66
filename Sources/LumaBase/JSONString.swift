/// JSON string literals: the one escaping routine behind every JSON text Lumatrace writes (event
/// logs through `JSONValue`, truth files through `GroundTruth.canonicalJSON()`).
///
/// The escaping is minimal, so text stays readable and a string always gives the same bytes: `"`
/// and `\` take a backslash; newline, carriage return and tab their short escapes (`\n`, `\r`,
/// `\t`); every other control character below U+0020 a `\u00XX` escape; everything else, non-ASCII
/// included, is written as it is.
public enum JSONString {
    /// Appends `text` to `out` as a JSON string literal, quotes included.
    public static func quote(_ text: String, into out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    /// `text` as a JSON string literal, quotes included: `say "hi"` becomes `"say \"hi\""`.
    public static func quoted(_ text: String) -> String {
        var out = ""
        quote(text, into: &out)
        return out
    }
}
