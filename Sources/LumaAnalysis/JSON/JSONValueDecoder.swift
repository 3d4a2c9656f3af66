/// Decodes any `Decodable` type from a ``JSONValue`` directly, without printing the value and
/// parsing the text again: the counterpart of ``JSONValueEncoder``.
///
/// It reads as Foundation's `JSONDecoder` reads the value's text: numbers convert to the type asked
/// for only when they fit it exactly (`1.0` and `1e2` are integers, `1.5` is not, `300` is no
/// `UInt8`, `1e30` no `Int`), and every refusal is a `DecodingError` whose coding path names the
/// key or index where it happened, so ``DecodingProblem`` can say where (`blobs.[0].x`).
/// Objects are read by key; a key given twice reads its first value, as ``JSONValue/subscript(_:)``.
public enum JSONValueDecoder {
    /// `value` read as `T`.
    public static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try JSONValueReader(value: value, codingPath: []).read(T.self)
    }
}

/// The `Decoder` over one value: what a type's `init(from:)` is given, at `codingPath`.
struct JSONValueReader: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw mismatch([String: Any].self, container: "keyed decoding container") }
        return KeyedDecodingContainer(JSONValueKeyedContainer<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else { throw mismatch([Any].self, container: "unkeyed decoding container") }
        return JSONValueUnkeyedContainer(items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { JSONValueSingleContainer(reader: self) }

    /// Whether the value is `null`, or a number that prints as `null` (NaN, the infinities).
    var isNull: Bool {
        switch value {
        case .null: true
        case .double(let d): !d.isFinite
        default: false
        }
    }

    /// The value as `T`: the scalars Foundation reads natively are converted here, any other type
    /// reads itself through this decoder.
    func read<T: Decodable>(_ type: T.Type) throws -> T {
        switch type {
        case is Bool.Type:
            guard case .bool(let b) = value else { throw mismatch(Bool.self) }
            return b as! T
        case is String.Type:
            guard case .string(let s) = value else { throw mismatch(String.self) }
            return s as! T
        case is Double.Type: return try number(Double.self) as! T
        case is Float.Type:
            let f = Float(try number(Float.self))
            guard f.isFinite else { throw doesNotFit(Float.self) }
            return f as! T
        case let integer as any FixedWidthInteger.Type: return try self.integer(integer) as! T
        default: return try T(from: self)
        }
    }

    /// The number this value holds, as a `Double`; `type` is what was asked for, to name it in a refusal.
    private func number(_ type: Any.Type) throws -> Double {
        switch value {
        case .int(let i): return Double(i)
        case .double(let d):
            guard d.isFinite else { throw mismatch(type) }
            return d
        case .number(let text):
            guard let d = Double(text), d.isFinite else { throw doesNotFit(type) }
            return d
        default: throw mismatch(type)
        }
    }

    /// The number this value holds as `type`, when it is a whole number within the type's range.
    private func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        let exact: I?
        switch value {
        case .int(let i): exact = I(exactly: i)
        case .double(let d) where d.isFinite: exact = I(exactly: d)
        case .number(let text): exact = I(text) ?? Double(text).flatMap { I(exactly: $0) }
        default: throw mismatch(type)
        }
        guard let exact else { throw doesNotFit(type) }
        return exact
    }

    /// The refusal of this value as `type`, in Foundation's words (`Expected to decode Int but
    /// found a string instead.`); `null` is a missing value rather than a wrong one.
    func mismatch(_ type: Any.Type, container: String? = nil) -> DecodingError {
        if isNull {
            return .valueNotFound(type, DecodingError.Context(
                codingPath: codingPath, debugDescription: "Cannot get \(container ?? "value of type \(type)") -- found null value instead"))
        }
        return .typeMismatch(type, DecodingError.Context(
            codingPath: codingPath, debugDescription: "Expected to decode \(type) but found \(kind) instead."))
    }

    /// The refusal of a number that `type` cannot hold exactly.
    private func doesNotFit(_ type: Any.Type) -> DecodingError {
        .dataCorrupted(DecodingError.Context(codingPath: codingPath, debugDescription: "Parsed JSON number <\(value.serialized)> does not fit in \(type)."))
    }

    /// What this value is, as Foundation's decoder names it.
    private var kind: String {
        switch value {
        case .null: "null"
        case .bool: "bool"
        case .int, .double, .number: "number"
        case .string: "a string"
        case .array: "an array"
        case .object: "a dictionary"
        }
    }
}
