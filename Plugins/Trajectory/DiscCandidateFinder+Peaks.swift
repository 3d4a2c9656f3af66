import LumaAnalysis
import LumaImaging

// MARK: - Responses and peaks

extension DiscCandidateFinder {
    /// The centre–surround box pair of radius `r` (octave pixels): inner and outer half-widths.
    static func boxes(radius r: Double) -> (inner: Int, outer: Int) {
        let inner = max(1, Int((0.65 * r).rounded()))
        return (inner, max(inner + 1, Int((1.75 * r).rounded())))
    }

    /// Adds the 3×3 maxima of one octave's best response over its radii to `peaks`. Only pixels
    /// whose own energy reaches the threshold are evaluated (a disc's centre moves).
    mutating func findPeaks(octave: Int, radii: [Int], threshold t: Double) {
        let (w, h) = sizes[octave]
        energy[octave].withUnsafeBufferPointer { table.build($0, width: w, height: h) }
        let boxes = radii.prefix(2).map { Self.boxes(radius: Self.octaveRadii[$0]) }
        let gate = UInt8(clamping: Int((Self.evaluationGate * t).rounded(.up)))
        let minimum = Float(0.5 * t)
        // The first octave's discs are at least two pixels in radius, so their responses are
        // broad: they are evaluated on every other pixel each way, and each maximum found there
        // is then looked for among its eight neighbours (a quarter of the work on the largest plane).
        let step = octave == 0 ? Self.firstOctaveStep : 1
        let gw = (w + step - 1) / step
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 3 * gw) { rows in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 3 * gw) { which in
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: 3 * gw) { strong in
                    rows.initialize(repeating: 0)
                    which.initialize(repeating: 0)
                    strong.initialize(repeating: 0)
                    energy[octave].withUnsafeBufferPointer { e in
                        table.sums.withUnsafeBufferPointer { s in
                            let response = DiscResponse(sums: s.baseAddress!, width: w, height: h, boxes: boxes)
                            var search = PeakRows(response: response, energy: e.baseAddress!, step: step, gate: gate, minimum: minimum,
                                                  rows: rows, which: which, strong: strong)
                            search.forEachPeak { x, y, value, index in addPeak(octave: octave, radius: radii[Int(index)], x: x, y: y, value: value) }
                        }
                    }
                }
            }
        }
    }

    /// Adds the peak of response `value` at pixel (`x`, `y`) of `octave`, found with the octave's
    /// radius number `radius`.
    private mutating func addPeak(octave: Int, radius index: Int, x: Int, y: Int, value: Float) {
        // Compared across scales as `response × √radius`: the shading and texture inside a ball
        // make small discs on its lit cap respond as strongly as the ball, and without the factor
        // they take its place (recall at 10 on the juggling clip: 0.86 without, 0.96 with, 0.80
        // with the radius itself as the factor).
        let scale = Double(1 << octave)
        let radius = Self.octaveRadii[index] * scale
        peaks.append(Peak(octave: octave, x: (Double(x) + 0.5) * scale, y: (Double(y) + 0.5) * scale,
                          radius: radius, response: Double(value) * radius.squareRoot()))
    }
}

/// The best centre–surround response over (at most two) radii at a pixel of one octave's plane,
/// read from the summed-area table of its energy.
struct DiscResponse {
    let sums: UnsafePointer<UInt32>
    let width: Int
    let height: Int
    /// Inner and outer half-widths of each radius's boxes.
    let boxes: [(inner: Int, outer: Int)]
    /// The largest outer half-width: pixels this far from every edge take the fast path.
    let reach: Int
    /// Each box's four corners as offsets from the pixel's own table entry, and the reciprocals
    /// of its areas, for pixels whose boxes lie inside.
    let first: CentreSurround
    let second: CentreSurround?

    init(sums: UnsafePointer<UInt32>, width: Int, height: Int, boxes: [(inner: Int, outer: Int)]) {
        self.sums = sums
        self.width = width
        self.height = height
        self.boxes = boxes
        reach = boxes.map(\.outer).max() ?? 1
        let fast = boxes.map { CentreSurround(inner: $0.inner, outer: $0.outer, stride: width + 1) }
        first = fast[0]
        second = fast.count > 1 ? fast[1] : nil
    }

    /// The best response over the radii at pixel (x, y), and which radius; near an edge the boxes
    /// are cut to the plane.
    @inline(__always)
    func best(_ x: Int, _ y: Int) -> (Float, UInt8) {
        let (w, h, stride) = (width, height, width + 1)
        var best: Float = 0, bestIndex: UInt8 = 0
        if y >= reach && y + reach < h && x >= reach && x + reach < w {
            let i = y * stride + x
            best = first.response(sums, i)
            if let second {
                let r = second.response(sums, i)
                if r > best { best = r; bestIndex = 1 }
            }
            return (best, bestIndex)
        }
        for (j, (a, b)) in boxes.enumerated() {
            let ix0 = max(0, x - a), iy0 = max(0, y - a), ix1 = min(w, x + a + 1), iy1 = min(h, y + a + 1)
            let ox0 = max(0, x - b), oy0 = max(0, y - b), ox1 = min(w, x + b + 1), oy1 = min(h, y + b + 1)
            let inner = SummedArea.sum(sums, stride: stride, x0: ix0, y0: iy0, x1: ix1, y1: iy1)
            let outer = SummedArea.sum(sums, stride: stride, x0: ox0, y0: oy0, x1: ox1, y1: oy1)
            let innerArea = (ix1 - ix0) * (iy1 - iy0), ringArea = (ox1 - ox0) * (oy1 - oy0) - innerArea
            guard ringArea > 0 else { continue }
            let r = Float(inner) / Float(innerArea) - Float(outer &- inner) / Float(ringArea)
            if r > best { best = r; bestIndex = UInt8(j) }
        }
        return (best, bestIndex)
    }
}

/// The search for one octave's peaks, a grid row at a time: the responses of grid rows gy − 1,
/// gy and gy + 1 are kept in a ring of three, and the middle row's maxima are found once the
/// row below it is known. Only the places of a row whose response is worth a peak are searched:
/// each row of the ring keeps the list of them, made while its responses are evaluated.
struct PeakRows {
    let response: DiscResponse
    let energy: UnsafePointer<UInt8>
    /// Pixels between evaluated ones, each way (the grid's spacing: 1, 2, 4 or 8).
    let step: Int
    /// The energy a pixel needs to be evaluated at all.
    let gate: UInt8
    /// The response a peak needs.
    let minimum: Float
    /// The ring: three grid rows of responses, and which radius gave each.
    let rows: UnsafeMutableBufferPointer<Float>
    let which: UnsafeMutableBufferPointer<UInt8>
    /// For each row of the ring, the grid columns whose response reaches ``minimum``, in order
    /// (`strongCount` of them), the only places where a peak may be.
    let strong: UnsafeMutableBufferPointer<Int32>
    var strongCount = SIMD4<Int>.zero
    let gridWidth: Int
    let gridHeight: Int

    init(response: DiscResponse, energy: UnsafePointer<UInt8>, step: Int, gate: UInt8, minimum: Float,
         rows: UnsafeMutableBufferPointer<Float>, which: UnsafeMutableBufferPointer<UInt8>, strong: UnsafeMutableBufferPointer<Int32>) {
        self.response = response
        self.energy = energy
        self.step = step
        self.gate = gate
        self.minimum = minimum
        self.rows = rows
        self.which = which
        self.strong = strong
        precondition(step >= 1 && 8 % step == 0, "the grid's spacing divides the eight pixels skipped at a time")
        gridWidth = (response.width + step - 1) / step
        gridHeight = (response.height + step - 1) / step
    }

    /// Calls `found` with each peak (pixel, response, radius index) in raster order.
    mutating func forEachPeak(_ found: (_ x: Int, _ y: Int, _ value: Float, _ index: UInt8) -> Void) {
        for gy in 0..<gridHeight {
            respond(row: gy)
            if gy >= 1 { collect(row: gy - 1, found) }
        }
        if gridHeight >= 1 { collect(row: gridHeight - 1, found) }
    }

    /// Evaluates grid row `gy` into its slot of the ring, skipping still pixels.
    private mutating func respond(row gy: Int) {
        let (w, gw) = (response.width, gridWidth)
        let slot = (gy % 3) * gw, y = gy * step
        var count = 0
        let out = rows.baseAddress! + slot, outWhich = which.baseAddress! + slot, places = strong.baseAddress! + slot
        out.update(repeating: 0, count: gw)
        outWhich.update(repeating: 0, count: gw)
        let energyRow = UnsafeRawPointer(energy + y * w)
        // Grid column `gx` is pixel `x = gx × step`; both are counted, so nothing is divided.
        let (skipping, cellsPerWord) = (gate <= 128, 8 / step)
        var (x, gx) = (0, 0)
        while x < w {
            // Eight still pixels at a time are skipped: no byte of the word
            // exceeds gate − 1 (the classic "has a byte greater than n" test,
            // valid for n < 128).
            if x & 7 == 0, x &+ 8 <= w, skipping,
               energyRow.loadUnaligned(fromByteOffset: x, as: UInt64.self).hasNoByte(above: gate &- 1) {
                x &+= 8
                gx &+= cellsPerWord
                continue
            }
            if energyRow.load(fromByteOffset: x, as: UInt8.self) >= gate {
                let (best, index) = response.best(x, y)
                out[gx] = best
                outWhich[gx] = index
                if best >= minimum {
                    places[count] = Int32(truncatingIfNeeded: gx)
                    count &+= 1
                }
            }
            x &+= step
            gx &+= 1
        }
        strongCount[gy % 3] = count
    }

    /// The maxima of grid row `gy` against its eight neighbours (the rows above and below are in
    /// the ring), each refined among the pixels the grid skipped.
    private func collect(row gy: Int, _ found: (_ x: Int, _ y: Int, _ value: Float, _ index: UInt8) -> Void) {
        let gw = gridWidth
        let mid = (gy % 3) * gw
        let up = gy > 0 ? ((gy - 1) % 3) * gw : -1, down = gy + 1 < gridHeight ? ((gy + 1) % 3) * gw : -1
        for k in 0..<strongCount[gy % 3] {
            let gx = Int(strong[mid + k])
            let v = rows[mid + gx]
            // Strictly above the neighbours before it in raster order, at least
            // those after: one peak per plateau, always the same one.
            if gx > 0 && rows[mid + gx - 1] >= v { continue }
            if gx + 1 < gw && rows[mid + gx + 1] > v { continue }
            if up >= 0 {
                if rows[up + gx] >= v || (gx > 0 && rows[up + gx - 1] >= v) || (gx + 1 < gw && rows[up + gx + 1] >= v) { continue }
            }
            if down >= 0 {
                if rows[down + gx] > v || (gx > 0 && rows[down + gx - 1] > v) || (gx + 1 < gw && rows[down + gx + 1] > v) { continue }
            }
            var (x, y, value, index) = (gx * step, gy * step, v, which[mid + gx])
            if step > 1 {
                // The maximum among the neighbours the grid skipped.
                let (cx, cy) = (x, y)
                for ny in max(0, cy - 1)...min(response.height - 1, cy + 1) {
                    for nx in max(0, cx - 1)...min(response.width - 1, cx + 1) where nx != cx || ny != cy {
                        let (r, j) = response.best(nx, ny)
                        if r > value { (x, y, value, index) = (nx, ny, r, j) }
                    }
                }
            }
            found(x, y, value, index)
        }
    }
}

/// A centre–surround pair of boxes, as offsets into a summed-area table from a pixel's own entry,
/// for pixels whose boxes lie inside the plane: the mean of the inner box minus the mean of the
/// ring between it and the outer one.
struct CentreSurround {
    let inner: (Int, Int, Int, Int)
    let outer: (Int, Int, Int, Int)
    let innerScale: Float
    let ringScale: Float

    /// Boxes of half-widths `inner` and `outer` in a table with rows `stride` entries apart.
    init(inner a: Int, outer b: Int, stride: Int) {
        func corners(_ h: Int) -> (Int, Int, Int, Int) {
            ((h + 1) * stride + h + 1, -h * stride + h + 1, (h + 1) * stride - h, -h * stride - h)
        }
        inner = corners(a)
        outer = corners(b)
        let innerArea = Float((2 * a + 1) * (2 * a + 1)), outerArea = Float((2 * b + 1) * (2 * b + 1))
        innerScale = 1 / innerArea
        ringScale = 1 / (outerArea - innerArea)
    }

    /// The response at the pixel whose table entry is `i`.
    @inline(__always)
    func response(_ t: UnsafePointer<UInt32>, _ i: Int) -> Float {
        let a = t[i + inner.0] &- t[i + inner.1] &- t[i + inner.2] &+ t[i + inner.3]
        let b = t[i + outer.0] &- t[i + outer.1] &- t[i + outer.2] &+ t[i + outer.3]
        return Float(a) * innerScale - Float(b &- a) * ringScale
    }
}

extension UInt64 {
    /// Whether none of the eight bytes is greater than `n` (`n` < 128): the bit-twiddling test
    /// `((x + 0x01…01 × (127 − n)) | x) & 0x80…80 == 0`.
    @inline(__always)
    func hasNoByte(above n: UInt8) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        return ((self &+ ones &* UInt64(127 &- n)) | self) & (ones &* 0x80) == 0
    }
}
