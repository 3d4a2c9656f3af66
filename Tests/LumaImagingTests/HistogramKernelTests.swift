import LumaImaging
import Testing

/// The noise and light estimates count differences into histograms four pixels at a time; they
/// must give exactly what counting them one by one gives.
@Suite("Noise and light estimates agree with counting pixel by pixel")
struct HistogramKernelTests {
    /// A still scene with noise, and a part where something moved: most differences fall in a few
    /// bins, some far off, like a real frame pair.
    static func planes(_ g: inout KernelReferenceTests.Generator, width: Int, height: Int) -> (a: [UInt8], b: [UInt8]) {
        var a = [UInt8](repeating: 0, count: width * height), b = a
        for i in a.indices {
            let base = g.int(20...230)
            a[i] = UInt8(base + g.int(-3...3))
            b[i] = UInt8(g.int(0...99) < 8 ? g.int(0...255) : base + g.int(-3...3))
        }
        return (a, b)
    }

    /// The median of |a − b|'s histogram, counted one pixel at a time (the kernel before it
    /// counted in four).
    static func referenceSigma(_ a: [UInt8], _ b: [UInt8], width: Int, height: Int, rowStep: Int) -> Double {
        var histogram = [Int](repeating: 0, count: 256)
        var total = 0
        for y in stride(from: 0, to: height, by: rowStep) {
            for x in 0..<width { histogram[abs(Int(a[y * width + x]) - Int(b[y * width + x]))] += 1 }
            total += width
        }
        let half = Double(total) / 2
        var below = 0
        for v in 0..<256 {
            let here = histogram[v]
            if Double(below + here) >= half, here > 0 {
                let start = v == 0 ? 0 : Double(v) - 0.5, span = v == 0 ? 0.5 : 1
                return (start + span * (half - Double(below)) / Double(here)) / 0.9539
            }
            below += here
        }
        return 255 / 0.9539
    }

    /// The median of a − b over the rows, one pixel at a time.
    static func referenceTypical(_ a: [UInt8], _ b: [UInt8], width: Int, height: Int, rowStep: Int) -> Int {
        var histogram = [Int](repeating: 0, count: 511)
        var total = 0
        for y in stride(from: 0, to: height, by: rowStep) {
            for x in 0..<width { histogram[Int(a[y * width + x]) - Int(b[y * width + x]) + 255] += 1 }
            total += width
        }
        var below = 0
        for v in 0..<511 {
            below += histogram[v]
            if 2 * below >= total { return v - 255 }
        }
        return 0
    }

    @Test("the noise σ and the typical difference are those of a pixel-by-pixel count, for widths off the four-pixel step")
    func sameAsCountingOneByOne() {
        var g = KernelReferenceTests.Generator(state: 0xD1B5_4A32_D192_ED03)
        for _ in 0..<60 {
            let (w, h, step) = (g.int(1...67), g.int(1...41), g.int(1...5))
            let (a, b) = Self.planes(&g, width: w, height: h)
            let sigma = a.withUnsafeBufferPointer { pa in
                b.withUnsafeBufferPointer { NoiseLevel.temporalSigma(pa, $0, width: w, height: h, rowStep: step) }
            }
            let typical = a.withUnsafeBufferPointer { pa in
                b.withUnsafeBufferPointer { MotionEnergy.typicalDifference(pa, $0, width: w, height: h, rowStep: step) }
            }
            #expect(sigma == Self.referenceSigma(a, b, width: w, height: h, rowStep: step), "\(w)×\(h), every \(step) rows")
            #expect(typical == Self.referenceTypical(a, b, width: w, height: h, rowStep: step), "\(w)×\(h), every \(step) rows")
        }
    }
}
