// Small numeric helpers used across the generator.

extension Double {
    /// Clamped to `lo...hi`.
    @inline(__always) func clamped(_ lo: Double, _ hi: Double) -> Double { Swift.min(Swift.max(self, lo), hi) }

    /// Hermite smoothstep of `self` between `edge0` and `edge1`: 0 below, 1 above, C1-smooth between.
    @inline(__always) func smoothstep(_ edge0: Double, _ edge1: Double) -> Double {
        let t = ((self - edge0) / (edge1 - edge0)).clamped(0, 1)
        return t * t * (3 - 2 * t)
    }
}

extension Int {
    @inline(__always) func clamped(_ lo: Int, _ hi: Int) -> Int { Swift.min(Swift.max(self, lo), hi) }
}
