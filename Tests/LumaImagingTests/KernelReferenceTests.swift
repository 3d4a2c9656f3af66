import LumaImaging
import Testing

/// The fast kernels against plain pixel-by-pixel references, on many random planes whose widths
/// and regions do not line up with the kernels' lane or word sizes.
@Suite("Differencing kernels agree with plain references")
struct KernelReferenceTests {
    /// A small deterministic generator (xorshift64*), so the cases are the same on every run.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state >> 12; state ^= state << 25; state ^= state >> 27
            return state &* 2_685_821_657_736_338_717
        }
        mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
    }

    /// A random mask of `width × height` with about `percent` % of its pixels set, in clumps and
    /// single pixels, set bytes any non-zero value.
    static func randomMask(_ g: inout Generator, width: Int, height: Int, percent: Int) -> [UInt8] {
        var mask = [UInt8](repeating: 0, count: width * height)
        for i in mask.indices where g.int(0...99) < percent { mask[i] = UInt8(g.int(1...255)) }
        for _ in 0..<g.int(0...3) {  // a few solid blocks, so long runs and joins appear too
            let x0 = g.int(0...width - 1), y0 = g.int(0...height - 1)
            for y in y0..<min(height, y0 + g.int(1...12)) { for x in x0..<min(width, x0 + g.int(1...40)) { mask[y * width + x] = 1 } }
        }
        return mask
    }

    static func randomRegion(_ g: inout Generator, width: Int, height: Int) -> PixelRect {
        let x0 = g.int(0...width - 1), y0 = g.int(0...height - 1)
        return PixelRect(x0: x0, y0: y0, x1: g.int(x0 + 1...width), y1: g.int(y0 + 1...height))
    }

    /// Components by flood fill, pixel by pixel, numbered in raster order of their first pixel.
    static func floodFill(_ mask: [UInt8], width: Int, region: PixelRect) -> [Component] {
        var seen = [Bool](repeating: false, count: mask.count)
        var components: [Component] = []
        for y in region.y0..<region.y1 { for x in region.x0..<region.x1 where mask[y * width + x] != 0 && !seen[y * width + x] {
            var c = Component(area: 0, minX: x, minY: y, maxX: x, maxY: y, sumX: 0, sumY: 0)
            var stack = [(x, y)]
            seen[y * width + x] = true
            while let (px, py) = stack.popLast() {
                c.area += 1; c.sumX += px; c.sumY += py
                c.minX = min(c.minX, px); c.maxX = max(c.maxX, px); c.minY = min(c.minY, py); c.maxY = max(c.maxY, py)
                for ny in py - 1...py + 1 { for nx in px - 1...px + 1
                    where nx >= region.x0 && nx < region.x1 && ny >= region.y0 && ny < region.y1
                        && mask[ny * width + nx] != 0 && !seen[ny * width + nx] {
                    seen[ny * width + nx] = true
                    stack.append((nx, ny))
                } }
            }
            components.append(c)
        } }
        return components
    }

    @Test("labelling by runs finds exactly the flood fill's components, in its order, and its runs cover them")
    func labelling() {
        var g = Generator(state: 0x9E37_79B9_7F4A_7C15)
        var labeler = ConnectedComponents()  // one labeler throughout: buffers kept between calls must not leak
        for case_ in 0..<400 {
            let width = g.int(1...70), height = g.int(1...30)
            let mask = Self.randomMask(&g, width: width, height: height, percent: [0, 2, 10, 35, 70, 100][case_ % 6])
            let region = case_ % 3 == 0 ? PixelRect(width: width, height: height) : Self.randomRegion(&g, width: width, height: height)
            let found = mask.withUnsafeBufferPointer { labeler.label($0, width: width, region: region) }
            let expected = Self.floodFill(mask, width: width, region: region)
            #expect(found == expected, "case \(case_): \(width)×\(height), region \(region)")
            let runPixels = labeler.labeledRuns.reduce(into: [Int](repeating: 0, count: found.count)) { $0[$1.component] += $1.end - $1.start }
            #expect(runPixels == found.map(\.area), "case \(case_)")
        }
    }

    @Test("the lane-wise difference equals the pixel-wise one: image, mask and sums, with and without the image")
    func difference() {
        var g = Generator(state: 0xD1B5_4A32_D192_ED03)
        // Widths past 255 chunks of 16 make the lane counters fold mid-row.
        for (case_, width) in [1, 15, 16, 17, 33, 100, 1283, 4200].enumerated() {
            let height = width > 1000 ? 3 : 9
            let a = (0..<width * height).map { _ in UInt8(truncatingIfNeeded: g.next()) }
            // Half the pixels near their counterpart, so the threshold cuts both ways.
            let b = a.map { g.int(0...1) == 0 ? UInt8(truncatingIfNeeded: g.next()) : $0 &+ UInt8(g.int(0...40)) }
            let region = case_ % 2 == 0 ? PixelRect(width: width, height: height) : Self.randomRegion(&g, width: width, height: height)
            let threshold = UInt8(g.int(0...254))
            var expectedMask = [UInt8](repeating: 7, count: a.count), expectedImage = [UInt8](repeating: 7, count: a.count)
            var changed = 0, sum = 0
            for y in region.y0..<region.y1 { for x in region.x0..<region.x1 {
                let i = y * width + x, d = UInt8(abs(Int(a[i]) - Int(b[i])))
                expectedImage[i] = d; expectedMask[i] = d > threshold ? 1 : 0
                changed += d > threshold ? 1 : 0; sum += Int(d)
            } }
            for keepImage in [true, false] {
                var mask = [UInt8](repeating: 7, count: a.count), image = [UInt8](repeating: 7, count: a.count)
                let s = a.withUnsafeBufferPointer { pa in b.withUnsafeBufferPointer { pb in
                    mask.withUnsafeMutableBufferPointer { m in image.withUnsafeMutableBufferPointer { d in
                        FrameDifference.compute(pa, pb, width: width, region: region, threshold: threshold, mask: m, difference: keepImage ? d : nil)
                    } }
                } }
                #expect(s.changedPixels == changed && s.absoluteDifferenceSum == sum && s.pixelCount == region.area, "width \(width)")
                #expect(mask == expectedMask, "width \(width)")
                #expect(image == (keepImage ? expectedImage : [UInt8](repeating: 7, count: a.count)), "width \(width)")
            }
        }
    }

    @Test("the 3×3 box threshold equals summing each pixel's neighbourhood, at every small size and edge")
    func boxThreshold() {
        var g = Generator(state: 0xA076_1D64_78BD_642F)
        var box = BoxThreshold()  // one instance throughout: its row ring is reused across sizes
        for (width, height) in [(1, 1), (1, 5), (5, 1), (2, 2), (3, 7), (17, 4), (64, 9), (33, 33)] {
            let plane = (0..<width * height).map { _ in UInt8(truncatingIfNeeded: g.next() >> 56) }
            for threshold in [0, 300, 1200, 2400] {
                var expected = [UInt8](repeating: 0, count: plane.count)
                for y in 0..<height { for x in 0..<width {
                    var sum = 0
                    for ny in max(y - 1, 0)...min(y + 1, height - 1) { for nx in max(x - 1, 0)...min(x + 1, width - 1) { sum += Int(plane[ny * width + nx]) } }
                    expected[y * width + x] = sum > threshold ? 1 : 0
                } }
                var mask = [UInt8](repeating: 7, count: plane.count)
                let set = plane.withUnsafeBufferPointer { p in mask.withUnsafeMutableBufferPointer { box.apply(p, width: width, height: height, threshold: threshold, mask: $0) } }
                #expect(mask == expected, "\(width)×\(height), threshold \(threshold)")
                #expect(set == expected.reduce(0) { $0 + Int($1) }, "\(width)×\(height), threshold \(threshold)")
            }
        }
    }
}
