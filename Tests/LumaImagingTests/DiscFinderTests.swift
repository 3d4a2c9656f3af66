import Testing
import LumaTestSupport
@testable import LumaImaging

/// `DiscFinder`: appearance decides. A ball is found at a fraction of a pixel wherever it is in
/// its window, whatever is behind it, and its shadow, a hand or a body read differently.
@Suite("DiscFinder: a ball's centre to a fraction of a pixel, and what tells it from its shadow")
struct DiscFinderTests {
    /// Something drawn on the background, antialiased (4×4 samples a pixel).
    enum Shape {
        /// A disc of `luma` whose edge ramps over `edge` pixels (0: a sharp edge).
        case disc(x: Double, y: Double, radius: Double, luma: Double, edge: Double)
        /// A darker copy of what is behind it (luma × `ratio`), its edge ramping over `edge` pixels.
        case shadow(x: Double, y: Double, radius: Double, ratio: Double, edge: Double)
        /// A filled rectangle (a hand, a body).
        case box(x0: Double, y0: Double, x1: Double, y1: Double, luma: Double)
    }

    /// A textured wall (±6 levels around 110) with `shapes` drawn in order and sensor noise of `noise` levels.
    static func scene(width: Int = 96, height: Int = 80, _ shapes: [Shape], noise: Double = 0, seed: UInt64 = 1) -> [UInt8] {
        var generator = SeededGenerator(seed: seed)
        var pixels = [UInt8](repeating: 0, count: width * height)
        for j in 0..<height {
            for i in 0..<width {
                var total = 0.0
                for sj in 0..<4 {
                    for si in 0..<4 {
                        let (x, y) = (Double(i) + (Double(si) + 0.5) / 4, Double(j) + (Double(sj) + 0.5) / 4)
                        var value = 110 + Double((i * 7 + j * 13) % 13) - 6
                        for shape in shapes { value = draw(shape, over: value, x: x, y: y) }
                        total += value
                    }
                }
                let v = total / 16 + (noise > 0 ? noise * generator.normal() : 0)
                pixels[j * width + i] = UInt8(min(max(v.rounded(), 0), 255))
            }
        }
        return pixels
    }

    static func draw(_ shape: Shape, over value: Double, x: Double, y: Double) -> Double {
        func coverage(_ cx: Double, _ cy: Double, _ r: Double, _ edge: Double) -> Double {
            let d = ((x - cx) * (x - cx) + (y - cy) * (y - cy)).squareRoot()
            return edge <= 0 ? (d < r ? 1 : 0) : min(max((r - d) / edge + 0.5, 0), 1)
        }
        switch shape {
        case .disc(let cx, let cy, let r, let luma, let edge):
            let a = coverage(cx, cy, r, edge)
            return value * (1 - a) + luma * a
        case .shadow(let cx, let cy, let r, let ratio, let edge):
            return value * (1 - coverage(cx, cy, r, edge) * (1 - ratio))
        case .box(let x0, let y0, let x1, let y1, let luma):
            return (x0...x1).contains(x) && (y0...y1).contains(y) ? luma : value
        }
    }

    static func find(_ pixels: [UInt8], width: Int = 96, height: Int = 80, window: PixelRect = PixelRect(x0: 20, y0: 15, x1: 76, y1: 65),
                     radius: ClosedRange<Double> = 4...9) -> Disc? {
        pixels.withUnsafeBufferPointer { DiscFinder().find(in: GrayImage(pixels: $0, width: width, height: height), window: window, radius: radius) }
    }

    @Test("a ball's centre and radius come out to a fraction of a pixel, wherever it lies between pixels",
          arguments: [(48.0, 40.0), (47.3, 38.8), (51.75, 42.5), (40.1, 33.6)])
    func subPixel(x: Double, y: Double) throws {
        let disc = try #require(Self.find(Self.scene([.disc(x: x, y: y, radius: 6.2, luma: 200, edge: 0)])))
        #expect(abs(disc.x - x) < 0.15 && abs(disc.y - y) < 0.15, "found (\(disc.x), \(disc.y)), drawn at (\(x), \(y))")
        #expect(abs(disc.radius - 6.2) < 0.3, "radius \(disc.radius)")
        #expect(disc.contrast > 80 && disc.ratio > 1.5)
        #expect(disc.roundness > 0.95 && disc.coverage > 0.9, "\(disc)")
        #expect(disc.sharpness > 0.5, "a sharp edge: \(disc)")
    }

    @Test("under sensor noise (σ 4 levels) the centre stays within a third of a pixel")
    func noisy() throws {
        for seed in 1...5 as ClosedRange<UInt64> {
            let disc = try #require(Self.find(Self.scene([.disc(x: 46.6, y: 41.2, radius: 5.5, luma: 170, edge: 0)], noise: 4, seed: seed)))
            #expect(abs(disc.x - 46.6) < 0.33 && abs(disc.y - 41.2) < 0.33, "seed \(seed): (\(disc.x), \(disc.y))")
        }
    }

    @Test("polarity: a dark ball on the wall has a negative contrast and a ratio below 1, and is still sharp")
    func darkBall() throws {
        let disc = try #require(Self.find(Self.scene([.disc(x: 45.4, y: 39.5, radius: 7, luma: 30, edge: 0)])))
        #expect(disc.contrast < -60 && disc.ratio < 0.4, "\(disc)")
        #expect(abs(disc.x - 45.4) < 0.15 && abs(disc.y - 39.5) < 0.15)
        #expect(disc.sharpness > 0.5)
    }

    @Test("a shadow (the wall darker by a third, its edge soft over 5 px) reads as soft; the ball beside it as sharp")
    func shadowIsSoft() throws {
        let ball: Shape = .disc(x: 36, y: 40, radius: 6, luma: 60, edge: 0)
        let shadow: Shape = .shadow(x: 62, y: 42, radius: 7, ratio: 0.66, edge: 5)
        let pixels = Self.scene([shadow, ball])
        let b = try #require(Self.find(pixels, window: PixelRect(x0: 26, y0: 30, x1: 46, y1: 50)))
        let s = try #require(Self.find(pixels, window: PixelRect(x0: 52, y0: 32, x1: 72, y1: 52)))
        #expect(b.sharpness > 0.5, "ball \(b)")
        #expect(s.sharpness < 0.3, "shadow \(s)")
        #expect(s.ratio > 0.6 && s.ratio < 0.9, "a shadow is a darker copy of the wall: \(s)")
    }

    @Test("a hand or a body (a rectangle) is not round: where a disc fits its end, rays into the body find no edge")
    func boxIsNotADisc() {
        let pixels = Self.scene([.box(x0: 30, y0: 28, x1: 66, y1: 44, luma: 190)])
        // A ball has an edge on (nearly) every ray: the balls above have coverage 0.9 or more.
        if let found = Self.find(pixels) {
            #expect(found.roundness < 0.85 || found.coverage < 0.85, "\(found)")
        }
    }

    @Test("a ball in front of a moving body (a bright block behind it) is found as a disc, its own centre")
    func ballOverBody() throws {
        let pixels = Self.scene([.box(x0: 22, y0: 20, x1: 74, y1: 62, luma: 180), .disc(x: 49.3, y: 41.7, radius: 6, luma: 40, edge: 0)])
        let disc = try #require(Self.find(pixels, window: PixelRect(x0: 38, y0: 30, x1: 60, y1: 52)))
        #expect(abs(disc.x - 49.3) < 0.2 && abs(disc.y - 41.7) < 0.2, "\(disc)")
        #expect(disc.contrast < -100 && disc.roundness > 0.9)
    }

    @Test("an empty window finds nothing that stands out; the same frame gives the same disc, bit for bit")
    func emptyAndDeterministic() throws {
        let wall = Self.scene([])
        if let found = Self.find(wall) { #expect(abs(found.contrast) < 12, "a textured wall: \(found)") }
        let pixels = Self.scene([.disc(x: 47.3, y: 38.8, radius: 6.2, luma: 200, edge: 0)], noise: 3)
        #expect(Self.find(pixels) == Self.find(pixels))
    }
}

/// `MotionProposals`: where something moved, at reduced resolution, as boxes in frame pixels.
@Suite("MotionProposals: boxes around what moved, from shrunk frames")
struct MotionProposalsTests {
    @Test("the shrink factor keeps the smallest object over whole blocks")
    func factor() {
        #expect(MotionProposals.factor(minimumRadius: 6.4) == 4)
        #expect(MotionProposals.factor(minimumRadius: 2) == 1)
        #expect(MotionProposals.factor(minimumRadius: 40) == 8)
        #expect(MotionProposals.factor(minimumRadius: 0) == 1)
    }

    @Test("a ball that moves is inside a box (grown by the margin) and over changed blocks in every frame after the first; a still frame gives none")
    func movingBall() {
        let (w, h) = (96, 80)
        var motion = MotionProposals(region: PixelRect(width: w, height: h), factor: MotionProposals.factor(minimumRadius: 5))
        for frame in 0..<6 {
            let (x, y) = (20.0 + 9 * Double(frame), 50.0 - 4 * Double(frame))
            let pixels = DiscFinderTests.scene(width: w, height: h, [.disc(x: x, y: y, radius: 5, luma: 200, edge: 0)], noise: 2, seed: UInt64(frame + 1))
            let boxes = pixels.withUnsafeBufferPointer { motion.propose(GrayImage(pixels: $0, width: w, height: h), threshold: 8, margin: 7) }
            if frame == 0 {
                #expect(boxes.isEmpty)
            } else {
                #expect(boxes.contains { Double($0.x0) <= x - 5 && x + 5 <= Double($0.x1) && Double($0.y0) <= y - 5 && y + 5 <= Double($0.y1) },
                        "frame \(frame): ball at (\(x), \(y)), boxes \(boxes)")
                #expect(motion.motionSupport(x: x, y: y, radius: 5) >= 0.5, "frame \(frame): \(motion.motionSupport(x: x, y: y, radius: 5))")
            }
        }
        let still = DiscFinderTests.scene(width: w, height: h, [.disc(x: 65, y: 30, radius: 5, luma: 200, edge: 0)], noise: 2, seed: 9)
        _ = still.withUnsafeBufferPointer { motion.propose(GrayImage(pixels: $0, width: w, height: h), threshold: 8, margin: 7) }
        let again = DiscFinderTests.scene(width: w, height: h, [.disc(x: 65, y: 30, radius: 5, luma: 200, edge: 0)], noise: 2, seed: 10)
        #expect(again.withUnsafeBufferPointer { motion.propose(GrayImage(pixels: $0, width: w, height: h), threshold: 8, margin: 7) }.isEmpty, "sensor noise alone is not motion")
        #expect(motion.motionSupport(x: 65, y: 30, radius: 5) == 0, "a ball at rest has no motion under it")
    }
}
