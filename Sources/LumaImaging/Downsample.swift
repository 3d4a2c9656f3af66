/// Shrinks a region of a luma plane by an integer factor, averaging each `factor × factor` block
/// into one pixel (rounded to nearest).
///
/// Averaging, not skipping, is the point: a block mean keeps a small object's whole signal and
/// divides independent sensor noise by `factor`, so a ball that is still a pixel or two across
/// after shrinking remains as visible as it was. Columns and rows of the region beyond the last
/// whole block are left out (at most `factor − 1` of each).
public enum Downsample {
    /// The factor that shrinks `length` pixels to at most `limit`: the smallest whole one,
    /// ⌈length / limit⌉, and at least 1. A `limit` of 0 (or less) never shrinks. Analyzers pass the
    /// longer side of what they process and their processing size (the trajectory analyzer's
    /// `maximumProcessingDimension`, the rectangle detector's 480 pixels).
    public static func factor(shrinking length: Int, toAtMost limit: Int) -> Int {
        guard limit > 0 else { return 1 }
        return max(1, (length + limit - 1) / limit)
    }

    /// Size of the output for `region` shrunk by `factor`: `(region.width / factor, region.height / factor)`.
    public static func outputSize(of region: PixelRect, factor: Int) -> (width: Int, height: Int) {
        precondition(factor >= 1, "the factor is at least 1")
        return (region.width / factor, region.height / factor)
    }

    /// Writes the block means of `region` of `image` into `destination`, row-major with
    /// `outputSize(of:factor:).width` bytes a row.
    public static func boxAverage(_ image: GrayImage, region: PixelRect, factor: Int,
                                  into destination: UnsafeMutableBufferPointer<UInt8>) {
        let (source, sourceWidth) = (image.pixels, image.width)
        let (ow, oh) = outputSize(of: region, factor: factor)
        precondition(region.x0 >= 0 && region.y0 >= 0 && region.x1 <= sourceWidth && region.y1 <= image.height,
                     "the region lies inside the source plane")
        precondition(destination.count >= ow * oh, "the destination holds the whole output")
        guard ow > 0, oh > 0, let src = source.baseAddress, let dst = destination.baseAddress else { return }
        switch factor {
        case 1:
            for y in 0..<oh {
                (dst + y * ow).update(from: src + (region.y0 + y) * sourceWidth + region.x0, count: ow)
            }
        case 2: halve(src, sourceWidth: sourceWidth, region: region, into: dst, width: ow, height: oh)
        default: blockMeans(src, sourceWidth: sourceWidth, region: region, factor: factor, into: dst, width: ow, height: oh)
        }
    }

    /// The means of 2×2 blocks of `region`, `width` × `height` of them.
    private static func halve(_ src: UnsafePointer<UInt8>, sourceWidth: Int, region: PixelRect,
                              into dst: UnsafeMutablePointer<UInt8>, width ow: Int, height oh: Int) {
        for y in 0..<oh {
            let r0 = UnsafeRawPointer(src + (region.y0 + 2 * y) * sourceWidth + region.x0)
            let r1 = r0 + sourceWidth
            let out = dst + y * ow
            // Each block's two columns read as one little-endian 16-bit word per row (the low
            // byte the left pixel): a loop the compiler vectorizes, with no lane shuffles.
            for x in 0..<ow {
                let a = UInt16(littleEndian: r0.loadUnaligned(fromByteOffset: 2 &* x, as: UInt16.self))
                let b = UInt16(littleEndian: r1.loadUnaligned(fromByteOffset: 2 &* x, as: UInt16.self))
                let sum = (a & 0xFF) &+ (a &>> 8) &+ (b & 0xFF) &+ (b &>> 8)
                out[x] = UInt8(truncatingIfNeeded: (sum &+ 2) &>> 2)
            }
        }
    }

    /// The means of `factor` × `factor` blocks of `region`, `width` × `height` of them: column
    /// sums of `factor` rows, then sums of `factor` columns, so each source byte is read once.
    private static func blockMeans(_ src: UnsafePointer<UInt8>, sourceWidth: Int, region: PixelRect, factor: Int,
                                   into dst: UnsafeMutablePointer<UInt8>, width ow: Int, height oh: Int) {
        let area = UInt32(factor * factor)
        let half = area / 2
        // Dividing by the block area is a multiplication by its reciprocal in 2^-40 units,
        // exact for these sums (below 2^21 for factors up to 64; Granlund–Montgomery); larger
        // factors divide.
        let reciprocal = factor <= 64 ? ((UInt64(1) << 40) + UInt64(area) - 1) / UInt64(area) : 0
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: ow * factor) { columns in
            let sums = columns.baseAddress!
            for y in 0..<oh {
                let top = src + (region.y0 + factor * y) * sourceWidth + region.x0
                for x in 0..<(ow * factor) { sums[x] = UInt32(top[x]) }
                for k in 1..<factor {
                    let row = top + k * sourceWidth
                    for x in 0..<(ow * factor) { sums[x] &+= UInt32(row[x]) }
                }
                let out = dst + y * ow
                for x in 0..<ow {
                    var s: UInt32 = 0
                    for k in 0..<factor { s &+= sums[x * factor + k] }
                    out[x] = reciprocal != 0
                        ? UInt8(truncatingIfNeeded: (UInt64(s &+ half) &* reciprocal) &>> 40)
                        : UInt8(truncatingIfNeeded: (s &+ half) / area)
                }
            }
        }
    }
}
