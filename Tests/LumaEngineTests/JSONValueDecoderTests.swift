import LumaAnalysis
import Testing

/// ``JSONValueDecoder``: a `Decodable` type read straight from a ``JSONValue``, numbers converted
/// only when they fit exactly, every refusal a `DecodingError` at the key it happened.
@Suite("JSONValue decoder: values read without text, refusals name where")
struct JSONValueDecoderTests {
    struct Whole: Decodable, Equatable { var a: Int }
    struct Byte: Decodable, Equatable { var a: UInt8 }
    struct Single: Decodable, Equatable { var a: Float }

    /// What decoding `value` as `T` is refused with, in the user's words.
    func problem<T: Decodable>(_ type: T.Type, _ value: JSONValue) -> String? {
        do { _ = try value.decode(T.self); return nil } catch { return DecodingProblem(error).description }
    }

    @Test("a whole number of any form reads as an integer: 1, 1.0, 1e2 as text")
    func wholeNumbers() throws {
        #expect(try JSONValue.object(["a": .int(1)]).decode(Whole.self) == Whole(a: 1))
        #expect(try JSONValue.object(["a": .double(1.0)]).decode(Whole.self) == Whole(a: 1))
        #expect(try JSONValue.object(["a": .number("1e2")]).decode(Whole.self) == Whole(a: 100))
        #expect(try JSONValue.object(["a": .int(255)]).decode(Byte.self) == Byte(a: 255))
        #expect(try JSONValue.int(.min).decode(Int64.self) == .min)
        #expect(try JSONValue.number("18446744073709551615").decode(UInt64.self) == .max)
    }

    @Test("a number an integer type cannot hold is refused at its key, never trapped on",
          arguments: [(JSONValue.double(1.5), "1.500000"), (.double(1e30), "1e+30"),
                      (.number("1e30"), "1e30"), (.double(-0.5), "-0.500000")])
    func integersRefused(value: JSONValue, printed: String) {
        #expect(problem(Whole.self, .object(["a": value])) == "a is not a valid value: Parsed JSON number <\(printed)> does not fit in Int.")
    }

    @Test("a byte is 0...255: 300 and -1 are refused")
    func bytesRefused() {
        #expect(problem(Byte.self, .object(["a": .int(300)])) == "a is not a valid value: Parsed JSON number <300> does not fit in UInt8.")
        #expect(problem(Byte.self, .object(["a": .int(-1)])) == "a is not a valid value: Parsed JSON number <-1> does not fit in UInt8.")
    }

    @Test("a Float takes any number within its range, not 1e300")
    func floats() throws {
        #expect(try JSONValue.object(["a": .double(0.1)]).decode(Single.self) == Single(a: 0.1))
        #expect(problem(Single.self, .object(["a": .double(1e300)]))?.hasPrefix("a is not a valid value: Parsed JSON number") == true)
    }

    @Test("a value of the wrong kind says what it must be and what was found, as Foundation's decoder does")
    func wrongKinds() {
        #expect(problem(Whole.self, .object(["a": .string("x")])) == "a must be a whole number (found a string)")
        #expect(problem(Whole.self, .object(["a": .bool(true)])) == "a must be a whole number (found bool)")
        #expect(problem(Whole.self, .object(["a": .array([])])) == "a must be a whole number (found an array)")
        #expect(problem(String.self, .int(1)) == "must be a string (found number)")
        #expect(problem(Whole.self, .object(["a": .null])) == "a must be a whole number, not null")
        #expect(problem(Whole.self, .object(["a": .double(.nan)])) == "a must be a whole number, not null")
        #expect(problem(Whole.self, .object([])) == "a is missing")
        #expect(problem(Whole.self, .array([])) == "must be an object (found an array)")
        #expect(problem([Int].self, .object([])) == "must be an array (found a dictionary)")
    }

    @Test("a refusal deep inside names the whole path: members by name, items by index")
    func nestedPaths() {
        struct Blob: Decodable { var x: Double }
        struct Blobs: Decodable { var blobs: [Blob] }
        let value = JSONValue.object(["blobs": .array([.object(["x": .int(1)]), .object(["x": .string("left")])])])
        #expect(problem(Blobs.self, value) == "blobs.[1].x must be a number (found a string)")
        #expect(problem([[Int]].self, .array([.array([.int(1), .null])])) == "[0].[1] must be a whole number, not null")
    }

    @Test("optional keys: missing or null read as nil, a wrong kind is still refused")
    func optionals() throws {
        struct Maybe: Decodable, Equatable { var a: Int?; var b: [String]? }
        #expect(try JSONValue.object([:]).decode(Maybe.self) == Maybe(a: nil, b: nil))
        #expect(try JSONValue.object(["a": .null, "b": .array([.string("x")])]).decode(Maybe.self) == Maybe(a: nil, b: ["x"]))
        #expect(problem(Maybe.self, .object(["a": .string("1")])) == "a must be a whole number (found a string)")
        #expect(try JSONValue.array([.int(1), .null]).decode([Int?].self) == [1, nil])
    }

    /// A type that reads itself with every kind of container, a nested one and a super decoder.
    struct Handmade: Decodable, Equatable {
        var name: String
        var corners: [Int]
        var origin: (x: Double, y: Double)
        var base: String
        var tail: Bool

        enum Keys: String, CodingKey { case name, shape, corners, base }
        enum OriginKeys: String, CodingKey { case x, y }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Keys.self)
            name = try c.decode(String.self, forKey: .name)
            var shape = try c.nestedUnkeyedContainer(forKey: .shape)
            corners = []
            for _ in 0..<2 { corners.append(try shape.decode(Int.self)) }
            let origin = try shape.nestedContainer(keyedBy: OriginKeys.self)
            self.origin = (try origin.decode(Double.self, forKey: .x), try origin.decode(Double.self, forKey: .y))
            tail = try shape.superDecoder().singleValueContainer().decode(Bool.self)
            #expect(shape.isAtEnd)
            base = try c.superDecoder(forKey: .base).singleValueContainer().decode(String.self)
        }

        static func == (l: Self, r: Self) -> Bool {
            (l.name, l.corners, l.origin.x, l.origin.y, l.base, l.tail) == (r.name, r.corners, r.origin.x, r.origin.y, r.base, r.tail)
        }
    }

    @Test("a custom init(from:) reads keyed, unkeyed, nested and super containers")
    func customDecodable() throws {
        let value = JSONValue.object([
            "name": .string("court"), "base": .string("b"),
            "shape": .array([.int(3), .int(4), .object(["x": .double(0.25), "y": .int(2)]), .bool(true)]),
        ])
        let read = try value.decode(Handmade.self)
        #expect(read.corners == [3, 4] && read.origin == (0.25, 2) && read.base == "b" && read.tail && read.name == "court")
        #expect(problem(Handmade.self, .object(["name": .string("n"), "shape": .array([.int(3)])])) == "shape.[1] must be a whole number, not null")
    }

    @Test("a JSON value reads itself back, objects by key in order, numbers as integers when whole")
    func jsonValues() throws {
        let value = JSONValue.object(["b": .int(1), "a": .array([.double(2.0), .double(2.5), .null, .string("s")])])
        #expect(try value.decode(JSONValue.self) == .object(["a": .array([.int(2), .double(2.5), .null, .string("s")]), "b": .int(1)]))
    }

    @Test("as printed: each number at the decimals its text has, so it decodes as its log line does")
    func asPrinted() throws {
        let value = JSONValue.object(["r": .double(0.0123456789), "n": .array([.double(.infinity), .int(3)])])
        #expect(value.asPrinted == .object(["r": .double(0.012346), "n": .array([.null, .int(3)])]))
        #expect(value.asPrinted == (try JSONParser.parse(value.serialized)))
    }
}
