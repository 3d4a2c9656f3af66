import Foundation

/// A minimal JSON value that keeps keys in the order given and prints numbers with fixed decimals.
indirect enum JSON {
    case int(Int)
    case number(Double, Int)
    /// A number as short as it is exact: a value read from a file (a target), not measured.
    case exact(Double)
    case string(String)
    case bool(Bool)
    case array([JSON])
    case object([(String, JSON)])

    var text: String {
        switch self {
        case .int(let v): return String(v)
        case .number(let v, let decimals): return v.isFinite ? fixed(v, decimals) : "null"
        case .exact(let v): return v.isFinite ? shortest(v) : "null"
        case .bool(let v): return v ? "true" : "false"
        case .array(let items): return "[" + items.map(\.text).joined(separator: ",") + "]"
        case .string(let s): return JSON.quote(s)
        case .object(let fields): return "{" + fields.map { JSON.quote($0.0) + ":" + $0.1.text }.joined(separator: ",") + "}"
        }
    }

    private static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
