/// JSON string literals: the one escaping routine behind every JSON text Lumatrace writes (event
/// logs and truth files, both through `JSONValue`).
///
/// The escaping is minimal, so text stays readable and a string always gives the same bytes: `"`
/// and `\` take a backslash; newline, carriage return and tab their short escapes (`\n`, `\r`,
/// `\t`); every other control character below U+0020 a `\u00XX` escape; everything else, non-ASCII
/// included, is written as it is.
public enum JSONString {
    /// Appends `text` to `out` as a JSON string literal, quotes included.
    ///
    /// Works on the UTF-8 bytes: every byte that needs an escape is ASCII, and no byte of a
    /// multi-byte character is, so the text between two escapes is appended in one piece (an event
    /// of a megabyte of text is one append, not a million).
    public static func quote(_ text: String, into out: inout String) {
        out += "\""
        var text = text  // `withUTF8` may first make a bridged string contiguous
        text.withUTF8 { bytes in
            var plain = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                out += String(decoding: UnsafeBufferPointer(rebasing: bytes[plain..<index]), as: UTF8.self)
                switch byte {
                case UInt8(ascii: "\""): out += "\\\""
                case UInt8(ascii: "\\"): out += "\\\\"
                case UInt8(ascii: "\n"): out += "\\n"
                case UInt8(ascii: "\r"): out += "\\r"
                case UInt8(ascii: "\t"): out += "\\t"
                default:
                    let hex = String(byte, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                }
                plain = index + 1
            }
            out += String(decoding: UnsafeBufferPointer(rebasing: bytes[plain...]), as: UTF8.self)
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
