import Testing
@testable import LumaImaging

/// A 240×180 image: grey 90 with a little fixed texture, and a bright shape where `inside` says.
private func image(_ inside: (Double, Double) -> Bool) -> [UInt8] {
    var pixels = [UInt8](repeating: 0, count: 240 * 180)
    for y in 0..<180 {
        for x in 0..<240 {
            let grain = UInt8((x * 7 + y * 13) % 5)
            pixels[y * 240 + x] = inside(Double(x) + 0.5, Double(y) + 0.5) ? 200 + grain : 90 + grain
        }
    }
    return pixels
}

/// Corners of a `w × h` rectangle centred at (cx, cy), turned by `degrees` (clockwise on screen):
/// top-left, top-right, bottom-right, bottom-left before turning.
private func rectangle(cx: Double, cy: Double, w: Double, h: Double, degrees: Double) -> [(x: Double, y: Double)] {
    let (c, s) = (RectangleDetector.sine(degrees: 90 - degrees), RectangleDetector.sine(degrees: degrees))
    return [(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)].map { (cx + $0.0 * c - $0.1 * s, cy + $0.0 * s + $0.1 * c) }
}

private func inside(_ corners: [(x: Double, y: Double)]) -> (Double, Double) -> Bool {
    { x, y in
        (0..<4).allSatisfy { i in
            let p = corners[i], q = corners[(i + 1) % 4]
            return (q.x - p.x) * (y - p.y) - (q.y - p.y) * (x - p.x) >= 0
        }
    }
}

@Suite("Rectangle detector: quadrilaterals from edges, checked like Vision's options")
struct RectangleDetectorTests {
    @Test("a turned rectangle is found, its corners within 2 pixels, top-left first, clockwise on screen")
    func turnedRectangle() throws {
        let truth = rectangle(cx: 120, cy: 90, w: 120, h: 80, degrees: 12)
        let pixels = image(inside(truth))
        var detector = RectangleDetector()
        let found = pixels.withUnsafeBufferPointer { detector.detect($0, width: 240, height: 180) }
        #expect(found.count == 1)
        let q = try #require(found.first)
        for (got, want) in zip(q.corners, truth) {
            #expect(abs(got.x - want.x) <= 2 && abs(got.y - want.y) <= 2, "corner \(got) vs \(want)")
        }
        #expect(q.confidence >= 0.9)
    }

    @Test("a disc, a thin strip below the aspect minimum and a rectangle below the minimum size are not rectangles")
    func refusals() {
        var detector = RectangleDetector()
        let disc = image { x, y in (x - 120) * (x - 120) + (y - 90) * (y - 90) <= 60 * 60 }
        #expect(disc.withUnsafeBufferPointer { detector.detect($0, width: 240, height: 180) }.isEmpty)
        let strip = image(inside(rectangle(cx: 120, cy: 90, w: 160, h: 30, degrees: 0)))
        #expect(strip.withUnsafeBufferPointer { detector.detect($0, width: 240, height: 180) }.isEmpty)
        detector.settings.minimumAspectRatio = 0.1
        #expect(strip.withUnsafeBufferPointer { detector.detect($0, width: 240, height: 180) }.count == 1)
        detector.settings.minimumSide = 40
        #expect(strip.withUnsafeBufferPointer { detector.detect($0, width: 240, height: 180) }.isEmpty)
    }

    @Test("a shape with corners far from right angles passes only with a wide quadrature tolerance")
    func quadrature() {
        // A parallelogram with 55° and 125° corners: 35° from right angles.
        let corners: [(x: Double, y: Double)] = [(76, 50), (196, 50), (160, 102), (40, 102)]
        let pixels = image(inside(corners))
        var detector = RectangleDetector()
        detector.settings.minimumAspectRatio = 0.3
        #expect(pixels.withUnsafeBufferPointer { detector.detect($0, width: 240, height: 180) }.isEmpty)
        detector.settings.quadratureTolerance = 40
        #expect(pixels.withUnsafeBufferPointer { detector.detect($0, width: 240, height: 180) }.count == 1)
    }
}
