/// A background model for a fixed camera: each pixel's median over a few past frames, sampled a
/// few frames apart.
///
/// Things that pass in front of the background (a thrown ball, a swinging arm, a walking player)
/// stand at one place in fewer than half of the samples, so the median shows what is behind them;
/// a scene that changes for good (a bag put down, a light switched on) is background again after
/// half the span (`sampleCount × spacing / 2` frames). Unlike a running average, nothing that
/// moved leaves a trail, and no foreground mask is needed to keep it clean.
///
/// ```swift
/// var background = MedianBackground(width: w, height: h)          // 9 samples, 3 frames apart
/// for plane in shrunkFrames {
///     if background.isReady { MotionEnergy.absoluteDifference(plane, background.plane, into: energy) }
///     background.observe(plane)
/// }
/// ```
///
/// The median is exact (integers, the same everywhere) and computed 16 pixels at a time, only when a
/// sample was added: a frame costs a tenth of a pass over its plane, on average.
public struct MedianBackground: Sendable {
    public let width: Int
    public let height: Int
    /// Samples kept (odd, 1...15).
    public let sampleCount: Int
    /// Every `spacing`-th observed frame is a sample.
    public let spacing: Int
    /// The median of the samples so far (the lower median while their number is even); all 0 before
    /// the first sample.
    public private(set) var plane: [UInt8]
    /// The samples, one plane after another (`sampleCount` planes' room; `held` used).
    private var samples: [UInt8]
    private var held = 0
    /// Which plane of `samples` the next sample replaces, once all are held.
    private var oldest = 0
    private var observed = 0

    /// A model of `width × height` planes: the median of `sampleCount` frames, `spacing` frames apart.
    public init(width: Int, height: Int, sampleCount: Int = 9, spacing: Int = 3) {
        precondition(width >= 0 && height >= 0, "the plane's size is not negative")
        precondition(sampleCount % 2 == 1 && (1...15).contains(sampleCount), "sampleCount is odd, 1...15")
        precondition(spacing >= 1, "spacing is at least 1")
        self.width = width
        self.height = height
        self.sampleCount = sampleCount
        self.spacing = spacing
        plane = [UInt8](repeating: 0, count: width * height)
        samples = [UInt8](repeating: 0, count: sampleCount * width * height)
    }

    /// Whether there is a sample: before the first, ``plane`` means nothing.
    public var isReady: Bool { held > 0 }

    /// Samples held so far (at most ``sampleCount``).
    public var samplesHeld: Int { held }

    /// Takes the next frame (`width × height` bytes); every ``spacing``-th one, starting with the
    /// first, becomes a sample and the median is updated.
    public mutating func observe(_ frame: UnsafeBufferPointer<UInt8>) {
        let n = width * height
        precondition(frame.count >= n, "the frame holds width × height bytes")
        defer { observed += 1 }
        guard observed % spacing == 0 else { return }
        let slot: Int
        if held < sampleCount {
            slot = held
            held += 1
        } else {
            slot = oldest
            oldest = (oldest + 1) % sampleCount
        }
        guard n > 0 else { return }
        samples.withUnsafeMutableBufferPointer { $0.baseAddress!.advanced(by: slot * n).update(from: frame.baseAddress!, count: n) }
        updateMedian()
    }

    /// Recomputes ``plane``: the (lower) median of the samples at each pixel, by an odd–even
    /// transposition sort of the samples, 16 pixels a step.
    private mutating func updateMedian() {
        let n = width * height, count = held
        let middle = (count - 1) / 2
        samples.withUnsafeBufferPointer { all in
            let sources = all.baseAddress!
            plane.withUnsafeMutableBufferPointer { out in
                let o = UnsafeMutableRawPointer(out.baseAddress!)
                withUnsafeTemporaryAllocation(of: SIMD16<UInt8>.self, capacity: count) { lanes in
                    var i = 0
                    while i + 16 <= n {
                        for k in 0..<count { lanes[k] = UnsafeRawPointer(sources + k * n + i).loadUnaligned(as: SIMD16<UInt8>.self) }
                        if count == 9 {
                            o.storeBytes(of: Self.medianOfNine(lanes), toByteOffset: i, as: SIMD16<UInt8>.self)
                        } else {
                            Self.sort(lanes, count: count)
                            o.storeBytes(of: lanes[middle], toByteOffset: i, as: SIMD16<UInt8>.self)
                        }
                        i += 16
                    }
                    // The last few pixels, one at a time.
                    while i < n {
                        for k in 0..<count { lanes[k] = SIMD16(repeating: sources[k * n + i]) }
                        Self.sort(lanes, count: count)
                        out[i] = lanes[middle][0]
                        i += 1
                    }
                }
            }
        }
    }

    /// The median of nine vectors, lane by lane: the 19 compare–exchanges of the classic
    /// median-of-nine network (Paeth; Devillard's `opt_med9`).
    @inline(__always)
    private static func medianOfNine(_ v: UnsafeMutableBufferPointer<SIMD16<UInt8>>) -> SIMD16<UInt8> {
        var (p0, p1, p2, p3, p4, p5, p6, p7, p8) = (v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8])
        @inline(__always) func order(_ a: inout SIMD16<UInt8>, _ b: inout SIMD16<UInt8>) {
            let swap = b .< a
            let low = a.replacing(with: b, where: swap)
            b = b.replacing(with: a, where: swap)
            a = low
        }
        order(&p1, &p2); order(&p4, &p5); order(&p7, &p8)
        order(&p0, &p1); order(&p3, &p4); order(&p6, &p7)
        order(&p1, &p2); order(&p4, &p5); order(&p7, &p8)
        order(&p0, &p3); order(&p5, &p8); order(&p4, &p7)
        order(&p3, &p6); order(&p1, &p4); order(&p2, &p5)
        order(&p4, &p7); order(&p4, &p2); order(&p6, &p4)
        order(&p4, &p2)
        return p4
    }

    /// Sorts `count` vectors lane by lane (odd–even transposition: `count` rounds of
    /// compare–exchange between neighbours).
    @inline(__always)
    private static func sort(_ v: UnsafeMutableBufferPointer<SIMD16<UInt8>>, count: Int) {
        for round in 0..<count {
            var k = round & 1
            while k + 1 < count {
                let a = v[k], b = v[k + 1]
                let swap = b .< a
                v[k] = a.replacing(with: b, where: swap)
                v[k + 1] = b.replacing(with: a, where: swap)
                k += 2
            }
        }
    }
}

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
            histogram.initialize(repeating: 0)
            var total = 0
            for y in stride(from: 0, to: height, by: rowStep) {
                let row = y * width
                for x in 0..<width { histogram[Int(a[row + x]) - Int(b[row + x]) + 255] += 1 }
                total += width
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
