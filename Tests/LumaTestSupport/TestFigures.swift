import Testing

/// What a test measured, kept beside its result rather than printed: an attachment named `name`,
/// written where `swift test --attachments-path DIR` says (scripts read the measurement suites'
/// tables from there), and carried by a failing expectation's message where it explains one.
public enum TestFigures {
    /// Attaches `text` to the running test as `name`, ending in a newline so that a script can
    /// join several attachments into lines.
    public static func record(_ text: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        Attachment.record(text.hasSuffix("\n") ? text : text + "\n", named: name, sourceLocation: sourceLocation)
    }
}
