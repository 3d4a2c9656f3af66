#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// File names on Linux are bytes, not always UTF-8 (a camera's memory card, an old archive). A
/// Swift `String` cannot hold bytes that are not UTF-8, so Lumatrace carries such a name with each
/// byte of an invalid sequence replaced by a private-use character, U+F700 + the byte (the
/// "UTF-8b" idea), and turns those back into the original bytes wherever a path reaches the
/// system. Names that are valid UTF-8 are untouched; a valid name that itself contains a character
/// of that range (U+F780…U+F7FF) is escaped too, so every name round-trips exactly.
///
/// Its other members are the layer's calls on paths (`SystemPath+Status.swift`,
/// `SystemPath+Changes.swift`, `SystemPath+Listing.swift`), for the modules of this package.
///
/// ```swift
/// let path = SystemPath.string(fromBytes: argv[1])   // "caf\u{F7E9}.luma" for caf\xE9.luma
/// try SystemFile.open(path, for: .read)              // opens caf\xE9.luma
/// print(SystemPath.display(path))                    // caf\xE9.luma
/// ```
public enum SystemPath {
    private static let escapes: ClosedRange<UInt32> = 0xF780...0xF7FF

    /// The name a NUL-terminated system string stands for.
    public static func string(fromBytes pointer: UnsafePointer<CChar>) -> String {
        var bytes: [UInt8] = []
        var p = pointer
        while p.pointee != 0 {
            bytes.append(UInt8(bitPattern: p.pointee))
            p += 1
        }
        return string(fromBytes: bytes)
    }

    /// The name that `bytes` stand for: UTF-8 where they are, escaped bytes where they are not.
    public static func string(fromBytes bytes: [UInt8]) -> String {
        var scalars = String.UnicodeScalarView()
        var i = 0
        while i < bytes.count {
            if let (scalar, length) = decode(bytes, at: i), !escapes.contains(scalar.value) {
                scalars.append(scalar)
                i += length
            } else {
                scalars.append(Unicode.Scalar(0xF700 + UInt32(bytes[i]))!)
                i += 1
            }
        }
        return String(scalars)
    }

    /// The bytes of `path` for a system call, NUL-terminated.
    public static func bytes(_ path: String) -> [CChar] {
        var out: [CChar] = []
        out.reserveCapacity(path.utf8.count + 1)
        for scalar in path.unicodeScalars {
            if escapes.contains(scalar.value) {
                out.append(CChar(bitPattern: UInt8(scalar.value - 0xF700)))
            } else {
                out += String(scalar).utf8.map { CChar(bitPattern: $0) }
            }
        }
        out.append(0)
        return out
    }

    /// Whether `path` holds escaped bytes (it is not valid UTF-8 on disk).
    public static func hasEscapedBytes(_ path: String) -> Bool {
        path.unicodeScalars.contains { escapes.contains($0.value) }
    }

    /// `path` for a message: escaped bytes shown as `\xE9`.
    public static func display(_ text: String) -> String {
        guard hasEscapedBytes(text) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if escapes.contains(scalar.value) {
                let byte = scalar.value - 0xF700
                out += "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The whole content of the file at `path`, or `nil` if it cannot be read (for files already
    /// read once with their size checked, such as an event log being compared).
    public static func contents(of path: String) -> [UInt8]? {
        try? SystemFile.open(path, for: .read).read(upTo: Int.max)
    }

    /// One well-formed UTF-8 sequence at `i` (no overlongs, surrogates or values past U+10FFFF).
    private static func decode(_ b: [UInt8], at i: Int) -> (Unicode.Scalar, Int)? {
        let lead = b[i]
        func continuation(_ k: Int) -> UInt32? {
            guard i + k < b.count, b[i + k] & 0xC0 == 0x80 else { return nil }
            return UInt32(b[i + k] & 0x3F)
        }
        let value: UInt32, length: Int
        switch lead {
        case 0x00...0x7F:
            return (Unicode.Scalar(lead), 1)
        case 0xC2...0xDF:
            guard let c1 = continuation(1) else { return nil }
            value = UInt32(lead & 0x1F) << 6 | c1
            length = 2
        case 0xE0...0xEF:
            guard let c1 = continuation(1), let c2 = continuation(2) else { return nil }
            value = UInt32(lead & 0x0F) << 12 | c1 << 6 | c2
            guard value >= 0x800, !(0xD800...0xDFFF).contains(value) else { return nil }
            length = 3
        case 0xF0...0xF4:
            guard let c1 = continuation(1), let c2 = continuation(2), let c3 = continuation(3) else { return nil }
            value = UInt32(lead & 0x07) << 18 | c1 << 12 | c2 << 6 | c3
            guard (0x10000...0x10FFFF).contains(value) else { return nil }
            length = 4
        default:
            return nil
        }
        return Unicode.Scalar(value).map { ($0, length) }
    }
}
