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
