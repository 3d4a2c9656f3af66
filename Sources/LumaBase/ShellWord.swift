/// A word as a POSIX shell reads it back: the words of a command Lumatrace prints for a user to
/// run (the `replay` flags that reproduce a sweep's best setting).
public enum ShellWord {
    /// `word` as it is when every character is one a shell takes literally (letters, digits and
    /// `_ - . , : = / + @ %`), else in single quotes, each `'` in it written `'\''`.
    public static func quoted(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy { c in
            c.isASCII && (("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) || "_-.,:=/+@%".unicodeScalars.contains(c))
        }
        guard !plain else { return word }
        var out = "'"
        for c in word { out += c == "'" ? #"'\''"# : String(c) }
        return out + "'"
    }
}
