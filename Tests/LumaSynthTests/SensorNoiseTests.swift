import LumaSynth
import Testing

@Suite("Sensor noise: Gaussian with the requested sigma, independent per pixel and frame")
struct SensorNoiseTests {
    /// Noise samples of one frame: the noisy background minus the clean one, where the clean value
    /// is far from 0 and 255 so clipping cannot bias them.
    static func noise(_ scene: SyntheticScene, frame: Int) -> [Double] {
        let noisy = scene.frame(frame, layers: [.noise])
        let clean = scene.frame(frame, layers: [])
        var samples: [Double] = []
        samples.reserveCapacity(noisy.count)
        for i in noisy.indices where clean[i] > 40 && clean[i] < 215 {
            samples.append(Double(noisy[i]) - Double(clean[i]))
        }
        return samples
    }

    @Test("Measured sigma is within 15% of the setting, with zero mean", arguments: [0.5, 1, 2, 3.5, 8, 20])
    func sigma(setting: Double) throws {
        let scene = try makeScene(.balls, seed: 9, frames: 2, noise: setting)
        let (mean, deviation) = meanAndDeviation(Self.noise(scene, frame: 1))
        #expect(abs(deviation - setting) < 0.15 * setting, "measured \(deviation)")
        #expect(abs(mean) < 0.05 * setting + 0.02, "mean \(mean)")
    }

    @Test("On a flat patch, the difference of two frames has sigma √2 times the setting")
    func flatRegionTemporal() throws {
        let scene = try makeScene(.balls, seed: 2, width: 640, height: 360, frames: 2, noise: 2)
        let a = scene.frame(0, layers: [.noise]), b = scene.frame(1, layers: [.noise])
        // A 120×60 patch of upper wall: the background is identical in both frames.
        var differences: [Double] = []
        for row in 20..<80 { for column in 260..<380 {
            differences.append(Double(a[row * 640 + column]) - Double(b[row * 640 + column]))
        } }
        let deviation = meanAndDeviation(differences).deviation / 2.0.squareRoot()
        #expect(abs(deviation - 2) < 0.3, "measured \(deviation)")
    }

    @Test("The distribution is Gaussian: about 68% within 1 sigma and 95% within 2")
    func shape() throws {
        let scene = try makeScene(.balls, seed: 3, frames: 1, noise: 6)
        let samples = Self.noise(scene, frame: 0)
        let within1 = Double(samples.filter { abs($0) <= 6 }.count) / Double(samples.count)
        let within2 = Double(samples.filter { abs($0) <= 12 }.count) / Double(samples.count)
        #expect(within1 > 0.65 && within1 < 0.73, "\(within1)")
        #expect(within2 > 0.94 && within2 < 0.97, "\(within2)")
    }

    @Test("Noise is uncorrelated between neighbouring pixels and between frames")
    func independence() throws {
        let scene = try makeScene(.balls, seed: 4, frames: 2, noise: 4)
        let a = scene.frame(0, layers: [.noise]), b = scene.frame(1, layers: [.noise])
        let clean = scene.frame(0, layers: [])
        var na: [Double] = [], nb: [Double] = []
        for i in clean.indices where clean[i] > 40 && clean[i] < 215 {
            na.append(Double(a[i]) - Double(clean[i]))
            nb.append(Double(b[i]) - Double(clean[i]))
        }
        func correlation(_ x: ArraySlice<Double>, _ y: ArraySlice<Double>) -> Double {
            let n = Double(x.count)
            let mx = x.reduce(0, +) / n, my = y.reduce(0, +) / n
            var sxy = 0.0, sxx = 0.0, syy = 0.0
            for (u, v) in zip(x, y) { sxy += (u - mx) * (v - my); sxx += (u - mx) * (u - mx); syy += (v - my) * (v - my) }
            return sxy / (sxx * syy).squareRoot()
        }
        #expect(abs(correlation(na[...], nb[...])) < 0.02, "frame to frame")
        #expect(abs(correlation(na.dropLast(), na.dropFirst())) < 0.02, "pixel to next pixel")
    }

    @Test("Noise 0 leaves the clean image")
    func noiseless() throws {
        let scene = try makeScene(.mixed, seed: 1, frames: 3, noise: 0)
        #expect(scene.frame(2) == scene.frame(2, layers: [.balls, .objects, .distractors]))
    }
}
