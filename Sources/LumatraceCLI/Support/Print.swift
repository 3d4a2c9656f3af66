import LumaFormat
import LumaBase

/// `print` for the command line: file names that are not UTF-8 (``SystemPath``) are shown with
/// their raw bytes as `\xNN`, in tables, summaries and JSON alike. Shadows `Swift.print` in this module.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    let text = items.map { "\($0)" }.joined(separator: separator)
    Swift.print(SystemPath.display(text), terminator: terminator)
}
