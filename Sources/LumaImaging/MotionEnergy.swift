/// The motion energy of a frame against its background: `|frame − background|` at each pixel. Its
/// sign is not kept on purpose: a ball is brighter than one part of what it passes and darker than
/// another, and a signed difference loses it against every moving edge.
public enum MotionEnergy {
    /// The median of `a − b` over every `rowStep`-th row of two `width × height` planes, in whole
    /// grey levels: how much the light of the whole scene changed, where most of it is still.
    public static func typicalDifference(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, width: Int, height: Int,
                                         rowStep: Int = 4) -> Int {
        precondition(a.count >= width * height && b.count >= width * height, "planes hold width × height bytes")
        precondition(rowStep >= 1, "rowStep is at least 1")
        guard width > 0, height > 0 else { return 0 }
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 511) { histogram in
            var total = 0
            Histograms.count(into: histogram) { counts in
                let (pa, pb) = (a.baseAddress!, b.baseAddress!)
                for y in stride(from: 0, to: height, by: rowStep) {
                    let (ra, rb) = (pa + y * width, pb + y * width)
                    counts.add(width) { x in Int(ra[x]) &- Int(rb[x]) &+ 255 }
                    total += width
                }
            }
            var below = 0
            for v in 0..<511 {
                below += histogram[v]
                if 2 * below >= total { return v - 255 }
            }
            return 0
        }
    }

    /// `energy[i] = |a[i] − clamp(b[i] + offset)|` for the first `count` pixels: the background
    /// shifted by the scene's change of light.
    public static func absoluteDifference(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, offset: Int,
                                          into energy: UnsafeMutableBufferPointer<UInt8>, count: Int) {
        guard offset != 0 else { return absoluteDifference(a, b, into: energy, count: count) }
        precondition(a.count >= count && b.count >= count && energy.count >= count, "planes hold count bytes")
        guard count > 0 else { return }
        // |a − (b + offset)| with b + offset saturated to 0...255, sixteen pixels at a time.
        let pa = UnsafeRawPointer(a.baseAddress!), pb = UnsafeRawPointer(b.baseAddress!), pe = UnsafeMutableRawPointer(energy.baseAddress!)
        let step = SIMD16<UInt8>(repeating: UInt8(clamping: abs(offset)))
        let rising = offset > 0
        var i = 0
        while i + 16 <= count {
            let x = pa.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
            let back = pb.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
            var y: SIMD16<UInt8>
            if rising {
                y = back &+ step
                y.replace(with: 255, where: y .< back)
            } else {
                y = back &- step
                y.replace(with: 0, where: y .> back)
            }
            let larger = x .> y
            pe.storeBytes(of: x.replacing(with: y, where: .!larger) &- y.replacing(with: x, where: .!larger), toByteOffset: i, as: SIMD16<UInt8>.self)
            i += 16
        }
        while i < count {
            let y = min(255, max(0, Int(b[i]) + offset))
            energy[i] = UInt8(abs(Int(a[i]) - y))
            i += 1
        }
    }

    /// `energy[i] = |a[i] − b[i]|` for the first `count` pixels.
    public static func absoluteDifference(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>,
                                          into energy: UnsafeMutableBufferPointer<UInt8>, count: Int) {
        precondition(a.count >= count && b.count >= count && energy.count >= count, "planes hold count bytes")
        guard count > 0 else { return }
        let pa = UnsafeRawPointer(a.baseAddress!), pb = UnsafeRawPointer(b.baseAddress!), pe = UnsafeMutableRawPointer(energy.baseAddress!)
        var i = 0
        while i + 16 <= count {
            let x = pa.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
            let y = pb.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
            // |x − y| as the larger minus the smaller.
            let larger = x .> y
            pe.storeBytes(of: x.replacing(with: y, where: .!larger) &- y.replacing(with: x, where: .!larger), toByteOffset: i, as: SIMD16<UInt8>.self)
            i += 16
        }
        while i < count {
            let x = a[i], y = b[i]
            energy[i] = x > y ? x &- y : y &- x
            i += 1
        }
    }
}
