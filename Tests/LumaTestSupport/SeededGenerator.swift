/// SplitMix64 (Steele, Lea & Flood): a tiny seeded generator, so every random test input, noise
/// field and kill schedule is the same on every run and every machine.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in (0, 1), from the top 53 bits.
    public mutating func unit() -> Double { (Double(next() >> 11) + 0.5) / Double(1 << 53) }

    /// Uniform in `range`.
    public mutating func uniform(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + unit() * (range.upperBound - range.lowerBound)
    }

    /// Approximately standard normal: the sum of 12 uniforms minus 6 (no libm, the same bits
    /// everywhere).
    public mutating func normal() -> Double {
        var sum = 0.0
        for _ in 0..<12 { sum += unit() }
        return sum - 6
    }
}
