/// XML 1.0 text and attribute values, escaped: the routine behind `regress --junit`'s report.
///
/// `&`, `<`, `>` and `"` become entities, so a value is safe between tags and inside a
/// double-quoted attribute. XML 1.0 has no way to write most control characters at all, not even
/// as character references: those below U+0020 other than tab, newline and carriage return, and
/// U+FFFE and U+FFFF, are replaced by a visible `\u{1B}`, as the command line prints them in
/// messages. Tab, newline and carriage return are kept; in an attribute they are written as
/// character references, since a parser would turn them into spaces, and a carriage return in
/// text is too, since a parser would turn it into a newline.
public enum XMLText {
    /// Appends `text` to `out`, escaped; `inAttribute` for a double-quoted attribute's value.
    public static func escape(_ text: String, inAttribute: Bool = false, into out: inout String) {
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\r": out += "&#13;"
            case "\n": if inAttribute { out += "&#10;" } else { out += "\n" }
            case "\t": if inAttribute { out += "&#9;" } else { out += "\t" }
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
    }

    /// `text` escaped: `a < b & "c"` becomes `a &lt; b &amp; &quot;c&quot;`.
    public static func escaped(_ text: String, inAttribute: Bool = false) -> String {
        var out = ""
        escape(text, inAttribute: inAttribute, into: &out)
        return out
    }
}
