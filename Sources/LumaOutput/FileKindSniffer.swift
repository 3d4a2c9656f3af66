/// Guesses what a file is from its first bytes, so "not a recording" can say what it is instead.
public enum FileKindSniffer {
    /// What the file is, followed by what to do with it.
    public static func describe(head: [UInt8]) -> String {
        if let kind = kind(head: head) { return kind }
        return "its first bytes are " + head.prefix(8).map { String($0, radix: 16) }.joined(separator: " ")
    }

    /// The description of a file recognizably of another kind (a video, an image, text), or `nil`
    /// when the first bytes say nothing: a recording whose first bytes are damaged looks like that.
    public static func kind(head: [UInt8]) -> String? {
        func starts(_ s: String, at offset: Int = 0) -> Bool {
            let m = Array(s.utf8)
            return head.count >= offset + m.count && head[offset..<offset + m.count].elementsEqual(m)
        }
        if head.isEmpty { return "the file is empty" }
        if starts("ftyp", at: 4) { return "it looks like an MP4/MOV video: record it first with `lumatrace record VIDEO -o OUT.luma`" }
        if starts("RIFF") && starts("AVI ", at: 8) { return "it looks like an AVI video: record it first with `lumatrace record VIDEO -o OUT.luma`" }
        if head.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return "it looks like a Matroska/WebM video: record it first with `lumatrace record VIDEO -o OUT.luma`" }
        if starts("GIF8") { return "it looks like a GIF: record it first with `lumatrace record FILE.gif -o OUT.luma`" }
        if starts("YUV4MPEG2") { return "it looks like a Y4M video stream: record it first with `lumatrace record FILE.y4m -o OUT.luma`" }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "it looks like a PNG image; a folder of images is recorded with `lumatrace record FOLDER -o OUT.luma`" }
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return "it looks like a JPEG image; a folder of images is recorded with `lumatrace record FOLDER -o OUT.luma`" }
        if starts("P5") || starts("P2") { return "it looks like a PGM image" }
        if starts("{\"format\":\"lumatrace.events\"") { return "it looks like a Lumatrace event log" }
        if starts("{") { return "it looks like JSON text" }
        let printable = head.prefix(32).allSatisfy { $0 == 9 || $0 == 10 || $0 == 13 || (32..<127).contains($0) }
        if printable { return "it looks like a text file starting '\(String(decoding: head.prefix(24), as: UTF8.self))'" }
        return nil
    }
}
