import LumaAnalysis
import Testing

/// The exact form of a `JSONValue`'s numbers: the shortest text that reads back to the same
/// `Double`, bit for bit, for files whose numbers are computed with after reading.
@Suite("JSON: exact numbers")
struct JSONExactNumberTests {
    static let awkward: [Double] = [0.1, 0.2 + 0.1, 1e-300, 1.0 / 3, -0.0, 0, 5e-324, 2.2250738585072014e-308, .greatestFiniteMagnitude,
                                    -.greatestFiniteMagnitude, 9_007_199_254_740_993, 1e16, 123456.7890124, -2.5e-6, 1e22, 4.35, 100]

    @Test("every awkward double prints as text that parses back to the same bits")
    func roundTrip() throws {
        for d in Self.awkward {
            let text = JSONValue.double(d).withExactNumbers.serialized
            let back = try #require(try JSONParser.parse(text).doubleValue, "\(text)")
            #expect(back.bitPattern == d.bitPattern, "\(d) printed \(text), read back \(back)")
        }
    }

    @Test("the text is the shortest that reads back, in JSON's grammar, and never the six decimals of a log")
    func shortestText() {
        let texts = [0.1, 1e-300, 1.0 / 3, -0.0, 1e16, 5e-324, 100].map { JSONValue.double($0).withExactNumbers.serialized }
        #expect(texts == ["0.1", "1e-300", "0.3333333333333333", "-0.0", "1e+16", "5e-324", "100.0"])
        #expect(JSONValue.double(0.1).serialized == "0.100000")
    }

    @Test("integers, strings and NaN are left as they print; nested numbers are made exact where they are")
    func nested() throws {
        let value = JSONValue.object(["n": .int(Int64.max), "s": .string("0.1"), "nan": .double(.nan),
                                      "list": .array([.double(1.0 / 3), .object(["x": .double(-0.0)])])])
        let text = value.withExactNumbers.serialized
        #expect(text == #"{"n":9223372036854775807,"s":"0.1","nan":null,"list":[0.3333333333333333,{"x":-0.0}]}"#)
        let back = try JSONParser.parse(text)
        #expect(back["n"]?.intValue == Int.max)
        #expect(back["list"]?.arrayValue?[1]["x"]?.doubleValue?.sign == .minus)
    }

    @Test("a Codable value with doubles encodes exactly and decodes back equal")
    func codable() throws {
        struct Sample: Codable, Equatable { var values: [Double]; var count: Int; var label: String }
        let sample = Sample(values: Self.awkward, count: 1 << 53 + 1, label: "third")
        let text = try JSONValueEncoder.encode(sample).withExactNumbers.serialized
        let back = try JSONValueDecoder.decode(Sample.self, from: try JSONParser.parse(text))
        #expect(back.values.map(\.bitPattern) == sample.values.map(\.bitPattern))
        #expect(back.count == sample.count && back.label == sample.label)
    }
}
