/// Thresholds the 3×3 neighbourhood sum of a difference image into a mask: a pixel is set when
/// the nine differences around it add up to more than `threshold`.
///
/// Summing before thresholding is what lets faint objects through: for an object at least a
/// pixel or two across, the sum of nine pixels grows nine times while independent noise grows
/// three times, so the threshold can sit well above the noise and well below the object. The
/// mask is the object grown by about a pixel on every side, evenly, so its centroid stays put.
/// Pixels outside the plane count as 0.
///
/// Keeps three rows of horizontal sums between calls; one instance per thread.
public struct BoxThreshold {
    private var rows: [UInt16] = []

    public init() {}

    /// Writes `mask[i] = 1` where the 3×3 sum of `difference` around pixel `i` exceeds
    /// `threshold`, else 0, for a `width × height` plane. Returns the number of set pixels.
    @discardableResult
    public mutating func apply(_ difference: UnsafeBufferPointer<UInt8>, width: Int, height: Int, threshold: Int,
                               mask: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let n = width * height
        precondition(difference.count >= n && mask.count >= n, "planes hold width × height bytes")
        guard n > 0 else { return 0 }
        if rows.count < 3 * width { rows = [UInt16](repeating: 0, count: 3 * width) }
        let limit = UInt16(clamping: max(threshold, 0))
        let d = difference.baseAddress!, m = mask.baseAddress!
        return rows.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            // Horizontal sums of row y go to slot y % 3.
            func horizontal(_ y: Int) { Self.horizontalSums(of: d + y * width, into: base + (y % 3) * width, width: width) }
            var set = 0
            horizontal(0)
            if height > 1 { horizontal(1) }
            for y in 0..<height {
                let here = base + (y % 3) * width
                let above = base + ((y + 2) % 3) * width, below = base + ((y + 1) % 3) * width
                let out = m + y * width
                // The rows above and below, where they exist; the missing ones count as 0. Each
                // case is its own copy of the row loop, with no test per pixel.
                switch (y > 0, y + 1 < height) {
                case (true, true): set += Self.threshold(above: above, here, below: below, width: width, limit: limit, into: out)
                case (false, true): set += Self.threshold(above: nil, here, below: below, width: width, limit: limit, into: out)
                case (true, false): set += Self.threshold(above: above, here, below: nil, width: width, limit: limit, into: out)
                case (false, false): set += Self.threshold(above: nil, here, below: nil, width: width, limit: limit, into: out)
                }
                // Row y + 2 replaces row y − 1 in the ring, after row y is done with it.
                if y + 2 < height { horizontal(y + 2) }
            }
            return set
        }
    }

    /// `out[x]` = the sum of `row[x − 1…x + 1]` (what of it lies in the row).
    private static func horizontalSums(of row: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<UInt16>, width: Int) {
        if width == 1 { out[0] = UInt16(row[0]); return }
        out[0] = UInt16(row[0]) &+ UInt16(row[1])
        if width > 2 {
            for x in 1..<(width - 1) {
                out[x] = UInt16(row[x - 1]) &+ UInt16(row[x]) &+ UInt16(row[x + 1])
            }
        }
        out[width - 1] = UInt16(row[width - 2]) &+ UInt16(row[width - 1])
    }

    /// One row of the mask: 1 where the horizontal sums of the row, and of the rows above and
    /// below when given, add up to more than `limit`. Returns the set pixels.
    @inline(__always)
    private static func threshold(above: UnsafePointer<UInt16>?, _ here: UnsafePointer<UInt16>, below: UnsafePointer<UInt16>?,
                                  width: Int, limit: UInt16, into out: UnsafeMutablePointer<UInt8>) -> Int {
        var rowSet = 0
        for x in 0..<width {
            var sum = here[x]
            if let above { sum &+= above[x] }
            if let below { sum &+= below[x] }
            let on: UInt8 = sum > limit ? 1 : 0
            out[x] = on
            rowSet &+= Int(on)
        }
        return rowSet
    }
}
