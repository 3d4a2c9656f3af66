/// The containers ``JSONValueDecoder`` hands a type's `init(from:)`: an object's members by key,
/// an array's items in order, a single value. Each value is read by a ``JSONValueReader`` one step
/// further down the coding path.

struct JSONValueKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [JSONValue.Member]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { members.compactMap { Key(stringValue: $0.key) } }

    func contains(_ key: Key) -> Bool { members.contains { $0.key == key.stringValue } }

    /// The reader of `key`'s value; a refusal when the object has no such key.
    private func reader(_ key: Key) throws -> JSONValueReader {
        guard let member = members.first(where: { $0.key == key.stringValue }) else {
            throw DecodingError.keyNotFound(key, DecodingError.Context(
                codingPath: codingPath, debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
        }
        return JSONValueReader(value: member.value, codingPath: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool { try reader(key).isNull }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try reader(key).read(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try reader(key).read(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try reader(key).read(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try reader(key).read(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try reader(key).read(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try reader(key).read(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try reader(key).read(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try reader(key).read(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try reader(key).read(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try reader(key).read(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try reader(key).read(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try reader(key).read(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try reader(key).read(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try reader(key).read(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try reader(key).read(type) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try reader(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { try reader(key).unkeyedContainer() }

    /// The value of key `super` (what `superEncoder()` writes), `null` when there is none.
    func superDecoder() throws -> any Decoder {
        let key = JSONValueIndex(stringValue: "super")
        return JSONValueReader(value: members.first { $0.key == "super" }?.value ?? .null, codingPath: codingPath + [key])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        JSONValueReader(value: members.first { $0.key == key.stringValue }?.value ?? .null, codingPath: codingPath + [key])
    }
}

struct JSONValueUnkeyedContainer: UnkeyedDecodingContainer {
    let items: [JSONValue]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(items: [JSONValue], codingPath: [any CodingKey]) {
        self.items = items
        self.codingPath = codingPath
    }

    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    /// What `body` reads from the next item; it moves past the item only when the read succeeds,
    /// and refuses at the end of the array.
    private mutating func next<T>(_ type: Any.Type, _ body: (JSONValueReader) throws -> T) throws -> T {
        let path = codingPath + [JSONValueIndex(intValue: currentIndex)]
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, DecodingError.Context(codingPath: path, debugDescription: "Unkeyed container is at end."))
        }
        let value = try body(JSONValueReader(value: items[currentIndex], codingPath: path))
        currentIndex += 1
        return value
    }

    /// Whether the next item is `null`, moving past it when it is.
    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any?.self, DecodingError.Context(
                codingPath: codingPath + [JSONValueIndex(intValue: currentIndex)], debugDescription: "Unkeyed container is at end."))
        }
        guard JSONValueReader(value: items[currentIndex], codingPath: codingPath).isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type) { try $0.read(type) } }
    mutating func decode(_ type: String.Type) throws -> String { try next(type) { try $0.read(type) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type) { try $0.read(type) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type) { try $0.read(type) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(type) { try $0.read(type) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type) { try $0.read(type) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type) { try $0.read(type) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type) { try $0.read(type) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type) { try $0.read(type) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type) { try $0.read(type) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type) { try $0.read(type) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type) { try $0.read(type) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type) { try $0.read(type) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type) { try $0.read(type) } }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type) { try $0.read(type) } }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next([String: Any].self) { try $0.container(keyedBy: type) }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next([Any].self) { try $0.unkeyedContainer() } }

    mutating func superDecoder() throws -> any Decoder { try next(Any.self) { $0 } }
}

struct JSONValueSingleContainer: SingleValueDecodingContainer {
    let reader: JSONValueReader
    var codingPath: [any CodingKey] { reader.codingPath }

    func decodeNil() -> Bool { reader.isNull }
    func decode(_ type: Bool.Type) throws -> Bool { try reader.read(type) }
    func decode(_ type: String.Type) throws -> String { try reader.read(type) }
    func decode(_ type: Double.Type) throws -> Double { try reader.read(type) }
    func decode(_ type: Float.Type) throws -> Float { try reader.read(type) }
    func decode(_ type: Int.Type) throws -> Int { try reader.read(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try reader.read(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try reader.read(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try reader.read(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try reader.read(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try reader.read(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try reader.read(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try reader.read(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try reader.read(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try reader.read(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try reader.read(type) }
}

/// A coding key of the decoder's own: an array's index, or `super`.
struct JSONValueIndex: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}
