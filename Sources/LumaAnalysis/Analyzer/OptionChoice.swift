extension KeyedDecodingContainer {
    /// Decodes an option that is one of an enumeration's names, refusing any other text with an
    /// ``OptionError`` that names the option and lists the choices:
    ///
    /// ```swift
    /// mode = try container.decodeChoice(Mode.self, forKey: .mode)
    /// // option mode: 'fastest' is not one of previous, background
    /// ```
    public func decodeChoice<E: RawRepresentable & CaseIterable>(_ type: E.Type, forKey key: Key) throws -> E
    where E.RawValue == String {
        let text = try decode(String.self, forKey: key)
        guard let value = E(rawValue: text) else {
            throw OptionError(option: key.stringValue, message: "'\(text)' is not one of \(E.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return value
    }
}
