import LumaAnalysis
import LumaEngine
import Testing

@Suite("Event log JSON: one fixed text for one value")
struct JSONTests {
    @Test("doubles print with six decimals, rounded half away from zero, never -0")
    func doubles() {
        #expect(JSONValue.double(0.1).serialized == "0.100000")
        #expect(JSONValue.double(-0.0).serialized == "0.000000")
        #expect(JSONValue.double(-0.0000004).serialized == "0.000000")
        #expect(JSONValue.double(-0.0000006).serialized == "-0.000001")
        #expect(JSONValue.double(2.5e-6).serialized == "0.000003")
        #expect(JSONValue.double(123456.7890124).serialized == "123456.789012")
        #expect(JSONValue.double(.nan).serialized == "null")
        #expect(JSONValue.int(-7).serialized == "-7")
    }

    @Test("strings escape quotes, backslashes and control characters only")
    func strings() {
        #expect(JSONValue.string("a\"b\\c\n\u{1}é").serialized == #""a\"b\\c\n\u0001é""#)
    }

    @Test("encoding keeps declaration order, and parsing keeps the text's order")
    func order() throws {
        struct Payload: Codable { var zeta = 1; var alpha = [0.5, 1]; var mid: String? = nil; var inner = Inner() }
        struct Inner: Codable { var b = true; var a = "x" }
        let v = try JSONValueEncoder.encode(Payload())
        #expect(v.serialized == #"{"zeta":1,"alpha":[0.500000,1.000000],"inner":{"b":true,"a":"x"}}"#)
        #expect(try JSONParser.parse(v.serialized) == (try JSONParser.parse(#"{"zeta":1,"alpha":[0.5,1.0],"inner":{"b":true,"a":"x"}}"#)))
        #expect(try JSONParser.parse(v.serialized).serialized == v.serialized)
    }

    @Test("the parser refuses what is not JSON, with the position")
    func parserErrors() throws {
        let deep = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        let refusals: [(text: String, offset: Int, problem: JSONProblem)] = [
            ("", 0, .endOfText(inside: nil)),
            ("{", 1, .expectedKey),
            ("[1,]", 3, .invalidValue),
            (#"{"a" 1}"#, 5, .expectedColon),
            ("01", 0, .leadingZero),
            (#""\x""#, 3, .invalidEscape),
            ("tru", 0, .invalidLiteral),
            ("[1] 2", 4, .textAfterValue),
            ("\"\u{1}\"", 1, .controlCharacterInString),
            (deep, 128, .nestedTooDeep(limit: 128)),
        ]
        for (text, offset, problem) in refusals {
            #expect(throws: JSONParser.Failure(offset: offset, problem: problem), "\(text.prefix(20))") { _ = try JSONParser.parse(text) }
        }
        #expect(JSONParser.Failure(offset: 5, problem: .expectedColon).description == "expected ':' after a key at character 6")
        let emoji = try JSONParser.parse(#""\ud83d\ude00""#)
        #expect(emoji == .string("😀"))
        let exponent = try JSONParser.parse("-1.5e2")
        #expect(exponent == .double(-150))
    }
}

@Suite("Derived ids")
struct DerivedIdentifierTests {
    @Test("ids are UUID-formatted, stable, and differ by recording, analyzer, kind and ordinal")
    func stable() {
        let a = DerivedIdentifier.make(streamIdentity: "abc", analyzer: "trajectory", kind: "trajectory", ordinal: 1)
        #expect(a == DerivedIdentifier.make(streamIdentity: "abc", analyzer: "trajectory", kind: "trajectory", ordinal: 1))
        #expect(a.count == 36 && a.split(separator: "-").map(\.count) == [8, 4, 4, 4, 12])
        #expect(a.split(separator: "-")[2].first == "5")
        let others = [
            DerivedIdentifier.make(streamIdentity: "abd", analyzer: "trajectory", kind: "trajectory", ordinal: 1),
            DerivedIdentifier.make(streamIdentity: "abc", analyzer: "tracking", kind: "trajectory", ordinal: 1),
            DerivedIdentifier.make(streamIdentity: "abc", analyzer: "trajectory", kind: "track", ordinal: 1),
            DerivedIdentifier.make(streamIdentity: "abc", analyzer: "trajectory", kind: "trajectory", ordinal: 2),
        ]
        #expect(Set(others + [a]).count == 5)
    }
}
