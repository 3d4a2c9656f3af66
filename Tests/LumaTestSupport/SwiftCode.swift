/// Swift source with comments and the contents of string literals taken out (newlines kept, so
/// lines stay lines), so that what is left is code. Knows nested block comments, multi-line and
/// raw strings and interpolations (whose code is kept); not regex literals, which no file here has.
/// What the build-graph test reads imports from, and the system-call guard reads calls from.
public struct SwiftCode {
    private let bytes: [UInt8]
    private var index = 0
    private var code: [UInt8] = []

    public static func blankingCommentsAndStrings(_ source: String) -> String {
        var reader = SwiftCode(bytes: Array(source.utf8))
        reader.readCode(inInterpolation: false)
        return String(decoding: reader.code, as: UTF8.self)
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func byte(_ offset: Int = 0) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }
    private func at(_ text: String) -> Bool { text.utf8.enumerated().allSatisfy { byte($0.offset) == $0.element } }
    private func hashes(from offset: Int) -> Int {
        var count = 0
        while byte(offset + count) == UInt8(ascii: "#") { count += 1 }
        return count
    }

    /// Code up to the end, or up to the `)` that closes an interpolation (consumed).
    private mutating func readCode(inInterpolation: Bool) {
        var depth = 0
        while let b = byte() {
            if at("//") {
                while let c = byte(), c != UInt8(ascii: "\n") { index += 1 }
            } else if at("/*") {
                skipBlockComment()
            } else if b == UInt8(ascii: "\"") || (b == UInt8(ascii: "#") && byte(hashes(from: 0)) == UInt8(ascii: "\"")) {
                skipString()
            } else {
                if inInterpolation && b == UInt8(ascii: "(") { depth += 1 }
                if inInterpolation && b == UInt8(ascii: ")") {
                    if depth == 0 { index += 1; return }
                    depth -= 1
                }
                code.append(b)
                index += 1
            }
        }
    }

    private mutating func skipBlockComment() {
        var depth = 0
        repeat {
            if at("/*") { depth += 1; index += 2 } else if at("*/") { depth -= 1; index += 2 } else { keepNewline(); index += 1 }
        } while depth > 0 && index < bytes.count
    }

    /// `"…"`, `"""…"""`, and their raw forms `#"…"#`: interpolations are read as code.
    private mutating func skipString() {
        let raw = hashes(from: 0)
        index += raw
        let quotes = at("\"\"\"") ? 3 : 1
        index += quotes
        let closing = String(repeating: "\"", count: quotes) + String(repeating: "#", count: raw)
        while index < bytes.count {
            if byte() == UInt8(ascii: "\\") && hashes(from: 1) >= raw {
                index += 1 + raw
                if byte() == UInt8(ascii: "(") {
                    index += 1
                    readCode(inInterpolation: true)
                } else {
                    keepNewline()
                    index += 1
                }
            } else if at(closing) {
                index += closing.utf8.count
                return
            } else {
                keepNewline()
                index += 1
            }
        }
    }

    private mutating func keepNewline() {
        if byte() == UInt8(ascii: "\n") { code.append(UInt8(ascii: "\n")) }
    }
}
