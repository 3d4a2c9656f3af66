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
public enum FrameDifference {
    /// `difference[i] = |a[i] − b[i]|`, `mask[i] = difference[i] > threshold ? 1 : 0` over `region`.
    /// `difference` may be `nil` when only the mask is wanted.
    public static func compute(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, width: Int, region: PixelRect,
                               threshold: UInt8, mask: UnsafeMutableBufferPointer<UInt8>,
                               difference: UnsafeMutableBufferPointer<UInt8>?) -> DifferenceStatistics {
        precondition(a.count == b.count && mask.count == a.count && (difference?.count ?? a.count) == a.count, "planes must have equal sizes")
        var changed = 0
        var sum = 0
        let pa = a.baseAddress!, pb = b.baseAddress!, pm = mask.baseAddress!
        let pd = difference?.baseAddress
        for y in region.y0..<region.y1 {
            let row = y * width
            var rowChanged = 0
            var rowSum = 0
            for x in (row + region.x0)..<(row + region.x1) {
                let d = pa[x] > pb[x] ? pa[x] &- pb[x] : pb[x] &- pa[x]
                let on: UInt8 = d > threshold ? 1 : 0
                pm[x] = on
                pd?[x] = d
                rowChanged &+= Int(on)
                rowSum &+= Int(d)
            }
            changed += rowChanged
            sum += rowSum
        }
        return DifferenceStatistics(changedPixels: changed, absoluteDifferenceSum: sum, pixelCount: region.area)
    }
}
