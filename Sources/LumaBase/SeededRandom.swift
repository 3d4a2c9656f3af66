// Seeded randomness, for synthetic scenes, benchmark corpora and a sweep's random settings. Two kinds, both from Steele, Lea & Flood's SplitMix64:
//
// - `SeededRandom`, a sequential generator for drawing a scene's parameters at init.
// - `Hash`, stateless mixing of counters, for anything that must be computable out of order:
//   sensor noise (seed, frame, pixel), texture lattices (seed, cell), per-frame flicker.
//
// Uniform doubles are built from the top 53 bits by hand rather than with `Double.random(in:using:)`,
// whose algorithm the standard library may change; a seed must mean the same scene forever.

/// Stateless 64-bit mixing (the SplitMix64 finalizer), good enough that consecutive counters give
/// independent-looking outputs.
package enum Hash {
    @usableFromInline package static let golden: UInt64 = 0x9E37_79B9_7F4A_7C15

    @inlinable package static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Hash of an ordered pair; `combine(a, b) != combine(b, a)` in general.
    @inlinable package static func combine(_ a: UInt64, _ b: UInt64) -> UInt64 {
        mix(a &+ golden &* (b &+ 1) ^ (b << 17))
    }

    /// Hash of several values in order.
    @inlinable package static func combine(_ values: UInt64...) -> UInt64 {
        var h: UInt64 = 0x243F_6A88_85A3_08D3
        for v in values { h = combine(h, v) }
        return h
    }

    /// FNV-1a of a label, to name independent streams ("balls", "background", ...).
    package static func label(_ text: String) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            h ^= UInt64(byte)
            h = h &* 0x0000_0100_0000_01B3
        }
        return mix(h)
    }

    /// Uniform double in [0, 1) from a hash.
    @inlinable package static func unit(_ h: UInt64) -> Double { Double(h >> 11) * 0x1p-53 }

    /// Uniform double in [0, 1) for integer lattice point (x, y) of stream `key`.
    @inlinable package static func lattice(_ key: UInt64, _ x: Int, _ y: Int) -> Double {
        unit(mix(key ^ (UInt64(bitPattern: Int64(x)) &* 0xD6E8_FEB8_6659_FD93)
            ^ (UInt64(bitPattern: Int64(y)) &* 0xA076_1D64_78BD_642F)))
    }
}

/// A small seeded generator for drawing scene parameters (or any synthetic description, such as a
/// benchmark's corpus, or a sweep's random settings), one independent stream per purpose: the same seed and stream give the same
/// draws on every machine, forever.
public struct SeededRandom: Sendable {
    private var state: UInt64

    /// The stream named `stream` of scene seed `seed`; `attempt` selects a fresh, equally
    /// deterministic redraw when a draw is rejected.
    public init(seed: UInt64, stream: String, attempt: Int = 0) {
        state = Hash.combine(seed, Hash.label(stream), UInt64(attempt))
    }

    public mutating func next() -> UInt64 {
        state = state &+ Hash.golden
        return Hash.mix(state)
    }

    /// Uniform in [0, 1).
    public mutating func unit() -> Double { Hash.unit(next()) }

    /// Uniform in [lo, hi).
    public mutating func uniform(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * unit() }

    /// Uniform integer in `range`.
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        let span = UInt64(range.upperBound - range.lowerBound) + 1
        return range.lowerBound + Int(next() % span)
    }

    /// True with probability `p`.
    package mutating func chance(_ p: Double) -> Bool { unit() < p }

    /// +1 or -1 with equal probability.
    package mutating func sign() -> Double { next() & 1 == 0 ? 1 : -1 }

    /// `values` in a seeded random order (Fisher–Yates).
    package mutating func shuffled<T>(_ values: [T]) -> [T] {
        var result = values
        guard result.count > 1 else { return result }
        for i in stride(from: result.count - 1, to: 0, by: -1) {
            result.swapAt(i, int(in: 0...i))
        }
        return result
    }
}
