import LumaBase

/// A JSON value whose objects keep their keys in insertion order, and whose serialization is
/// fixed: the same value always prints the same bytes, on any machine.
///
/// Lumatrace writes every event log through this type (not Foundation's `JSONEncoder`, whose
/// number formatting differs across platforms): integers print as integers, floating-point numbers
/// with exactly six decimals and never as `-0.000000`, strings with minimal escaping.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    /// Printed with exactly ``JSONValue/decimals`` decimals; NaN and infinities print as `null`.
    case double(Double)
    /// A number already formatted (e.g. exact seconds from integer ticks, or the exact text of
    /// ``withExactNumbers``); printed verbatim.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([Member])

    /// One key and value of an object. Objects are arrays of members, so order is kept.
    public struct Member: Equatable, Sendable {
        public var key: String
        public var value: JSONValue
        public init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// Decimals printed for every floating-point number in an event log.
    public static let decimals = 6

    /// The value for `key` when this is an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first(where: { $0.key == key })?.value
    }

    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    public var objectValue: [Member]? { if case .object(let m) = self { return m } else { return nil } }
    public var intValue: Int? {
        switch self {
        case .int(let i): return Int(exactly: i)
        case .double(let d): return d.rounded() == d && abs(d) < 9e15 ? Int(d) : nil
        case .number(let s): return Int(s)
        default: return nil
        }
    }
    public var doubleValue: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        case .number(let s): return Double(s)
        default: return nil
        }
    }

    /// Builds an object from key-value pairs, in order.
    public static func object(_ pairs: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(pairs.map { Member($0.key, $0.value) })
    }

    /// Exactly ``decimals`` decimals, computed with integers (`FixedDecimal` of LumaBase), so it cannot vary
    /// with the C library; `null` for NaN and infinities. Beyond 9·10^12 (rare) the integers run
    /// out and Swift's shortest round-trip form is printed, which is the same on every machine too.
    public static func format(_ d: Double) -> String {
        guard d.isFinite else { return "null" }
        return FixedDecimal.text(d, decimals: decimals, below: 9.0e18) ?? String(d)
    }
}
