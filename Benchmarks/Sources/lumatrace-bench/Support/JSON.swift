import Foundation
import LumaBase

/// A minimal JSON value that keeps keys in the order given and prints each measured number with
/// the decimals it deserves (strings are escaped by LumaBase's `JSONString`, as in event logs).
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
        case .string(let s): return JSONString.quoted(s)
        case .object(let fields): return "{" + fields.map { JSONString.quoted($0.0) + ":" + $0.1.text }.joined(separator: ",") + "}"
        }
    }
}
