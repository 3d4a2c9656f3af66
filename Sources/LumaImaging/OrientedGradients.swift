/// Histograms of oriented gradients per cell: the appearance features correlation-filter trackers
/// (KCF, DSST) use instead of raw pixels, because they describe shape and texture, not brightness.
///
/// For a plane of `cellsX × cellSize` by `cellsY × cellSize` values (a patch from
/// ``PatchSampler``), each pixel's gradient (central differences) votes its magnitude into the one
/// of ``orientations`` unsigned orientation bins (0…180°) its direction is closest to, in its
/// cell (or shares it between the two nearest, and uses 18 signed bins as well: see ``softBins``,
/// ``signed``). Each cell's histogram is then divided by the gradient energy of the 3×3 cells around it
/// (contrast normalisation) and clipped at 0.2. A last channel holds the cell's mean brightness,
/// scaled to −0.5…0.5.
///
/// Channels are planes of `cellsX × cellsY`, one after another: ``channelCount`` of them (``channels``
/// with the default, unsigned bins). Only
/// arithmetic and square roots are used, so features are bit-identical on every machine.
public struct OrientedGradients {
    /// Unsigned orientation bins.
    public static let orientations = 9
    /// Orientation bins plus the brightness channel.
    public static let channels = orientations + 1

    public let cellsX: Int
    public let cellsY: Int
    public let cellSize: Int
    /// Each gradient's magnitude is shared between the two bins its direction lies between
    /// (in proportion to the sines of its angles to them) instead of all going to the nearest.
    public let softBins: Bool
    /// 18 signed bins (0…360°) as well as the 9 unsigned ones, as in Felzenszwalb's HOG.
    public let signed: Bool
    /// Channels of this configuration: 9 orientation bins (27 when `signed`) plus brightness.
    public var channelCount: Int { (signed ? 27 : 9) + 1 }
    private var histBins: Int { signed ? 18 : 9 }
    /// Working memory, allocated once: the cells' histograms (18 bins each) and gradient energies,
    /// then seven rows of per-pixel values padded to whole ``Lanes`` (see ``compute(_:into:)``).
    private var scratch: [Float]
    private let paddedWidth: Int

    /// Pixels binned at once: one lane per pixel, each lane doing the IEEE operations one pixel
    /// alone would get, so the features do not depend on the lane width. Bin numbers are lanes of
    /// floats too (small whole numbers, exact), which vector units select faster than integers.
    private typealias Lanes = SIMD8<Float>

    /// Cosines and sines of the bins' directions, k × 20°.
    private static let cosines: [Float] = [1, 0.9396926, 0.7660444, 0.5, 0.1736482, -0.1736482, -0.5, -0.7660444, -0.9396926]
    private static let sines: [Float] = [0, 0.3420201, 0.6427876, 0.8660254, 0.9848078, 0.9848078, 0.8660254, 0.6427876, 0.3420201]

    public init(cellsX: Int, cellsY: Int, cellSize: Int, softBins: Bool = false, signed: Bool = false) {
        precondition(cellsX > 0 && cellsY > 0 && cellSize > 0, "a positive number of cells of a positive size")
        self.cellsX = cellsX
        self.cellsY = cellsY
        self.cellSize = cellSize
        self.softBins = softBins
        self.signed = signed
        paddedWidth = (cellsX * cellSize + Lanes.scalarCount - 1) / Lanes.scalarCount * Lanes.scalarCount
        scratch = [Float](repeating: 0, count: cellsX * cellsY * 19 + 7 * paddedWidth)
    }

    /// Computes the features of `plane` (`cellsX × cellSize` wide, `cellsY × cellSize` high) into
    /// `features` (``channels`` × `cellsX × cellsY` values).
    ///
    /// Row by row: the central differences, then every pixel's bins and shares `Lanes` pixels at
    /// a time, then the votes into the cells' histograms in pixel order (each bin adds up its votes
    /// in the same order whatever the lane width).
    public mutating func compute(_ plane: UnsafeBufferPointer<Float>, into features: UnsafeMutableBufferPointer<Float>) {
        let w = cellsX * cellSize, h = cellsY * cellSize
        let cells = cellsX * cellsY
        precondition(plane.count >= w * h && features.count >= channelCount * cells, "plane and features sizes")
        let p = plane.baseAddress!
        let out = features.baseAddress!
        let hb = histBins
        let soft = softBins, sgn = signed
        let nch = channelCount
        let k = cellSize
        let (cellsX, cellsY, cellSize, padded) = (cellsX, cellsY, cellSize, paddedWidth)
        scratch.withUnsafeMutableBufferPointer { scratch in
            let hist = scratch.baseAddress!, e = hist + cells * 18
            // One row: the central differences, then per pixel its gradient magnitude, bin and
            // neighbour bin (whole numbers), and the shares of the magnitude they get.
            let gxs = e + cells, gys = gxs + padded, magnitudes = gys + padded
            let binOf = magnitudes + padded, neighbourOf = binOf + padded
            let shares = neighbourOf + padded, neighbourShares = shares + padded
            hist.update(repeating: 0, count: cells * hb)
            let brightness = out + (nch - 1) * cells
            brightness.update(repeating: 0, count: cells)
            for y in 0..<h {
                let up = p + max(y - 1, 0) * w, down = p + min(y + 1, h - 1) * w, row = p + y * w
                // Central differences, one-sided at the edges.
                gxs[0] = row[min(1, w - 1)] - row[0]
                if w > 1 {
                    for x in 1..<(w - 1) { gxs[x] = row[x + 1] - row[x - 1] }
                    gxs[w - 1] = row[w - 1] - row[w - 2]
                }
                for x in 0..<w { gys[x] = down[x] - up[x] }
                var x = 0
                while x < w {
                    Self.bin(gxs + x, gys + x, soft: soft, signed: sgn, magnitudes: magnitudes + x, bins: binOf + x,
                             neighbours: neighbourOf + x, shares: shares + x, neighbourShares: neighbourShares + x)
                    x += Lanes.scalarCount
                }
                // The votes and the brightness sums, in pixel order.
                let cellRow = (y / k) * cellsX
                for cx in 0..<cellsX {
                    let cell = cellRow + cx
                    let votes = hist + cell * hb
                    var sum = brightness[cell]
                    for x in (cx * k)..<((cx + 1) * k) { sum += row[x] }
                    if soft {
                        for x in (cx * k)..<((cx + 1) * k) where magnitudes[x] > 0 {
                            votes[Int(binOf[x])] += shares[x]
                            votes[Int(neighbourOf[x])] += neighbourShares[x]
                        }
                    } else {
                        for x in (cx * k)..<((cx + 1) * k) where magnitudes[x] > 0 { votes[Int(binOf[x])] += magnitudes[x] }
                    }
                    brightness[cell] = sum
                }
            }
            Self.normalize(hist, energies: e, into: out, brightness: brightness, cellsX: cellsX, cellsY: cellsY, cellSize: cellSize,
                           histBins: hb, signed: sgn)
        }
    }

    /// The features of every cell from its histogram: each bin divided by the root of the mean
    /// energy (sum of squared bins) of the cell's 3 × 3 block and capped at 0.2 — signed features
    /// have the 18 signed bins and their 9 folded sums — and the brightness sum made a mean around 0.
    private static func normalize(_ hist: UnsafeMutablePointer<Float>, energies e: UnsafeMutablePointer<Float>, into out: UnsafeMutablePointer<Float>,
                                  brightness: UnsafeMutablePointer<Float>, cellsX: Int, cellsY: Int, cellSize: Int, histBins hb: Int,
                                  signed sgn: Bool) {
        let cells = cellsX * cellsY, bins = orientations
        for c in 0..<cells {
            var sum: Float = 0
            for b in 0..<bins {
                let v = sgn ? hist[c * hb + b] + hist[c * hb + b + 9] : hist[c * hb + b]
                sum += v * v
            }
            e[c] = sum
        }
        let area = Float(cellSize * cellSize)
        for cy in 0..<cellsY {
            for cx in 0..<cellsX {
                var local: Float = 0
                for ny in max(cy - 1, 0)...min(cy + 1, cellsY - 1) {
                    for nx in max(cx - 1, 0)...min(cx + 1, cellsX - 1) { local += e[ny * cellsX + nx] }
                }
                let c = cy * cellsX + cx
                let scale = 1 / (local / 9 + 1e-4 * area * area).squareRoot()
                if sgn {
                    for b in 0..<18 { out[b * cells + c] = min(hist[c * hb + b] * scale, 0.2) }
                    for b in 0..<9 { out[(18 + b) * cells + c] = min((hist[c * hb + b] + hist[c * hb + b + 9]) * scale, 0.2) }
                } else {
                    for b in 0..<bins { out[b * cells + c] = min(hist[c * hb + b] * scale, 0.2) }
                }
                brightness[c] = brightness[c] / (area * 255) - 0.5
            }
        }
    }

    /// Bins ``Lanes`` pixels from their gradients: each one's magnitude and the bin whose direction
    /// is nearest its own (the first of equals, in bin order; signed: + 9 when the gradient points
    /// against that direction), and for soft bins the neighbour bin on the gradient's side of it
    /// and the shares of the magnitude for both (in proportion to the sines of the gradient's
    /// angles to the two directions).
    @inline(__always)
    private static func bin(_ gxAt: UnsafeMutablePointer<Float>, _ gyAt: UnsafeMutablePointer<Float>, soft: Bool, signed: Bool,
                            magnitudes: UnsafeMutablePointer<Float>, bins: UnsafeMutablePointer<Float>,
                            neighbours: UnsafeMutablePointer<Float>, shares: UnsafeMutablePointer<Float>,
                            neighbourShares: UnsafeMutablePointer<Float>) {
        var gx = UnsafeRawPointer(gxAt).loadUnaligned(as: Lanes.self)
        var gy = UnsafeRawPointer(gyAt).loadUnaligned(as: Lanes.self)
        let magnitude = (gx * gx + gy * gy).squareRoot()
        var bestDot = Lanes(repeating: -1)
        var best = Lanes(repeating: 0)
        var bestSigned = Lanes(repeating: 0)
        // The best direction and the ones after and before it (cyclically).
        var (bestC, bestS) = (Lanes(repeating: 0), Lanes(repeating: 0))
        var (nextC, nextS) = (Lanes(repeating: 0), Lanes(repeating: 0))
        var (previousC, previousS) = (Lanes(repeating: 0), Lanes(repeating: 0))
        for k in 0..<orientations {
            let (c, s) = (cosines[k], sines[k])
            let sd = c * gx + s * gy
            let d = sd.replacing(with: -sd, where: sd .< 0)
            let better = d .> bestDot
            bestDot.replace(with: d, where: better)
            best.replace(with: Float(k), where: better)
            bestSigned.replace(with: sd, where: better)
            bestC.replace(with: c, where: better)
            bestS.replace(with: s, where: better)
            let next = (k + 1) % orientations, previous = (k + orientations - 1) % orientations
            nextC.replace(with: cosines[next], where: better)
            nextS.replace(with: sines[next], where: better)
            previousC.replace(with: cosines[previous], where: better)
            previousS.replace(with: sines[previous], where: better)
        }
        // Turn g to the nearest unsigned bin's side (signed: the opposite bin if it was not).
        let against = bestSigned .< 0
        gx.replace(with: -gx, where: against)
        gy.replace(with: -gy, where: against)
        var bin = best
        if signed { bin.replace(with: best + 9, where: against) }
        UnsafeMutableRawPointer(magnitudes).storeBytes(of: magnitude, as: Lanes.self)
        UnsafeMutableRawPointer(bins).storeBytes(of: bin, as: Lanes.self)
        guard soft else { return }
        let cr = bestC * gy - bestS * gx
        let ahead = cr .> 0
        let neighbourC = previousC.replacing(with: nextC, where: ahead)
        let neighbourS = previousS.replacing(with: nextS, where: ahead)
        let a = cr.replacing(with: -cr, where: cr .< 0)
        let bn = neighbourC * gy - neighbourS * gx
        let b = bn.replacing(with: -bn, where: bn .< 0)
        let ab = a + b
        let wn = (a / ab).replacing(with: 0, where: .!(ab .> 0))
        // Neighbour bin index (signed: continue around the circle of 18).
        let (after, before) = signed ? (bin + 1, bin + 17) : (best + 1, best + 8)
        let turn = Float(signed ? 18 : orientations)
        let neighbour = before.replacing(with: before - turn, where: before .>= turn)
            .replacing(with: after.replacing(with: 0, where: after .== turn), where: ahead)
        UnsafeMutableRawPointer(neighbours).storeBytes(of: neighbour, as: Lanes.self)
        UnsafeMutableRawPointer(shares).storeBytes(of: magnitude * (1 - wn), as: Lanes.self)
        UnsafeMutableRawPointer(neighbourShares).storeBytes(of: magnitude * wn, as: Lanes.self)
    }
}
