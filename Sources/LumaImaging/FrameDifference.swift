/// Summary of a thresholded frame difference over a region.
public struct DifferenceStatistics: Equatable, Sendable {
    /// Pixels whose absolute difference is above the threshold.
    public var changedPixels: Int
    /// Sum of absolute differences over the region.
    public var absoluteDifferenceSum: Int
    /// Pixels in the region.
    public var pixelCount: Int

    public var changedFraction: Double { pixelCount == 0 ? 0 : Double(changedPixels) / Double(pixelCount) }
    public var meanAbsoluteDifference: Double { pixelCount == 0 ? 0 : Double(absoluteDifferenceSum) / Double(pixelCount) }
}

/// Frame differencing kernels: the absolute difference of two luma planes, thresholded into a
/// mask, with the statistics gathered in the same pass. All planes are `width × height`, row-major;
/// only `region` is read and written (the mask is 0 elsewhere only if the caller cleared it).
///
/// Each row is one loop with no branch on the optional difference image (a copy of the loop
/// without it) and 32-bit sums: a shape the compiler turns into vector code, where an optional
/// store inside the loop and 64-bit sums kept it scalar.
public enum FrameDifference {
    /// `difference[i] = |a[i] − b[i]|`, `mask[i] = difference[i] > threshold ? 1 : 0` over `region`.
    /// `difference` may be `nil` when only the mask is wanted.
    public static func compute(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, width: Int, region: PixelRect,
                               threshold: UInt8, mask: UnsafeMutableBufferPointer<UInt8>,
                               difference: UnsafeMutableBufferPointer<UInt8>?) -> DifferenceStatistics {
        precondition(a.count == b.count && mask.count == a.count && (difference?.count ?? a.count) == a.count, "planes must have equal sizes")
        precondition(region.x0 >= 0 && region.y0 >= 0 && region.x1 <= width && region.y1 * width <= a.count, "the region must lie inside the planes")
        var statistics = DifferenceStatistics(changedPixels: 0, absoluteDifferenceSum: 0, pixelCount: region.area)
        guard region.width > 0 else { return statistics }
        let pa = a.baseAddress!, pb = b.baseAddress!, pm = mask.baseAddress!
        for y in region.y0..<region.y1 {
            // Pieces short enough that a 32-bit sum of differences (at most 255 each) cannot overflow.
            var x = region.x0
            while x < region.x1 {
                let start = y * width + x, count = min(region.x1 - x, Int(UInt32.max / 255))
                let sums = if let d = difference?.baseAddress {
                    piece(pa + start, pb + start, threshold: threshold, mask: pm + start, difference: d + start, count: count)
                } else {
                    piece(pa + start, pb + start, threshold: threshold, mask: pm + start, difference: nil, count: count)
                }
                statistics.changedPixels += Int(sums.changed)
                statistics.absoluteDifferenceSum += Int(sums.sum)
                x += count
            }
        }
        return statistics
    }

    /// One stretch of a row; `difference` is a constant `nil` in one of the two inlined copies.
    @inline(__always)
    private static func piece(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, threshold: UInt8, mask: UnsafeMutablePointer<UInt8>,
                              difference: UnsafeMutablePointer<UInt8>?, count: Int) -> (changed: UInt32, sum: UInt32) {
        var changed: UInt32 = 0, sum: UInt32 = 0
        for x in 0..<count {
            let p = a[x], q = b[x]
            let d = p > q ? p &- q : q &- p
            let on: UInt8 = d > threshold ? 1 : 0
            mask[x] = on
            if let difference { difference[x] = d }
            changed &+= UInt32(on)
            sum &+= UInt32(d)
        }
        return (changed, sum)
    }
}
