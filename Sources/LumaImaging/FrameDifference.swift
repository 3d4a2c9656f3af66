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
/// Each row is worked 16 pixels at a time: the difference as `max − min`, the mask as a lane
/// comparison, and both sums in lane counters that are folded into integers before they could
/// overflow; the few pixels left at a row's end are worked one by one.
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
        let pd = difference?.baseAddress
        for y in region.y0..<region.y1 {
            let start = y * width + region.x0
            let row = Row(a: pa + start, b: pb + start, mask: pm + start, difference: pd.map { $0 + start }, count: region.width)
            // Two copies of the loop, so the one without a difference image stores nothing more.
            let sums = pd == nil ? row.compute(threshold: threshold, keepDifference: false) : row.compute(threshold: threshold, keepDifference: true)
            statistics.changedPixels += sums.changed
            statistics.absoluteDifferenceSum += sums.sum
        }
        return statistics
    }

    /// One row's planes from the region's left edge, `count` pixels long.
    private struct Row {
        let a: UnsafePointer<UInt8>, b: UnsafePointer<UInt8>
        let mask: UnsafeMutablePointer<UInt8>, difference: UnsafeMutablePointer<UInt8>?
        let count: Int

        typealias Lanes = SIMD16<UInt8>
        /// Chunks a lane counter takes before it is folded: 255 × 255 fits 16 bits, 255 × 1 fits 8.
        static let chunksPerFold = 255

        @inline(__always)
        func compute(threshold: UInt8, keepDifference: Bool) -> (changed: Int, sum: Int) {
            let lanes = Lanes.scalarCount
            let limit = Lanes(repeating: threshold), one = Lanes(repeating: 1)
            var changed = 0, sum = 0, x = 0
            while x + lanes <= count {
                var changedLanes = Lanes.zero
                var sumLanes = SIMD16<UInt16>.zero
                var chunks = 0
                while chunks < Self.chunksPerFold && x + lanes <= count {
                    let va = UnsafeRawPointer(a + x).loadUnaligned(as: Lanes.self)
                    let vb = UnsafeRawPointer(b + x).loadUnaligned(as: Lanes.self)
                    let d = pointwiseMax(va, vb) &- pointwiseMin(va, vb)
                    let on = Lanes.zero.replacing(with: one, where: d .> limit)
                    UnsafeMutableRawPointer(mask + x).storeBytes(of: on, as: Lanes.self)
                    if keepDifference { UnsafeMutableRawPointer(difference! + x).storeBytes(of: d, as: Lanes.self) }
                    changedLanes &+= on
                    sumLanes &+= SIMD16<UInt16>(truncatingIfNeeded: d)
                    chunks += 1
                    x += lanes
                }
                changed += Int(SIMD16<UInt16>(truncatingIfNeeded: changedLanes).wrappedSum())
                sum += Int(SIMD16<UInt32>(truncatingIfNeeded: sumLanes).wrappedSum())
            }
            while x < count {
                let d = a[x] > b[x] ? a[x] &- b[x] : b[x] &- a[x]
                let on: UInt8 = d > threshold ? 1 : 0
                mask[x] = on
                if keepDifference { difference![x] = d }
                changed += Int(on)
                sum += Int(d)
                x += 1
            }
            return (changed, sum)
        }
    }
}
