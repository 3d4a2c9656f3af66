/// Guesses what a file is from its first bytes, so "not a recording" can say what it is instead.
public enum FileKindSniffer {
    /// What the file looks like; ``FileKind/unrecognized(firstBytes:)`` when its first bytes say nothing.
    public static func describe(head: [UInt8]) -> FileKind {
        kind(head: head) ?? .unrecognized(firstBytes: Array(head.prefix(8)))
    }

    /// The kind of a file recognizably of another kind (a video, an image, text), or `nil`
    /// when the first bytes say nothing: a recording whose first bytes are damaged looks like that.
    public static func kind(head: [UInt8]) -> FileKind? {
        func starts(_ s: String, at offset: Int = 0) -> Bool {
            let m = Array(s.utf8)
            return head.count >= offset + m.count && head[offset..<offset + m.count].elementsEqual(m)
        }
        if head.isEmpty { return .empty }
        if starts("ftyp", at: 4) { return .mp4Video }
        if starts("RIFF") && starts("AVI ", at: 8) { return .aviVideo }
        if head.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return .matroskaVideo }
        if starts("GIF8") { return .gif }
        if starts("YUV4MPEG2") { return .y4mStream }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return .png }
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts("P5") || starts("P2") { return .pgm }
        if starts("{\"format\":\"lumatrace.events\"") { return .eventLog }
        if starts("{") { return .json }
        let printable = head.prefix(32).allSatisfy { $0 == 9 || $0 == 10 || $0 == 13 || (32..<127).contains($0) }
        if printable { return .text(start: String(decoding: head.prefix(24), as: UTF8.self)) }
        return nil
    }
}
