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
            func horizontal(_ y: Int) {
                let out = base + (y % 3) * width
                let row = d + y * width
                if width == 1 { out[0] = UInt16(row[0]); return }
                out[0] = UInt16(row[0]) &+ UInt16(row[1])
                if width > 2 {
                    for x in 1..<(width - 1) {
                        out[x] = UInt16(row[x - 1]) &+ UInt16(row[x]) &+ UInt16(row[x + 1])
                    }
                }
                out[width - 1] = UInt16(row[width - 2]) &+ UInt16(row[width - 1])
            }
            var set = 0
            horizontal(0)
            if height > 1 { horizontal(1) }
            for y in 0..<height {
                let here = base + (y % 3) * width
                let out = m + y * width
                var rowSet = 0
                // The rows above and below, where they exist; the missing ones count as 0.
                switch (y > 0, y + 1 < height) {
                case (true, true):
                    let above = base + ((y + 2) % 3) * width, below = base + ((y + 1) % 3) * width
                    for x in 0..<width {
                        let on: UInt8 = above[x] &+ here[x] &+ below[x] > limit ? 1 : 0
                        out[x] = on
                        rowSet &+= Int(on)
                    }
                case (false, true):
                    let below = base + ((y + 1) % 3) * width
                    for x in 0..<width {
                        let on: UInt8 = here[x] &+ below[x] > limit ? 1 : 0
                        out[x] = on
                        rowSet &+= Int(on)
                    }
                case (true, false):
                    let above = base + ((y + 2) % 3) * width
                    for x in 0..<width {
                        let on: UInt8 = above[x] &+ here[x] > limit ? 1 : 0
                        out[x] = on
                        rowSet &+= Int(on)
                    }
                case (false, false):
                    for x in 0..<width {
                        let on: UInt8 = here[x] > limit ? 1 : 0
                        out[x] = on
                        rowSet &+= Int(on)
                    }
                }
                set += rowSet
                // Row y + 2 replaces row y − 1 in the ring, after row y is done with it.
                if y + 2 < height { horizontal(y + 2) }
            }
            return set
        }
    }
}
