import Foundation
import Testing
@testable import LumaImaging

@Suite("Tracking kernels: Fourier transform, patch sampling, oriented gradients")
struct TrackingKernelsTests {
    @Test("the transform of an impulse is flat, and inverse after forward gives back the plane (× its size)")
    func fourierRoundTrip() {
        let fft = FourierTransform2D(width: 12, height: 10)
        var impulse = [ComplexFloat](repeating: .zero, count: 120)
        impulse[0] = ComplexFloat(1)
        var spectrum = impulse
        impulse.withUnsafeBufferPointer { i in spectrum.withUnsafeMutableBufferPointer { fft.forward(i, into: $0) } }
        #expect(spectrum.allSatisfy { abs($0.re - 1) < 1e-6 && abs($0.im) < 1e-6 })

        let plane = (0..<120).map { ComplexFloat(Float(($0 * 37) % 17) - 8, 0) }
        var forward = plane, back = plane
        plane.withUnsafeBufferPointer { i in forward.withUnsafeMutableBufferPointer { fft.forward(i, into: $0) } }
        forward.withUnsafeBufferPointer { i in back.withUnsafeMutableBufferPointer { fft.inverse(i, into: $0) } }
        for i in plane.indices {
            #expect(abs(back[i].re * fft.inverseScale - plane[i].re) < 1e-4 && abs(back[i].im * fft.inverseScale) < 1e-4)
        }
    }

    @Test("good FFT sizes have no prime factor above 5")
    func goodSizes() {
        #expect(FourierTransform2D.goodSize(atLeast: 7) == 8)
        #expect(FourierTransform2D.goodSize(atLeast: 11) == 12)
        #expect(FourierTransform2D.goodSize(atLeast: 31) == 32)
        #expect(FourierTransform2D.goodSize(atLeast: 49) == 50)
    }

    @Test("a patch at scale 1 on pixel centres copies the pixels; outside the frame the edge repeats")
    func patchSampling() {
        let frame = (0..<(8 * 6)).map { UInt8($0 * 5) }
        var out = [Float](repeating: 0, count: 4 * 2)
        frame.withUnsafeBufferPointer { f in
            out.withUnsafeMutableBufferPointer {
                PatchSampler.sample(GrayImage(pixels: f, width: 8, height: 6), centreX: 4, centreY: 3, sourceWidth: 4, sourceHeight: 2,
                                    into: $0, outputWidth: 4, outputHeight: 2)
            }
        }
        // Columns 2...5 of rows 2 and 3.
        #expect(out == [18, 19, 20, 21, 26, 27, 28, 29].map { Float($0 * 5) })
        frame.withUnsafeBufferPointer { f in
            out.withUnsafeMutableBufferPointer {
                PatchSampler.sample(GrayImage(pixels: f, width: 8, height: 6), centreX: -10, centreY: -10, sourceWidth: 4, sourceHeight: 2,
                                    into: $0, outputWidth: 4, outputHeight: 2)
            }
        }
        #expect(out.allSatisfy { $0 == 0 })
    }

    @Test("a vertical edge votes into the horizontal-gradient bin; flat cells give no gradient")
    func orientedGradients() {
        let (cells, size) = (4, 4)
        let w = cells * size
        // Left half dark, right half bright: gradients point along x at the edge only.
        let plane = (0..<(w * w)).map { Float($0 % w < w / 2 ? 20 : 220) }
        var gradients = OrientedGradients(cellsX: cells, cellsY: cells, cellSize: size)
        var features = [Float](repeating: -1, count: OrientedGradients.channels * cells * cells)
        plane.withUnsafeBufferPointer { p in features.withUnsafeMutableBufferPointer { gradients.compute(p, into: $0) } }
        let n = cells * cells
        // Cells next to the edge (columns 1 and 2) have energy in bin 0 (0°) only.
        for cy in 0..<cells {
            for cx in 0..<cells {
                let c = cy * cells + cx
                let bins = (0..<OrientedGradients.orientations).map { features[$0 * n + c] }
                if cx == 1 || cx == 2 {
                    #expect(bins[0] > 0 && bins.dropFirst().allSatisfy { $0 == 0 }, "cell \(cx),\(cy): \(bins)")
                } else {
                    #expect(bins.allSatisfy { $0 == 0 }, "cell \(cx),\(cy): \(bins)")
                }
            }
        }
        // Brightness channel: −0.5…0.5 from the cell mean.
        #expect(abs(features[OrientedGradients.orientations * n] - (20.0 / 255 - 0.5)) < 1e-6)
    }

    @Test("signed bins tell a dark-to-bright edge from a bright-to-dark one; soft bins share a gradient between two bins")
    func signedAndSoftBins() {
        let (cells, size) = (4, 4)
        let w = cells * size, n = cells * cells
        func features(_ plane: [Float], soft: Bool, signed: Bool) -> [Float] {
            var g = OrientedGradients(cellsX: cells, cellsY: cells, cellSize: size, softBins: soft, signed: signed)
            var f = [Float](repeating: -1, count: g.channelCount * n)
            plane.withUnsafeBufferPointer { p in f.withUnsafeMutableBufferPointer { g.compute(p, into: $0) } }
            return f
        }
        let rising = (0..<(w * w)).map { Float($0 % w < w / 2 ? 20 : 220) }
        let falling = (0..<(w * w)).map { Float($0 % w < w / 2 ? 220 : 20) }
        let cell = 1 * cells + 1  // next to the edge
        let up = features(rising, soft: false, signed: true), down = features(falling, soft: false, signed: true)
        #expect(up.count == 28 * n)
        #expect(up[0 * n + cell] > 0 && up[9 * n + cell] == 0, "rising edge: signed bin 0 only")
        #expect(down[9 * n + cell] > 0 && down[0 * n + cell] == 0, "falling edge: signed bin 9 only")
        #expect(up[18 * n + cell] == down[18 * n + cell] && up[18 * n + cell] > 0, "the unsigned bin is the same for both")
        // A gradient at 7°, between bins 0 (0°) and 1 (20°), nearer 0: hard bins give it all to bin 0,
        // soft bins give bin 1 a share too.
        let slanted = (0..<(w * w)).map { i -> Float in
            let (x, y) = (Float(i % w), Float(i / w))
            return 8 * (x * 0.99254615 + y * 0.12186934)
        }
        let hard = features(slanted, soft: false, signed: false), soft = features(slanted, soft: true, signed: false)
        #expect(hard[0 * n + cell] > 0 && hard[1 * n + cell] == 0, "hard: \(hard[0 * n + cell]), \(hard[1 * n + cell])")
        #expect(soft[0 * n + cell] > 0 && soft[1 * n + cell] > 0, "soft: \(soft[0 * n + cell]), \(soft[1 * n + cell])")
    }
}
