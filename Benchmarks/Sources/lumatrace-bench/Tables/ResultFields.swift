import LumaAnalysis

/// The fields of a result line (or of an object inside one), read by the names the benchmark
/// writes them under. A field that is missing or of another type is an error naming the line,
/// never a silent 0: a table quotes only what was measured.
struct ResultFields {
    /// `file:line`, for messages.
    let place: String
    let value: JSONValue

    func int(_ key: String) throws(TablesError) -> Int { try need(value[key]?.intValue, key, "a whole number") }
    func double(_ key: String) throws(TablesError) -> Double { try need(value[key]?.doubleValue, key, "a number") }
    func string(_ key: String) throws(TablesError) -> String { try need(value[key]?.stringValue, key, "a string") }
    func bool(_ key: String) throws(TablesError) -> Bool { try need(value[key]?.boolValue, key, "true or false") }
    /// A field a line may leave out (a real clip has no `scene`).
    func optionalString(_ key: String) -> String? { value[key]?.stringValue }
    func optionalBool(_ key: String) -> Bool? { value[key]?.boolValue }

    func object(_ key: String) throws(TablesError) -> ResultFields {
        ResultFields(place: place, value: try need(value[key].flatMap { $0.objectValue == nil ? nil : $0 }, key, "an object"))
    }

    /// The members of an object a line may leave out (lines written before it existed), in the
    /// order written; `nil` when the line has no such object.
    func optionalMembers(_ key: String) -> [(key: String, value: ResultFields)]? {
        value[key]?.objectValue?.map { ($0.key, ResultFields(place: place, value: $0.value)) }
    }

    func objects(_ key: String) throws(TablesError) -> [ResultFields] {
        try need(value[key]?.arrayValue, key, "a list").map { ResultFields(place: place, value: $0) }
    }

    private func need<T>(_ found: T?, _ key: String, _ kind: String) throws(TablesError) -> T {
        guard let found else { throw .unexpectedLine(place: place, reason: "no field '\(key)' holding \(kind)") }
        return found
    }
}

extension ResultLine {
    /// The whole line's fields.
    func fields() throws(TablesError) -> ResultFields {
        do {
            return ResultFields(place: place, value: try JSONParser.parse([UInt8](data)))
        } catch {
            throw .unexpectedLine(place: place, reason: "\(error)")
        }
    }
}
