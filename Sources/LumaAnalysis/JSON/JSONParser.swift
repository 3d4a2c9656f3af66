/// A strict JSON parser into ``JSONValue``, keeping object key order. Used to read event logs,
/// pipelines and truth files. Bounded: nesting deeper than 128 levels or a document over the given
/// size is refused, so a hostile file cannot exhaust the stack or memory.
public struct JSONParser {
    /// Where a document stops being JSON, and why.
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// The byte offset (0-based) where the problem was found.
        public var offset: Int
        public var problem: JSONProblem
        /// The problem in words.
        public var reason: String { problem.description }
        public var description: String { "\(reason) at character \(offset + 1)" }

        public init(offset: Int, problem: JSONProblem) {
            self.offset = offset
            self.problem = problem
        }
    }

    private let bytes: [UInt8]
    private var i = 0
    private var depth = 0
    static let maximumDepth = 128

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    public static func parse(_ text: String) throws(Failure) -> JSONValue { try parse(Array(text.utf8)) }

    public static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
        var p = JSONParser(bytes)
        p.skipSpace()
        let v = try p.value()
        p.skipSpace()
        guard p.i == bytes.count else { throw Failure(offset: p.i, problem: .textAfterValue) }
        return v
    }

    private mutating func skipSpace() {
        while i < bytes.count, bytes[i] == 32 || bytes[i] == 9 || bytes[i] == 10 || bytes[i] == 13 { i += 1 }
    }

    private func fail(_ problem: JSONProblem) -> Failure { Failure(offset: i, problem: problem) }

    private mutating func value() throws(Failure) -> JSONValue {
        guard i < bytes.count else { throw fail(.endOfText(inside: nil)) }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: return try number()
        }
    }

    private mutating func literal(_ word: String) throws(Failure) {
        let w = Array(word.utf8)
        guard i + w.count <= bytes.count, bytes[i..<i + w.count].elementsEqual(w) else { throw fail(.invalidLiteral) }
        i += w.count
    }

    private mutating func enter() throws(Failure) {
        depth += 1
        if depth > JSONParser.maximumDepth { throw fail(.nestedTooDeep(limit: JSONParser.maximumDepth)) }
    }

    private mutating func object() throws(Failure) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        i += 1
        var members: [JSONValue.Member] = []
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
        while true {
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw fail(.expectedKey) }
            let key = try string()
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail(.expectedColon) }
            i += 1
            skipSpace()
            members.append(JSONValue.Member(key, try value()))
            skipSpace()
            guard i < bytes.count else { throw fail(.endOfText(inside: .object)) }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
            throw fail(.expectedSeparator(in: .object))
        }
    }

    private mutating func array() throws(Failure) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        i += 1
        var items: [JSONValue] = []
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
        while true {
            skipSpace()
            items.append(try value())
            skipSpace()
            guard i < bytes.count else { throw fail(.endOfText(inside: .array)) }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
            throw fail(.expectedSeparator(in: .array))
        }
    }

    private mutating func string() throws(Failure) -> String {
        i += 1
        var out: [UInt8] = []
        while true {
            // The bytes up to the next quote, backslash or control character are taken as they are,
            // in one copy, found in one pass over the raw bytes: appended byte by byte, an event of
            // a megabyte of text took a million appends.
            let plain = i
            i = bytes.withUnsafeBufferPointer { all in
                var end = plain
                while end < all.count, all[end] >= 0x20, all[end] != UInt8(ascii: "\""), all[end] != UInt8(ascii: "\\") { end += 1 }
                return end
            }
            out.append(contentsOf: bytes[plain..<i])
            guard i < bytes.count else { throw fail(.unterminatedString) }
            let c = bytes[i]
            if c == UInt8(ascii: "\"") { i += 1; break }
            if c < 0x20 { throw fail(.controlCharacterInString) }
            i += 1
            guard i < bytes.count else { throw fail(.unterminatedEscape) }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar) {
                    guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else { throw fail(.unpairedSurrogate) }
                    i += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw fail(.invalidSurrogatePair) }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(scalar) {
                    throw fail(.unpairedSurrogate)
                }
                guard let u = Unicode.Scalar(scalar) else { throw fail(.invalidUnicodeEscape) }
                out.append(contentsOf: Array(String(Character(u)).utf8))
            default: throw fail(.invalidEscape)
            }
        }
        guard let s = String(validating: out, as: UTF8.self) else { throw fail(.stringNotUTF8) }
        return s
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard i + 4 <= bytes.count else { throw fail(.truncatedUnicodeEscape) }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[i]
            let d: UInt32
            switch c {
            case 48...57: d = UInt32(c - 48)
            case 65...70: d = UInt32(c - 55)
            case 97...102: d = UInt32(c - 87)
            default: throw fail(.invalidHexDigit)
            }
            v = v * 16 + d
            i += 1
        }
        return v
    }

    private mutating func number() throws(Failure) -> JSONValue {
        let start = i
        var isInteger = true
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
        let digitsStart = i
        while i < bytes.count, (48...57).contains(bytes[i]) { i += 1 }
        guard i > digitsStart else { throw Failure(offset: start, problem: .invalidValue) }
        if bytes[digitsStart] == 48 && i - digitsStart > 1 { throw Failure(offset: start, problem: .leadingZero) }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            isInteger = false
            i += 1
            let f = i
            while i < bytes.count, (48...57).contains(bytes[i]) { i += 1 }
            guard i > f else { throw fail(.expectedFractionDigits) }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            isInteger = false
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            let e = i
            while i < bytes.count, (48...57).contains(bytes[i]) { i += 1 }
            guard i > e else { throw fail(.expectedExponentDigits) }
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        if isInteger, let n = Int64(text) { return .int(n) }
        guard let d = Double(text) else { throw Failure(offset: start, problem: .invalidNumber) }
        // JSON has no infinity: `1e999` overflows a Double, and is refused here rather than trap
        // whatever converts it later.
        guard d.isFinite else { throw Failure(offset: start, problem: .numberOutOfRange(String(text.prefix(32)))) }
        return .double(d)
    }
}
