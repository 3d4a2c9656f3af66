import LumaImaging
import Testing

@Suite("Connected components (8-connectivity) on a mask")
struct ConnectedComponentsTests {
    static func mask(_ rows: [String]) -> (width: Int, pixels: [UInt8]) {
        (rows[0].count, rows.flatMap { $0.map { $0 == "#" ? UInt8(1) : 0 } })
    }

    static func label(_ rows: [String], region: PixelRect? = nil) -> [Component] {
        let (w, m) = mask(rows)
        var cc = ConnectedComponents()
        return m.withUnsafeBufferPointer { cc.label($0, width: w, region: region ?? PixelRect(width: w, height: rows.count)) }
    }

    @Test("separate blobs are separate, with exact area, box and centroid")
    func twoBlobs() {
        let c = Self.label([
            "##......",
            "##....#.",
            "......##",
        ])
        #expect(c.count == 2)
        #expect(c[0] == Component(area: 4, minX: 0, minY: 0, maxX: 1, maxY: 1, sumX: 2, sumY: 2))
        #expect(c[1].area == 3 && c[1].minX == 6 && c[1].maxX == 7 && c[1].minY == 1 && c[1].maxY == 2)
        #expect(c[0].centroid == (1.0, 1.0))
    }

    @Test("diagonal neighbours join; a U shape that meets at the bottom is one component")
    func joins() {
        #expect(Self.label(["#.", ".#"]).count == 1)
        let u = Self.label([
            "#...#",
            "#...#",
            "#####",
        ])
        #expect(u.count == 1)
        #expect(u[0].area == 9)
    }

    @Test("only the region is labelled")
    func region() {
        let c = Self.label(["##..##", "##..##"], region: PixelRect(x0: 3, y0: 0, x1: 6, y1: 2))
        #expect(c.count == 1)
        #expect(c[0].minX == 4 && c[0].area == 4)
    }

    @Test("an empty mask has no components, and equivalent radius follows area")
    func empty() {
        #expect(Self.label(["....", "...."]).isEmpty)
        let disc = Component(area: 314, minX: 0, minY: 0, maxX: 19, maxY: 19, sumX: 0, sumY: 0)
        #expect(abs(disc.equivalentRadius - 9.997) < 0.01)
    }
}

@Suite("Frame difference and background model")
struct DifferenceTests {
    @Test("absolute difference, threshold and statistics in one pass")
    func difference() {
        let a: [UInt8] = [10, 10, 10, 200, 0, 255]
        let b: [UInt8] = [10, 40, 0, 100, 255, 250]
        var mask = [UInt8](repeating: 9, count: 6), diff = [UInt8](repeating: 0, count: 6)
        let s = a.withUnsafeBufferPointer { pa in b.withUnsafeBufferPointer { pb in
            mask.withUnsafeMutableBufferPointer { m in diff.withUnsafeMutableBufferPointer { d in
                FrameDifference.compute(pa, pb, width: 3, region: PixelRect(width: 3, height: 2), threshold: 10, mask: m, difference: d)
            } }
        } }
        #expect(diff == [0, 30, 10, 100, 255, 5])
        #expect(mask == [0, 1, 0, 1, 1, 0])
        #expect(s.changedPixels == 3 && s.absoluteDifferenceSum == 400 && s.pixelCount == 6)
    }

    @Test("the running average converges to a new static scene, exactly and reproducibly")
    func runningAverage() {
        let first = [UInt8](repeating: 0, count: 4), scene = [UInt8](repeating: 200, count: 4)
        var model = first.withUnsafeBufferPointer { RunningAverage(first: GrayImage(pixels: $0, width: 2, height: 2), learningRate: 0.25) }
        for _ in 0..<60 { scene.withUnsafeBufferPointer { model.update(with: GrayImage(pixels: $0, width: 2, height: 2), region: PixelRect(width: 2, height: 2)) } }
        model.withBackground { bg in #expect(bg.allSatisfy { $0 >= 199 }) }
    }
}
