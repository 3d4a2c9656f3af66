/// Encodes any `Encodable` value into a ``JSONValue``, keeping keys in the order the type encodes
/// them (declaration order for synthesized conformances). This is how event payloads and analyzer
/// configurations become log lines with a fixed key order.
public enum JSONValueEncoder {
    public static func encode(_ value: some Encodable) throws -> JSONValue {
        let root = Node()
        let encoder = ValueEncoder(node: root, codingPath: [])
        try value.encode(to: encoder)
        return root.value
    }
}

/// Mutable tree node: the encoder containers write into these, then the tree is frozen.
private final class Node {
    enum Content {
        case empty
        case value(JSONValue)
        case array([Node])
        case object([(String, Node)])
    }
    var content: Content = .empty

    var value: JSONValue {
        switch content {
        case .empty: return .object([])
        case .value(let v): return v
        case .array(let nodes): return .array(nodes.map(\.value))
        case .object(let pairs): return .object(pairs.map { JSONValue.Member($0.0, $0.1.value) })
        }
    }

    func child(forKey key: String) -> Node {
        if case .object(var pairs) = content {
            if let existing = pairs.first(where: { $0.0 == key }) { return existing.1 }
            let n = Node()
            pairs.append((key, n))
            content = .object(pairs)
            return n
        }
        let n = Node()
        content = .object([(key, n)])
        return n
    }

    func appendChild() -> Node {
        let n = Node()
        if case .array(var nodes) = content {
            nodes.append(n)
            content = .array(nodes)
        } else {
            content = .array([n])
        }
        return n
    }
}

private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) { self.stringValue = String(intValue); self.intValue = intValue }
}

private struct ValueEncoder: Encoder {
    let node: Node
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = node.content {} else { node.content = .object([]) }
        return KeyedEncodingContainer(Keyed<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.content {} else { node.content = .array([]) }
        return Unkeyed(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { Single(node: node, codingPath: codingPath) }
}

private func primitive(_ value: some Encodable) -> JSONValue? {
    switch value {
    case let v as Bool: return .bool(v)
    case let v as String: return .string(v)
    case let v as Double: return .double(v)
    case let v as Float: return .double(Double(v))
    case let v as Int: return .int(Int64(v))
    case let v as Int64: return .int(v)
    case let v as Int32: return .int(Int64(v))
    case let v as Int16: return .int(Int64(v))
    case let v as Int8: return .int(Int64(v))
    case let v as UInt8: return .int(Int64(v))
    case let v as UInt16: return .int(Int64(v))
    case let v as UInt32: return .int(Int64(v))
    case let v as UInt: return v <= UInt(Int64.max) ? .int(Int64(v)) : .number(String(v))
    case let v as UInt64: return v <= UInt64(Int64.max) ? .int(Int64(v)) : .number(String(v))
    case let v as JSONValue: return v
    default: return nil
    }
}

private func encodeNested(_ value: some Encodable, into node: Node, codingPath: [any CodingKey]) throws {
    if let p = primitive(value) {
        node.content = .value(p)
    } else {
        try value.encode(to: ValueEncoder(node: node, codingPath: codingPath))
    }
}

private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: Node
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { node.child(forKey: key.stringValue).content = .value(.null) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encodeNested(value, into: node.child(forKey: key.stringValue), codingPath: codingPath + [key])
    }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let child = node.child(forKey: key.stringValue)
        child.content = .object([])
        return KeyedEncodingContainer(Keyed<NestedKey>(node: child, codingPath: codingPath + [key]))
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = node.child(forKey: key.stringValue)
        child.content = .array([])
        return Unkeyed(node: child, codingPath: codingPath + [key])
    }
    mutating func superEncoder() -> any Encoder { ValueEncoder(node: node.child(forKey: "super"), codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { ValueEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key]) }
}

private struct Unkeyed: UnkeyedEncodingContainer {
    let node: Node
    let codingPath: [any CodingKey]
    var count: Int {
        if case .array(let nodes) = node.content { return nodes.count }
        return 0
    }

    mutating func encodeNil() throws { node.appendChild().content = .value(.null) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        try encodeNested(value, into: node.appendChild(), codingPath: codingPath + [AnyKey(intValue: count)])
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let child = node.appendChild()
        child.content = .object([])
        return KeyedEncodingContainer(Keyed<NestedKey>(node: child, codingPath: codingPath))
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = node.appendChild()
        child.content = .array([])
        return Unkeyed(node: child, codingPath: codingPath)
    }
    mutating func superEncoder() -> any Encoder { ValueEncoder(node: node.appendChild(), codingPath: codingPath) }
}

private struct Single: SingleValueEncodingContainer {
    let node: Node
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.content = .value(.null) }
    mutating func encode<T: Encodable>(_ value: T) throws { try encodeNested(value, into: node, codingPath: codingPath) }
}

extension JSONValue: Codable {
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .int(let i): try c.encode(i)
        case .double(let d): try c.encode(d)
        case .number(let s): try c.encode(Double(s) ?? 0)
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let members):
            var keyed = encoder.container(keyedBy: AnyKey.self)
            for m in members { try keyed.encode(m.value, forKey: AnyKey(stringValue: m.key)) }
        }
    }

    public init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: AnyKey.self) {
            // Foundation's decoder does not promise key order; sort for determinism.
            var members: [Member] = []
            for key in keyed.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                members.append(Member(key.stringValue, try keyed.decode(JSONValue.self, forKey: key)))
            }
            self = .object(members)
            return
        }
        if var unkeyed = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !unkeyed.isAtEnd { items.append(try unkeyed.decode(JSONValue.self)) }
            self = .array(items)
            return
        }
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let i = try? c.decode(Int64.self) { self = .int(i) }
        else if let d = try? c.decode(Double.self) { self = .double(d) }
        else { self = .string(try c.decode(String.self)) }
    }
}
