import LumaAnalysis
import LumaBase
import LumaEngine
import Testing

/// One integer-arithmetic formatter behind every fixed-decimal text, and one JSON string escaper
/// behind every JSON text: what each caller prints, side by side.
@Suite("Fixed decimals and JSON strings: one formatter, one escaper, the same bytes everywhere")
struct FixedDecimalTests {
    @Test("a number's sign, whole part and fraction digits make its text; zero has no sign")
    func parts() {
        #expect(FixedDecimal.text(negative: true, whole: 12, fraction: 5, decimals: 2) == "-12.05")
        #expect(FixedDecimal.text(negative: true, whole: 0, fraction: 0, decimals: 3) == "0.000")
        #expect(FixedDecimal.text(negative: false, whole: 7, fraction: 0, decimals: 0) == "7")
        #expect(FixedDecimal.text(negative: false, whole: 0, fraction: 500_000, decimals: 6, trimmingZeros: true) == "0.5")
        #expect(FixedDecimal.text(negative: true, whole: 12, fraction: 0, decimals: 6, trimmingZeros: true) == "-12")
        #expect(FixedDecimal.text(negative: false, whole: UInt64.max, fraction: 1, decimals: 6) == "18446744073709551615.000001")
    }

    /// The text built the plain way, piece by piece: what the byte writer must equal.
    static func plainText(negative: Bool, whole: UInt64, fraction: UInt64, decimals: Int, trimmingZeros: Bool) -> String {
        let sign = negative && (whole != 0 || fraction != 0) ? "-" : ""
        guard decimals > 0, !(trimmingZeros && fraction == 0) else { return sign + String(whole) }
        var digits = String(fraction)
        digits = String(repeating: "0", count: decimals - digits.count) + digits
        if trimmingZeros { while digits.last == "0" { digits.removeLast() } }
        return sign + String(whole) + "." + digits
    }

    @Test("the byte writer prints what building the text piece by piece prints, for every decimals count and edge")
    func bytesAsPieces() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> UInt64 { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return state }
        for decimals in 0...18 {
            var bound: UInt64 = 1
            for _ in 0..<decimals { bound *= 10 }
            let edges: [UInt64] = decimals == 0 ? [0] : [0, 1, 10, bound / 10, bound - 1].filter { $0 < bound }
            for trial in 0..<200 {
                let whole = [0, 1, 9, 10, UInt64.max, next() % 1_000_000, next()][trial % 7]
                let fraction = decimals == 0 ? 0 : (trial < edges.count ? edges[trial] : next() % bound)
                for negative in [false, true] { for trimming in [false, true] {
                    let text = FixedDecimal.text(negative: negative, whole: whole, fraction: fraction, decimals: decimals, trimmingZeros: trimming)
                    #expect(text == Self.plainText(negative: negative, whole: whole, fraction: fraction, decimals: decimals, trimmingZeros: trimming),
                            "\(negative ? "-" : "")\(whole) + \(fraction)e-\(decimals)")
                } }
            }
        }
    }

    @Test("values round half away from zero to units of the last decimal, and give up where the integers end")
    func rounding() {
        #expect(FixedDecimal.units(1.2345, decimals: 2, below: 9e15) == 123)
        #expect(FixedDecimal.units(2.5, decimals: 0, below: 9e15) == 3)
        #expect(FixedDecimal.units(-2.5, decimals: 0, below: 9e15) == -3)
        #expect(FixedDecimal.units(.nan, decimals: 2, below: 9e15) == nil)
        #expect(FixedDecimal.units(-.infinity, decimals: 2, below: 9e15) == nil)
        #expect(FixedDecimal.units(1e14, decimals: 2, below: 9e15) == nil)
        #expect(FixedDecimal.text(units: -5, decimals: 2) == "-0.05")
        #expect(FixedDecimal.text(units: 1234, decimals: 2) == "12.34")
        #expect(FixedDecimal.text(-0.0000001, decimals: 6, below: 9e18) == "0.000000")
        #expect(FixedDecimal.text(2.345, decimals: 2, below: 9e15) == "2.35")
        #expect(FixedDecimal.text(8_999_999_999_999.5, decimals: 0, below: 9e15) == "9000000000000")
    }

    @Test("event logs: six decimals, never -0, null for what is not finite, Swift's shortest form beyond 9e12")
    func eventLogNumbers() {
        #expect(JSONValue.format(0.1) == "0.100000")
        #expect(JSONValue.format(-0.0000006) == "-0.000001")
        #expect(JSONValue.format(-0.0) == "0.000000")
        #expect(JSONValue.format(1e10) == "10000000000.000000")
        #expect(JSONValue.format(1e17) == "1e+17")
        #expect(JSONValue.format(.infinity) == "null")
    }

    @Test("tables and messages: nan and inf in words, huge values in Swift's shortest form")
    func tableNumbers() {
        #expect(DecimalText.fixed(0.8504, 3) == "0.850")
        #expect(DecimalText.fixed(-0.001) == "0.00")
        #expect(DecimalText.fixed(12, 0) == "12")
        #expect(DecimalText.fixed(8e14, 1) == "800000000000000.0")
        #expect(DecimalText.fixed(9e14, 2) == "900000000000000.0", "over 9·10^15 scaled: Swift's own text")
        #expect(DecimalText.fixed(1e16, 0) == "1e+16")
        #expect(DecimalText.fixed(-.infinity) == "-inf")
    }

    @Test("recording time: exact from ticks, rounded half away from zero")
    func recordingTime() {
        #expect(Timestamp(ticks: 1, timescale: 30).fixedDecimalSeconds() == "0.033333")
        #expect(Timestamp(ticks: -1, timescale: 2_000_000).fixedDecimalSeconds() == "-0.000001")
        #expect(Timestamp(ticks: -1, timescale: 3_000_000).fixedDecimalSeconds() == "0.000000")
        #expect(Timestamp(ticks: 59, timescale: 2).fixedDecimalSeconds(0) == "30")
        #expect(Timestamp(ticks: Timestamp.maximumTicks, timescale: 1).fixedDecimalSeconds(3) == "2305843009213693952.000")
    }

    @Test("JSON strings escape quotes, backslashes and control characters only, for logs and truth files alike")
    func strings() {
        #expect(JSONString.quoted("say \"hi\"") == #""say \"hi\"""#)
        #expect(JSONString.quoted("a\\b\n\r\t\u{1}\u{1F}é😀") == #""a\\b\n\r\t\u0001\u001fé😀""#)
        #expect(JSONValue.string("tab\there").serialized == JSONString.quoted("tab\there"))
        var out = "["
        JSONString.quote("x", into: &out)
        #expect(out == #"["x""#)
    }
}
