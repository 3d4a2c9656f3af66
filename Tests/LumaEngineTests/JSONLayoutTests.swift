import LumaAnalysis
import Testing

@Suite("JSON layouts: the one writer prints compact lines for logs and readable files for people")
struct JSONLayoutTests {
    static let record: JSONValue = .object([
        "format": .string("example"),
        "count": .int(2),
        "empty": .array([]),
        "items": .array([
            .object(["id": .string("a"), "tags": .array([.int(1), .int(2)]), "points": .array([
                .array([.number("0"), .number("0.5")]),
                .array([.number("1"), .number("-0.25")]),
            ])]),
            .object(["id": .string("b"), "none": .object([]), "points": .array([])]),
        ]),
        "flags": .array([.bool(true), .null]),
    ])

    @Test("compact has no whitespace at all")
    func compact() {
        #expect(Self.record.text(.compact) == Self.record.serialized)
        #expect(Self.record.serialized == #"{"format":"example","count":2,"empty":[],"items":[{"id":"a","tags":[1,2],"points":[[0,0.5],[1,-0.25]]},{"id":"b","none":{},"points":[]}],"flags":[true,null]}"#)
    }

    @Test("lines: the outermost object and arrays of containers one item per line, indented from the line they open on")
    func lines() {
        let expected = """
            {
              "format": "example",
              "count": 2,
              "empty": [],
              "items": [
                {"id": "a", "tags": [1, 2], "points": [
                  [0, 0.5],
                  [1, -0.25]
                ]},
                {"id": "b", "none": {}, "points": []}
              ],
              "flags": [true, null]
            }
            """
        #expect(Self.record.text(.lines) == expected)
    }

    @Test("an outermost array or scalar: the array one item per line, the scalar as it is")
    func outermost() {
        #expect(JSONValue.array([.int(1), .string("x")]).text(.lines) == "[\n  1,\n  \"x\"\n]")
        #expect(JSONValue.array([]).text(.lines) == "[]")
        #expect(JSONValue.object([]).text(.lines) == "{}")
        #expect(JSONValue.double(0.5).text(.lines) == "0.500000")
    }

    @Test("either layout parses back to the same value")
    func roundTrip() throws {
        #expect(try JSONParser.parse(Self.record.text(.lines)) == (try JSONParser.parse(Self.record.serialized)))
    }
}
