import Foundation
import LumaFormat
import LumaBase

/// `print` for the command line: file names that are not UTF-8 (``SystemPath``) are shown with
/// their raw bytes as `\xNN`, in tables, summaries and JSON alike, and control characters other
/// than line breaks and tabs as escapes (`\u{1B}`): text from a server (an ETag) or a log (an
/// analyzer's reason) cannot retitle, colour or clear the terminal. Shadows `Swift.print` in this module.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    let text = items.map { "\($0)" }.joined(separator: separator)
    Swift.print(escapingControls(SystemPath.display(text), keeping: ["\n", "\t"]), terminator: terminator)
}

/// ``print(_:separator:terminator:)`` onto standard error: for a command whose standard output
/// carries data (`-o -`), its summary lines, escaped the same way.
func printOnStandardError(_ text: String) {
    FileHandle.standardError.write(Data((escapingControls(SystemPath.display(text), keeping: ["\n", "\t"]) + "\n").utf8))
}
