extension JSONValue {
    /// This value with every finite floating-point number as the shortest text that reads back to
    /// exactly that number (Swift's `description` of a `Double`: `0.1`, `1e-300`,
    /// `0.3333333333333333`, `-0.0`), kept as ``JSONValue/number(_:)``; NaN and the infinities stay
    /// as they are (printed `null`).
    ///
    /// For files whose numbers are read back and computed with (a sweep's stored scores), where
    /// the six decimals of an event log would change the result. The text is Swift's own
    /// algorithm, not the C library's, so it is the same on every machine.
    public var withExactNumbers: JSONValue {
        switch self {
        case .double(let d) where d.isFinite: return .number(Self.exactText(d))
        case .array(let items): return .array(items.map(\.withExactNumbers))
        case .object(let members): return .object(members.map { Member($0.key, $0.value.withExactNumbers) })
        case .null, .bool, .int, .double, .number, .string: return self
        }
    }

    /// The shortest text of `d` that reads back (``JSONParser``, `Double(_:)`) to `d` bit for
    /// bit, valid JSON (`1e+16`, `5e-324`, `-0.0`); `null` for NaN and the infinities, as
    /// ``format(_:)``.
    public static func exactText(_ d: Double) -> String {
        d.isFinite ? d.description : "null"
    }
}
