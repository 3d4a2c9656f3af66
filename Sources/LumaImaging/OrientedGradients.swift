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
    private var histogram: [Float]
    private var energy: [Float]

    /// Unit vectors of the bins' directions, k × 20°.
    private static let directions: [(Float, Float)] = (0..<orientations).map { k in
        let table: [(Float, Float)] = [
            (1, 0), (0.9396926, 0.3420201), (0.7660444, 0.6427876), (0.5, 0.8660254), (0.1736482, 0.9848078),
            (-0.1736482, 0.9848078), (-0.5, 0.8660254), (-0.7660444, 0.6427876), (-0.9396926, 0.3420201),
        ]
        return table[k]
    }

    public init(cellsX: Int, cellsY: Int, cellSize: Int, softBins: Bool = false, signed: Bool = false) {
        precondition(cellsX > 0 && cellsY > 0 && cellSize > 0, "a positive number of cells of a positive size")
        self.cellsX = cellsX
        self.cellsY = cellsY
        self.cellSize = cellSize
        self.softBins = softBins
        self.signed = signed
        histogram = [Float](repeating: 0, count: cellsX * cellsY * 18)
        energy = [Float](repeating: 0, count: cellsX * cellsY)
    }

    /// Computes the features of `plane` (`cellsX × cellSize` wide, `cellsY × cellSize` high) into
    /// `features` (``channels`` × `cellsX × cellsY` values).
    public mutating func compute(_ plane: UnsafeBufferPointer<Float>, into features: UnsafeMutableBufferPointer<Float>) {
        let w = cellsX * cellSize, h = cellsY * cellSize
        let cells = cellsX * cellsY
        precondition(plane.count >= w * h && features.count >= channelCount * cells, "plane and features sizes")
        let p = plane.baseAddress!
        let out = features.baseAddress!
        let bins = Self.orientations
        let hb = histBins
        let soft = softBins, sgn = signed
        let nch = channelCount
        histogram.withUnsafeMutableBufferPointer { hist in
            energy.withUnsafeMutableBufferPointer { e in
                Self.directions.withUnsafeBufferPointer { dirs in
                    hist.update(repeating: 0)
                    let brightness = out + (nch - 1) * cells
                    for c in 0..<cells { brightness[c] = 0 }
                    for y in 0..<h {
                        let up = p + max(y - 1, 0) * w, down = p + min(y + 1, h - 1) * w, row = p + y * w
                        let cellRow = (y / cellSize) * cellsX
                        for x in 0..<w {
                            var gx = row[min(x + 1, w - 1)] - row[max(x - 1, 0)]
                            var gy = down[x] - up[x]
                            let cell = cellRow + x / cellSize
                            brightness[cell] += row[x]
                            let magnitude = (gx * gx + gy * gy).squareRoot()
                            guard magnitude > 0 else { continue }
                            var best = 0
                            var bestDot: Float = -1
                            var bestSigned: Float = 0
                            for k in 0..<bins {
                                let sd = dirs[k].0 * gx + dirs[k].1 * gy
                                let d = abs(sd)
                                if d > bestDot { bestDot = d; best = k; bestSigned = sd }
                            }
                            // Turn g to the nearest unsigned bin's side (signed: the opposite bin if it was not).
                            var bin = best
                            if bestSigned < 0 { gx = -gx; gy = -gy; if sgn { bin += 9 } }
                            if !soft {
                                hist[cell * hb + bin] += magnitude
                                continue
                            }
                            let d = dirs[best]
                            let cr = d.0 * gy - d.1 * gx
                            let nb = cr > 0 ? best + 1 : best + bins - 1
                            let dn = dirs[nb % bins]
                            let a = abs(cr), b = abs(dn.0 * gy - dn.1 * gx)
                            let wn = a + b > 0 ? a / (a + b) : 0
                            // Neighbour bin index (signed: continue around the circle).
                            let nbin: Int
                            if sgn {
                                nbin = cr > 0 ? (bin + 1) % 18 : (bin + 17) % 18
                            } else {
                                nbin = nb % bins
                            }
                            hist[cell * hb + bin] += magnitude * (1 - wn)
                            hist[cell * hb + nbin] += magnitude * wn
                        }
                    }
                    for c in 0..<cells {
                        var sum: Float = 0
                        for k in 0..<bins {
                            let v = sgn ? hist[c * hb + k] + hist[c * hb + k + 9] : hist[c * hb + k]
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
                                for k in 0..<18 { out[k * cells + c] = min(hist[c * hb + k] * scale, 0.2) }
                                for k in 0..<9 { out[(18 + k) * cells + c] = min((hist[c * hb + k] + hist[c * hb + k + 9]) * scale, 0.2) }
                            } else {
                                for k in 0..<bins { out[k * cells + c] = min(hist[c * hb + k] * scale, 0.2) }
                            }
                            brightness[c] = brightness[c] / (area * 255) - 0.5
                        }
                    }
                }
            }
        }
    }
}
