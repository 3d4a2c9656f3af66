extension JSONValue {
    /// Decodes this value as `T` (``JSONValueDecoder``).
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONValueDecoder.decode(T.self, from: self)
    }

    /// This value as its text reads back: each floating-point number at the ``decimals`` it prints
    /// with, NaN and the infinities as `null`. What is decoded from it is what is decoded from its
    /// log line, so a configuration runs with exactly the values its log header prints.
    public var asPrinted: JSONValue {
        switch self {
        case .double(let d):
            let text = JSONValue.format(d)
            return Double(text).map(JSONValue.double) ?? .null
        case .array(let items): return .array(items.map(\.asPrinted))
        case .object(let members): return .object(members.map { Member($0.key, $0.value.asPrinted) })
        case .null, .bool, .int, .number, .string: return self
        }
    }
}
