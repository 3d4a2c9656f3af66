/// Encodes any `Encodable` value into a ``JSONValue``, keeping keys in the order the type encodes
/// them (declaration order for synthesized conformances). This is how event payloads and analyzer
/// configurations become log lines with a fixed key order.
///
/// Every event an analyzer emits passes through here, so the tree is built without copying: each
/// container appends to its node's own storage, a node knows its parent instead of every container
/// carrying its coding path (built only when asked for), and numbers, strings and booleans are
/// stored without a dynamic cast where the caller's type says what they are.
public enum JSONValueEncoder {
    public static func encode(_ value: some Encodable) throws -> JSONValue {
        if let p = primitive(value) { return p }
        let root = Node(parent: nil, key: nil)
        try value.encode(to: ValueEncoder(node: root))
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
    /// Where the node hangs, for ``codingPath`` only.
    unowned let parent: Node?
    let key: AnyKey?

    init(parent: Node?, key: AnyKey?) {
        self.parent = parent
        self.key = key
    }

    var value: JSONValue {
        switch content {
        case .empty: return .object([])
        case .value(let v): return v
        case .array(let nodes): return .array(nodes.map(\.value))
        case .object(let pairs): return .object(pairs.map { JSONValue.Member($0.0, $0.1.value) })
        }
    }

    /// The keys from the root to this node.
    var codingPath: [any CodingKey] {
        var keys: [any CodingKey] = []
        var node: Node? = self
        while let n = node, let key = n.key { keys.append(key); node = n.parent }
        return keys.reversed()
    }

    func makeObject() { if case .object = content {} else { content = .object([]) } }
    func makeArray() { if case .array = content {} else { content = .array([]) } }

    func child(forKey key: String) -> Node {
        guard case .object(var pairs) = content else {
            let n = Node(parent: self, key: AnyKey(stringValue: key))
            content = .object([(key, n)])
            return n
        }
        if let existing = pairs.first(where: { $0.0 == key }) { return existing.1 }
        let n = Node(parent: self, key: AnyKey(stringValue: key))
        content = .empty  // so the append below finds the storage unshared and grows it in place
        pairs.append((key, n))
        content = .object(pairs)
        return n
    }

    /// Sets `key`'s value to `value`.
    func set(_ value: JSONValue, forKey key: String) { child(forKey: key).content = .value(value) }

    func appendChild() -> Node {
        guard case .array(var nodes) = content else {
            let n = Node(parent: self, key: AnyKey(intValue: 0))
            content = .array([n])
            return n
        }
        let n = Node(parent: self, key: AnyKey(intValue: nodes.count))
        content = .empty  // as in child(forKey:): append in place
        nodes.append(n)
        content = .array(nodes)
        return n
    }

    var count: Int {
        if case .array(let nodes) = content { return nodes.count }
        return 0
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
    var codingPath: [any CodingKey] { node.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.makeObject()
        return KeyedEncodingContainer(Keyed<Key>(node: node))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.makeArray()
        return Unkeyed(node: node)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { Single(node: node) }
}

/// The value as a ``JSONValue`` leaf if it is one of the types JSON holds directly, the common
/// ones tried first.
private func primitive(_ value: some Encodable) -> JSONValue? {
    switch value {
    case let v as Double: return .double(v)
    case let v as Int: return .int(Int64(v))
    case let v as String: return .string(v)
    case let v as Bool: return .bool(v)
    case let v as Float: return .double(Double(v))
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

private func encodeNested(_ value: some Encodable, into node: Node) throws {
    if let p = primitive(value) {
        node.content = .value(p)
    } else {
        try value.encode(to: ValueEncoder(node: node))
    }
}

private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: Node
    var codingPath: [any CodingKey] { node.codingPath }

    mutating func encodeNil(forKey key: Key) throws { node.set(.null, forKey: key.stringValue) }
    mutating func encode(_ value: Double, forKey key: Key) throws { node.set(.double(value), forKey: key.stringValue) }
    mutating func encode(_ value: Int, forKey key: Key) throws { node.set(.int(Int64(value)), forKey: key.stringValue) }
    mutating func encode(_ value: String, forKey key: Key) throws { node.set(.string(value), forKey: key.stringValue) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { node.set(.bool(value), forKey: key.stringValue) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encodeNested(value, into: node.child(forKey: key.stringValue))
    }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let child = node.child(forKey: key.stringValue)
        child.content = .object([])
        return KeyedEncodingContainer(Keyed<NestedKey>(node: child))
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = node.child(forKey: key.stringValue)
        child.content = .array([])
        return Unkeyed(node: child)
    }
    mutating func superEncoder() -> any Encoder { ValueEncoder(node: node.child(forKey: "super")) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { ValueEncoder(node: node.child(forKey: key.stringValue)) }
}

private struct Unkeyed: UnkeyedEncodingContainer {
    let node: Node
    var codingPath: [any CodingKey] { node.codingPath }
    var count: Int { node.count }

    mutating func encodeNil() throws { node.appendChild().content = .value(.null) }
    mutating func encode(_ value: Double) throws { node.appendChild().content = .value(.double(value)) }
    mutating func encode(_ value: Int) throws { node.appendChild().content = .value(.int(Int64(value))) }
    mutating func encode(_ value: String) throws { node.appendChild().content = .value(.string(value)) }
    mutating func encode(_ value: Bool) throws { node.appendChild().content = .value(.bool(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        try encodeNested(value, into: node.appendChild())
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let child = node.appendChild()
        child.content = .object([])
        return KeyedEncodingContainer(Keyed<NestedKey>(node: child))
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = node.appendChild()
        child.content = .array([])
        return Unkeyed(node: child)
    }
    mutating func superEncoder() -> any Encoder { ValueEncoder(node: node.appendChild()) }
}

private struct Single: SingleValueEncodingContainer {
    let node: Node
    var codingPath: [any CodingKey] { node.codingPath }

    mutating func encodeNil() throws { node.content = .value(.null) }
    mutating func encode<T: Encodable>(_ value: T) throws { try encodeNested(value, into: node) }
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
