/// Estimates sensor noise from two consecutive frames of a fixed camera.
///
/// Where nothing moves, the difference of two frames is the difference of two independent noise
/// samples, so it spreads √2 times wider than the noise itself. The median of |a − b| ignores the
/// few pixels where something did move (as long as that is under half the frame), and for normal
/// noise of deviation σ it is 0.6745 · √2 · σ ≈ 0.954 σ.
///
/// Differences are counted in a 256-bin histogram (integers, so the estimate is exact and the same
/// everywhere) and the median is interpolated inside its bin, which keeps the estimate smooth for
/// noise below one grey level.
public enum NoiseLevel {
    /// σ of the per-pixel noise, in grey levels, from every `rowStep`-th row of two
    /// `width × height` planes. 0 when the planes are identical.
    public static func temporalSigma(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, width: Int, height: Int,
                                     rowStep: Int = 1) -> Double {
        precondition(a.count >= width * height && b.count >= width * height, "planes hold width × height bytes")
        precondition(rowStep >= 1, "rowStep is at least 1")
        guard width > 0, height > 0 else { return 0 }
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 256) { histogram in
            var total = 0
            Histograms.count(into: histogram) { counts in
                let pa = a.baseAddress!, pb = b.baseAddress!
                for y in stride(from: 0, to: height, by: rowStep) {
                    let ra = pa + y * width, rb = pb + y * width
                    counts.add(width) { x in
                        let (p, q) = (ra[x], rb[x])
                        return Int(p > q ? p &- q : q &- p)
                    }
                    total += width
                }
            }
            return medianOfAbsoluteDifferences(UnsafeBufferPointer(histogram), count: total) / 0.9539
        }
    }

    /// The median of integer values 0...255 given their histogram, treating value v as spread
    /// evenly over [v − ½, v + ½] (over [0, ½] for 0, since these are absolute values).
    static func medianOfAbsoluteDifferences(_ histogram: UnsafeBufferPointer<Int>, count: Int) -> Double {
        guard count > 0 else { return 0 }
        let half = Double(count) / 2
        var below = 0
        for v in 0..<256 {
            let here = histogram[v]
            if Double(below + here) >= half, here > 0 {
                let start = v == 0 ? 0 : Double(v) - 0.5
                let width = v == 0 ? 0.5 : 1
                return start + width * (half - Double(below)) / Double(here)
            }
            below += here
        }
        return 255
    }
}
