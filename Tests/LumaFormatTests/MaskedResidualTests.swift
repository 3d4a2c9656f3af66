@testable import LumaFormat
import Testing
import LumaTestSupport

@Suite("Masked residuals: mask bits and non-zero bytes rebuild the frame exactly")
struct MaskedResidualTests {
    @Test("any density and length round-trips, and the whole-frame path agrees", arguments: [0.0, 0.01, 0.3, 0.5, 0.9, 1.0])
    func roundTrip(density: Double) {
        var g = SeededGenerator(seed: UInt64(density * 1000) + 1)
        for count in [1, 7, 8, 63, 64, 65, 200, 4096 + 13] {
            let predictor = (0..<count).map { _ in UInt8(truncatingIfNeeded: g.next()) }
            let current = predictor.map { p -> UInt8 in
                Double(g.next() % 10_000) / 10_000 < density ? p &+ UInt8(1 + g.next() % 255) : p
            }
            var mask = [UInt8](repeating: 0xAA, count: MaskedResidual.maskSize(count))
            var values = [UInt8](repeating: 0, count: count)
            let n = MaskedResidual.encode(current, minus: predictor, count: count, mask: &mask, values: &values)
            #expect(n == zip(current, predictor).filter { $0 != $1 }.count)
            var out = [UInt8](repeating: 0, count: count)
            let used = MaskedResidual.decode(mask: mask, values: values, available: n, count: count, plus: predictor, into: &out)
            #expect(used == n)
            #expect(out == current, "density \(density), \(count) pixels")
            // With bytes to spare after the values, the fast path (8 values per load) gives the same.
            var fast = [UInt8](repeating: 0, count: count)
            #expect(MaskedResidual.decode(mask: mask, values: values, available: n, readable: values.count,
                                          count: count, plus: predictor, into: &fast) == n)
            #expect(fast == current, "fast path, density \(density), \(count) pixels")
            // A mask that asks for more values than stored is refused, not read past.
            if n > 0 {
                #expect(MaskedResidual.decode(mask: mask, values: values, available: n - 1, count: count, plus: predictor, into: &out) == nil)
            }
            var whole = [UInt8](repeating: 0, count: count)
            MaskedResidual.subtract(current, minus: predictor, count: count, into: &whole)
            MaskedResidual.add(whole, plus: predictor, count: count, into: &out)
            #expect(out == current)
        }
    }
}
