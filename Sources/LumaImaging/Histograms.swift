/// Counting small integers into a histogram fast: four partial histograms, filled in turn.
///
/// Neighbouring pixels of a plane mostly fall into the same few bins (the noise of a still scene),
/// so one histogram makes each count wait for the one before it to reach memory. Four partial
/// histograms, pixel `x` counted in partial `x % 4`, let four counts be under way at once; their
/// sums are the exact counts, the same whatever the order.
///
/// ```swift
/// withUnsafeTemporaryAllocation(of: Int.self, capacity: 256) { histogram in
///     Histograms.count(into: histogram) { counts in
///         counts.add(width) { x in Int(row[x]) }      // bin of pixel x, 0..<256
///     }
/// }
/// ```
enum Histograms {
    /// Four partial histograms of `bins` 32-bit counts each.
    struct Partials {
        let counts: UnsafeMutablePointer<UInt32>
        let bins: Int

        /// Counts `bin(x)` for x in 0..<n; every bin must lie in 0..<bins.
        @inline(__always)
        func add(_ n: Int, _ bin: (Int) -> Int) {
            let (c0, c1, c2, c3) = (counts, counts + bins, counts + 2 * bins, counts + 3 * bins)
            var x = 0
            while x &+ 4 <= n {
                c0[bin(x)] &+= 1
                c1[bin(x &+ 1)] &+= 1
                c2[bin(x &+ 2)] &+= 1
                c3[bin(x &+ 3)] &+= 1
                x &+= 4
            }
            while x < n {
                c0[bin(x)] &+= 1
                x &+= 1
            }
        }
    }

    /// Runs `body` with empty partials of `histogram.count` bins, then writes their sums into
    /// `histogram`. Exact while no bin passes 2^32 − 1 counts.
    @inline(__always)
    static func count(into histogram: UnsafeMutableBufferPointer<Int>, _ body: (Partials) -> Void) {
        let bins = histogram.count
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 4 * bins) { partial in
            let p = partial.baseAddress!
            p.initialize(repeating: 0, count: 4 * bins)
            body(Partials(counts: p, bins: bins))
            for v in 0..<bins {
                histogram[v] = Int(p[v]) + Int(p[bins + v]) + Int(p[2 * bins + v]) + Int(p[3 * bins + v])
            }
        }
    }
}
