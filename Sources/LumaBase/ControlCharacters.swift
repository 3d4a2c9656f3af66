/// Control characters written visibly: how every text Lumatrace shows or writes for people (the
/// lines it prints, `sweep.txt`, `sweep.csv`, the HTML of `report` and `sweep`) carries text it
/// does not control, such as a file name or an analyzer's event, so that the text cannot retitle,
/// colour or clear a terminal that shows it, or put a NUL byte in a page.
///
/// Newline, carriage return and tab are written `\n`, `\r`, `\t`; every other control character
/// (C0, DEL and C1) as `\u{1B}`, its code point in hexadecimal, the form Swift and the messages of
/// `lumatrace` use. `XMLText` writes the ones XML cannot hold the same way.
public enum ControlCharacters {
    /// `text` with its control characters, but those in `kept` (say newline and tab, for a
    /// text of several lines), written as escapes: `"a\u{1B}[31mb"` becomes `a\u{1B}[31mb` as
    /// visible characters.
    public static func escaped(_ text: String, keeping kept: Set<Unicode.Scalar> = []) -> String {
        func escaped(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.generalCategory == .control && !kept.contains(scalar) }
        guard text.unicodeScalars.contains(where: escaped) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case _ where !escaped(scalar): out.unicodeScalars.append(scalar)
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default: out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            }
        }
        return out
    }
}
