import LumaImaging
import Testing
import LumaTestSupport

@Suite("Downsample: block means, rounded to nearest, for every factor")
struct DownsampleTests {
    /// The block mean, computed the slow obvious way.
    static func expected(_ plane: [UInt8], width: Int, region: PixelRect, factor: Int) -> [UInt8] {
        let (ow, oh) = Downsample.outputSize(of: region, factor: factor)
        var out = [UInt8](repeating: 0, count: ow * oh)
        for y in 0..<oh {
            for x in 0..<ow {
                var sum = 0
                for dy in 0..<factor {
                    for dx in 0..<factor { sum += Int(plane[(region.y0 + y * factor + dy) * width + region.x0 + x * factor + dx]) }
                }
                let area = factor * factor
                out[y * ow + x] = UInt8((sum + area / 2) / area)
            }
        }
        return out
    }

    @Test("matches the exact rounded mean, including all-white blocks", arguments: [1, 2, 3, 4, 5, 7, 8, 13, 64, 65])
    func exact(factor: Int) {
        let width = 3 * factor + 37, height = 2 * factor + 5
        var generator = SeededGenerator(seed: 12345)
        var plane = (0..<(width * height)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        for i in 0..<(factor * width) where i % width < factor { plane[i] = 255 }  // one saturated block
        let region = PixelRect(x0: 1, y0: 1, x1: width, y1: height)
        let (ow, oh) = Downsample.outputSize(of: region, factor: factor)
        var out = [UInt8](repeating: 0, count: ow * oh)
        plane.withUnsafeBufferPointer { p in
            out.withUnsafeMutableBufferPointer { Downsample.boxAverage(GrayImage(pixels: p, width: width, height: height), region: region, factor: factor, into: $0) }
        }
        #expect(out == Self.expected(plane, width: width, region: region, factor: factor))
        let whole = PixelRect(x0: 0, y0: 0, x1: width, y1: height)
        let (ww, wh) = Downsample.outputSize(of: whole, factor: factor)
        var white = [UInt8](repeating: 0, count: ww * wh)
        let full = [UInt8](repeating: 255, count: width * height)
        full.withUnsafeBufferPointer { p in
            white.withUnsafeMutableBufferPointer { Downsample.boxAverage(GrayImage(pixels: p, width: width, height: height), region: whole, factor: factor, into: $0) }
        }
        #expect(white.allSatisfy { $0 == 255 })
    }

    @Test("the factor: the smallest that brings the length within the limit, 1 for no limit")
    func factor() {
        #expect(Downsample.factor(shrinking: 640, toAtMost: 640) == 1)
        #expect(Downsample.factor(shrinking: 641, toAtMost: 640) == 2)
        #expect(Downsample.factor(shrinking: 1920, toAtMost: 480) == 4)
        #expect(Downsample.factor(shrinking: 1921, toAtMost: 480) == 5)
        #expect(Downsample.factor(shrinking: 100, toAtMost: 320) == 1)
        #expect(Downsample.factor(shrinking: 16384, toAtMost: 0) == 1)
        #expect(Downsample.factor(shrinking: 0, toAtMost: 320) == 1)
    }
}
