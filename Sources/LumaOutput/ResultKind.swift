import LumaBase

/// What a result file holds, told from its first bytes, so that `--force` replaces a result of
/// the same kind only: a replay's log never lands on a recording, nor ground truth on a golden log.
///
/// A result of a kind its first bytes always show (an event log, a page, a JUnit report, an
/// image or video) replaces only a file of that kind, or an empty one: text of no kind (a user's
/// notes) is refused as well as a file of another kind. A recording (whose first bytes a damaged
/// one may have lost) and plain text replace a file whose first bytes say nothing; a file that is
/// recognizably a Lumatrace file of another kind, or a video or image, is refused naming what it is.
public enum ResultKind: String, Sendable, Equatable, CaseIterable {
    case recording, eventLog, truth, regressPart, media, page
    /// A JUnit XML report (`regress --junit`), ours or another tool's.
    case junitReport
    /// Text of no kind above (a timestamps file): replaces only files whose first bytes say nothing.
    case text

    /// The kind in words, for messages ("a recording").
    public var noun: String {
        switch self {
        case .recording: "a recording"
        case .eventLog: "an event log"
        case .truth: "a ground-truth file"
        case .regressPart: "a regress part file"
        case .media: "a video or image"
        case .page: "an HTML page"
        case .junitReport: "a JUnit report"
        case .text: "a text file"
        }
    }

    /// The first four bytes of a recording (`.luma`): the magic of its header record, which
    /// LumaFormat writes and checks is this one.
    public static let recordingMagic: [UInt8] = Array("LUMA".utf8)

    /// How many first bytes ``of(head:)`` looks at.
    static let headBytes = 512

    /// The kind of a file whose first bytes are `head`, or `nil` when they say nothing.
    public static func of(head: [UInt8]) -> ResultKind? {
        if head.starts(with: recordingMagic) { return .recording }
        let text = String(decoding: head.prefix(headBytes), as: UTF8.self)
        if text.hasPrefix("{") {
            let compact = text.filter { !$0.isWhitespace }
            if compact.contains("\"format\":\"lumatrace.events\"") { return .eventLog }
            if compact.contains("\"format\":\"lumatrace-truth\"") { return .truth }
            if compact.contains("\"format\":\"lumatrace.regress-part\"") { return .regressPart }
            return nil
        }
        let lowered = text.prefix(64).lowercased()
        if lowered.hasPrefix("<!doctype html") || lowered.hasPrefix("<html") { return .page }
        if lowered.hasPrefix("<?xml") || lowered.hasPrefix("<testsuite"), text.contains("<testsuite") { return .junitReport }
        if FileKindSniffer.kind(head: head)?.isMedia == true { return .media }
        return nil
    }

    /// Whether every file of this kind shows it in its first bytes, so that a file of no kind
    /// is not one to replace with it.
    var isAlwaysRecognizable: Bool {
        switch self {
        case .eventLog, .truth, .regressPart, .media, .page, .junitReport: true
        case .recording, .text: false
        }
    }

    /// What the file at `path` would be replaced as, for a result of `kind`: its kind when it shows
    /// one, `.text` for text of no kind when `kind` is one that always shows itself, else `nil`.
    static func found(at path: String, replacingWith kind: ResultKind) -> ResultKind? {
        guard let head = try? SystemFile.open(path, for: .readWithoutWaiting).read(upTo: headBytes), !head.isEmpty else { return nil }
        if let found = of(head: head) { return found }
        guard kind.isAlwaysRecognizable else { return nil }
        switch FileKindSniffer.kind(head: head) {
        case .text?, .json?: return .text
        default: return nil
        }
    }

    /// The kind of the regular file at `path`, or `nil` when it cannot be read or says nothing.
    static func of(path: String) -> ResultKind? {
        guard let head = try? SystemFile.open(path, for: .readWithoutWaiting).read(upTo: headBytes), !head.isEmpty else { return nil }
        return of(head: head)
    }
}
