import LumaAnalysis
import LumaImaging

/// A place in one frame where a ball may be: the centre of a disc of motion energy.
struct Candidate: Sendable, Equatable {
    /// Centre in frame pixels (top-left origin, continuous).
    var x: Double
    var y: Double
    /// Radius in frame pixels: the scale at which the disc responds most.
    var radius: Double
    /// The centre–surround response of the motion energy at that scale, grey levels, weighted down
    /// for an elongated shape: how strongly this is a disc of motion.
    var score: Double
    /// Mean motion energy inside the disc, grey levels.
    var contrast: Double
    /// Mean luma inside the disc over the background's there: above 1 for something brighter than
    /// what it passes in front of, below 1 for something darker (a shadow, a dark ball).
    var lumaRatio: Double
    /// √(λ₁ / λ₂) of the motion energy's second moments around the centre: 1 for a disc, large for
    /// an edge.
    var elongation: Double
}

/// Finds the balls' candidates in each frame: the centres of discs of *motion energy*, the
/// absolute difference between the frame and a background made of the median of past frames.
///
/// Per frame, on the region of interest shrunk by ``ProcessingGeometry``:
/// 1. **Motion energy** `E = |I − B|`, where `B` is the per-pixel median of nine frames three
///    apart (``MedianBackground``): a juggler's swaying body or a walking player is mostly in it,
///    the ball never. Its sign is dropped on purpose: a ball is brighter than some of what it
///    passes and darker than the rest.
/// 2. **Centre–surround responses** of `E` (mean over a box inside the disc minus mean over the ring
///    around it) at two radii per octave, on a pyramid of `E` halved per octave, each from a
///    summed-area table: any radius costs the same, and the octaves cost a third of the first
///    together. Only the octaves whose radii the configured radius range allows are computed, and
///    only where the centre itself moves.
/// 3. **Peaks** over space (3×3) in each octave; one peak per place across scales (the strongest).
/// 4. **Refinement and edge rejection** at the first octave: a few mean-shift steps of `E` over the
///    disc move the centre from the lit cap of a shaded ball to its middle; the second moments of
///    `E` around it reject edges (elongation above 3: an arm, a body's outline) and weight down
///    what is somewhat elongated (above 1.5).
/// 5. The best ``perFrame`` by score.
///
/// All planes are allocated once; a frame costs a few passes over the shrunk plane.
struct DiscCandidateFinder {
    /// Candidates kept per frame.
    static let perFrame = 10
    /// Radii per octave, as multiples of the octave's pixel: two, a half-octave apart.
    static let octaveRadii: [Double] = [2, 2 * 1.414_213_562_373_095]
    /// Elongation above which a peak is an edge, and above which it is weighted down.
    static let edgeElongation = 3.0
    static let roundElongation = 1.5
    /// Background samples needed before candidates are looked for (the median of fewer keeps the
    /// ghosts of whatever moved since the first frame).
    static let samplesNeeded = 3
    /// Responses are evaluated only where the energy reaches this many times the threshold: a
    /// ball's centre moves well above it, the noise of a textured, compressed scene does not
    /// (measured on the shared clips: the same throws found at 1, 1.5 and 2; the time spent on
    /// responses about halved at 2).
    static let evaluationGate = 2.0
    /// The first octave is evaluated on every `firstOctaveStep`-th pixel each way (see ``findPeaks``).
    static let firstOctaveStep = 2
    /// A larger disc around a stronger peak is taken for the object when it responds at least this
    /// share as strongly.

    let geometry: ProcessingGeometry
    /// Fixed motion threshold in grey levels, or 0 to derive it from the noise.
    let fixedThreshold: Int
    /// The radii looked for, processing pixels.
    let radii: ClosedRange<Double>

    private var background: MedianBackground
    private var current: [UInt8]
    private var previous: [UInt8]
    private var hasPrevious = false
    /// Motion energy per octave (octave 0 is the processing plane), with each octave's size.
    private var energy: [[UInt8]]
    private let sizes: [(width: Int, height: Int)]
    /// The octaves searched, and which of each octave's radii.
    private let searched: [(octave: Int, radii: [Int])]
    private var table = SummedArea()
    private var peaks: [Peak] = []
    /// Smoothed noise σ of the processing plane, grey levels; nil before two frames.
    private(set) var noise: Double?

    private struct Peak {
        var octave: Int
        /// Centre and radius in processing pixels.
        var x: Double
        var y: Double
        var radius: Double
        var response: Double
    }

    /// `minimumRadius` and `maximumRadius` are frame pixels (the configured range).
    init(geometry: ProcessingGeometry, fixedThreshold: Int, minimumRadius: Double, maximumRadius: Double) {
        self.geometry = geometry
        self.fixedThreshold = fixedThreshold
        let k = Double(geometry.factor)
        let (w, h) = (geometry.width, geometry.height)
        // With no range given (Vision's 0...1 of the width), balls up to an eighth of the shorter
        // side are looked for.
        let upper = min(maximumRadius / k, Double(min(w, h)) / 8)
        let lower = min(max(minimumRadius / k, 1.5), upper)
        radii = lower...max(lower, upper)
        var sizes = [(width: w, height: h)]
        while sizes.count < 8, sizes.last!.width >= 16, sizes.last!.height >= 16 {
            sizes.append((sizes.last!.width / 2, sizes.last!.height / 2))
        }
        var searched: [(octave: Int, radii: [Int])] = []
        for octave in sizes.indices {
            let scale = Double(1 << octave)
            let chosen = Self.octaveRadii.indices.filter { j in
                let r = Self.octaveRadii[j] * scale
                return r >= lower / 1.42 && r <= upper * 1.42 && (octave == 0 || r * 1.42 > 1.5)
            }
            if !chosen.isEmpty, sizes[octave].width >= 8, sizes[octave].height >= 8 { searched.append((octave, chosen)) }
        }
        if searched.isEmpty { searched = [(0, [0])] }
        self.searched = searched
        let deepest = searched.map(\.octave).max() ?? 0
        self.sizes = Array(sizes[...deepest])
        energy = self.sizes.map { [UInt8](repeating: 0, count: $0.width * $0.height) }
        background = MedianBackground(width: w, height: h)
        current = [UInt8](repeating: 0, count: w * h)
        previous = current
    }

    /// The motion threshold in use, grey levels: fixed, or 2.5 noise σ (at least 4).
    var threshold: Double {
        fixedThreshold > 0 ? Double(fixedThreshold) : max(4, 2.5 * (noise ?? 2))
    }

    /// The candidates of `frame`, best first; none until the background has a sample.
    mutating func find(_ frame: Frame) -> [Candidate] {
        let g = geometry
        let n = g.width * g.height
        guard n > 0 else { return [] }
        swap(&current, &previous)
        current.withUnsafeMutableBufferPointer {
            Downsample.boxAverage(frame.pixels, sourceWidth: frame.width, region: g.region, factor: g.factor, into: $0)
        }
        if hasPrevious {
            let sigma = current.withUnsafeBufferPointer { c in
                previous.withUnsafeBufferPointer { p in NoiseLevel.temporalSigma(c, p, width: g.width, height: g.height, rowStep: 4) }
            }
            noise = noise.map { $0 + (sigma - $0) / 8 } ?? sigma
        }
        hasPrevious = true
        defer { current.withUnsafeBufferPointer { background.observe($0) } }
        // A median of fewer samples keeps what stood where something moved since: wait for three.
        guard background.samplesHeld >= Self.samplesNeeded else { return [] }

        current.withUnsafeBufferPointer { c in
            background.plane.withUnsafeBufferPointer { b in
                // The light of the whole scene may have changed since the samples (auto
                // exposure, a cloud): the typical difference is taken off first.
                let offset = MotionEnergy.typicalDifference(c, b, width: g.width, height: g.height, rowStep: 4)
                energy[0].withUnsafeMutableBufferPointer { MotionEnergy.absoluteDifference(c, b, offset: offset, into: $0, count: n) }
            }
        }
        for octave in sizes.indices.dropFirst() {
            let above = sizes[octave - 1]
            energy[octave - 1].withUnsafeBufferPointer { source in
                energy[octave].withUnsafeMutableBufferPointer {
                    Downsample.boxAverage(source, sourceWidth: above.width, region: PixelRect(width: above.width, height: above.height),
                                          factor: 2, into: $0)
                }
            }
        }
        let t = threshold
        peaks.removeAll(keepingCapacity: true)
        for (octave, radii) in searched { findPeaks(octave: octave, radii: radii, threshold: t) }
        return candidates(threshold: t)
    }

    // MARK: - Responses and peaks

    /// The centre–surround box pair of radius `r` (octave pixels): inner and outer half-widths.
    static func boxes(radius r: Double) -> (inner: Int, outer: Int) {
        let inner = max(1, Int((0.65 * r).rounded()))
        return (inner, max(inner + 1, Int((1.75 * r).rounded())))
    }

    /// Adds the 3×3 maxima of one octave's best response over its radii to `peaks`. Only pixels
    /// whose own energy reaches the threshold are evaluated (a disc's centre moves).
    private mutating func findPeaks(octave: Int, radii: [Int], threshold t: Double) {
        let (w, h) = sizes[octave]
        energy[octave].withUnsafeBufferPointer { table.build($0, width: w, height: h) }
        let boxes = radii.prefix(2).map { Self.boxes(radius: Self.octaveRadii[$0]) }
        let gate = UInt8(clamping: Int((Self.evaluationGate * t).rounded(.up)))
        let minimum = Float(0.5 * t)
        let scale = Double(1 << octave)
        // The first octave's discs are at least two pixels in radius, so their responses are
        // broad: they are evaluated on every other pixel each way, and each maximum found there
        // is then looked for among its eight neighbours (a quarter of the work on the largest plane).
        let step = octave == 0 ? Self.firstOctaveStep : 1
        let (gw, gh) = ((w + step - 1) / step, (h + step - 1) / step)
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 3 * gw) { rows in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 3 * gw) { which in
                rows.initialize(repeating: 0)
                which.initialize(repeating: 0)
                energy[octave].withUnsafeBufferPointer { e in
                    table.sums.withUnsafeBufferPointer { s in
                        let sums = s.baseAddress!, stride = w + 1
                        // Each box's four corners as offsets from the pixel's own table entry,
                        // and the reciprocals of its areas, for pixels whose boxes lie inside.
                        let reach = boxes.map(\.outer).max() ?? 1
                        let fast = boxes.map { CentreSurround(inner: $0.inner, outer: $0.outer, stride: stride) }
                        let first = fast[0], second = fast.count > 1 ? fast[1] : nil
                        /// The best response over the radii at pixel (x, y), and which radius.
                        func evaluate(_ x: Int, _ y: Int) -> (Float, UInt8) {
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
                        // Responses of grid rows gy − 1, gy, gy + 1 in a ring of three; the middle
                        // row's maxima are found once the row below it is known. Rows without a
                        // response worth a peak are not searched.
                        var strongRow = [false, false, false]
                        func respond(row gy: Int) {
                            let slot = (gy % 3) * gw, y = gy * step
                            strongRow[gy % 3] = false
                            let out = rows.baseAddress! + slot, outWhich = which.baseAddress! + slot
                            out.update(repeating: 0, count: gw)
                            outWhich.update(repeating: 0, count: gw)
                            let energyRow = UnsafeRawPointer(e.baseAddress! + y * w)
                            var x = 0
                            while x < w {
                                // Eight still pixels at a time are skipped: no byte of the word
                                // exceeds gate − 1 (the classic "has a byte greater than n" test,
                                // valid for n < 128).
                                if x & 7 == 0, x + 8 <= w, gate <= 128,
                                   energyRow.loadUnaligned(fromByteOffset: x, as: UInt64.self).hasNoByte(above: gate &- 1) {
                                    x += 8
                                    continue
                                }
                                if energyRow.load(fromByteOffset: x, as: UInt8.self) >= gate {
                                    let (best, index) = evaluate(x, y)
                                    out[x / step] = best
                                    outWhich[x / step] = index
                                    if best >= minimum { strongRow[gy % 3] = true }
                                }
                                x += step
                            }
                        }
                        func collect(row gy: Int) {
                            guard strongRow[gy % 3] else { return }
                            let mid = (gy % 3) * gw
                            let up = gy > 0 ? ((gy - 1) % 3) * gw : -1, down = gy + 1 < gh ? ((gy + 1) % 3) * gw : -1
                            for gx in 0..<gw {
                                let v = rows[mid + gx]
                                guard v >= minimum else { continue }
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
                                    for ny in max(0, cy - 1)...min(h - 1, cy + 1) {
                                        for nx in max(0, cx - 1)...min(w - 1, cx + 1) where nx != cx || ny != cy {
                                            let (r, j) = evaluate(nx, ny)
                                            if r > value { (x, y, value, index) = (nx, ny, r, j) }
                                        }
                                    }
                                }
                                // Compared across scales as `response × √radius`: the shading and
                                // texture inside a ball make small discs on its lit cap respond as
                                // strongly as the ball, and without the factor they take its place
                                // (recall at 10 on the juggling clip: 0.86 without, 0.96 with,
                                // 0.80 with the radius itself as the factor).
                                let radius = Self.octaveRadii[radii[Int(index)]] * scale
                                peaks.append(Peak(octave: octave, x: (Double(x) + 0.5) * scale, y: (Double(y) + 0.5) * scale,
                                                  radius: radius, response: Double(value) * radius.squareRoot()))
                            }
                        }
                        for gy in 0..<gh {
                            respond(row: gy)
                            if gy >= 1 { collect(row: gy - 1) }
                        }
                        if gh >= 1 { collect(row: gh - 1) }
                    }
                }
            }
        }
    }

    // MARK: - From peaks to candidates

    /// One peak per place across scales, refined and judged at the first octave, the best
    /// ``perFrame`` kept.
    private mutating func candidates(threshold t: Double) -> [Candidate] {
        peaks.sort { ($0.response, -$0.octave, -$0.y, -$0.x) > ($1.response, -$1.octave, -$1.y, -$1.x) }
        var kept: [Peak] = []
        for p in peaks {
            if kept.count >= 2 * Self.perFrame { break }
            let overlaps = kept.contains { q in
                let reach = 0.8 * max(p.radius, q.radius)
                return (p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y) < reach * reach
            }
            if !overlaps { kept.append(p) }
        }
        let g = geometry, k = Double(g.factor)
        var found: [Candidate] = []
        found.reserveCapacity(kept.count)
        current.withUnsafeBufferPointer { frame in
            background.plane.withUnsafeBufferPointer { back in
                energy[0].withUnsafeBufferPointer { e in
                    let plane = EnergyPlane(energy: e, frame: frame, background: back, width: g.width, height: g.height, threshold: t)
                    for p in kept {
                        // A candidate's score is at most its peak's response: once ten distinct
                        // candidates score above what is left, the rest cannot enter.
                        if found.count >= Self.perFrame, let last = Self.distinct(found).dropFirst(Self.perFrame - 1).first, p.response < last.score { break }
                        // The centre first with a generous window (the peak sits on the ball's lit
                        // cap), then the disc's own radius from the energy's radial profile, then
                        // the centre again with it.
                        let (ax, ay) = plane.refine(x: p.x, y: p.y, radius: 1.5 * p.radius)
                        let radius = plane.radius(x: ax, y: ay, scale: p.radius)
                        var (cx, cy) = plane.refine(x: ax, y: ay, radius: radius)
                        if let d = plane.disc(x: cx, y: cy, radius: 1.25 * radius) { (cx, cy) = (d.x, d.y) }
                        let elongation = plane.elongation(x: cx, y: cy, radius: 1.5 * radius)
                        guard elongation <= Self.edgeElongation else { continue }
                        let weight = elongation <= Self.roundElongation ? 1 : 1 - (elongation - Self.roundElongation) / (2 * (Self.edgeElongation - Self.roundElongation))
                        let disc = plane.means(x: cx, y: cy, radius: radius)
                        found.append(Candidate(x: g.frameX(cx), y: g.frameY(cy), radius: k * radius, score: p.response * weight,
                                               contrast: disc.energy, lumaRatio: disc.ratio, elongation: elongation))
                    }
                }
            }
        }
        var distinct = Self.distinct(found)
        if distinct.count > Self.perFrame { distinct.removeLast(distinct.count - Self.perFrame) }
        return distinct
    }

    /// `found` best first, one candidate per place: refined centres of one object may meet (a
    /// ball's rim and its middle, a ball and the ball-and-shadow disc around it), and the strongest
    /// is kept.
    static func distinct(_ found: [Candidate]) -> [Candidate] {
        var distinct: [Candidate] = []
        for c in found.sorted(by: { ($0.score, -$0.y, -$0.x) > ($1.score, -$1.y, -$1.x) }) where !distinct.contains(where: { d in
            let reach = max(c.radius, d.radius)
            return (c.x - d.x) * (c.x - d.x) + (c.y - d.y) * (c.y - d.y) < reach * reach
        }) { distinct.append(c) }
        return distinct
    }
}

/// A centre–surround pair of boxes, as offsets into a summed-area table from a pixel's own entry,
/// for pixels whose boxes lie inside the plane: the mean of the inner box minus the mean of the
/// ring between it and the outer one.
private struct CentreSurround {
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

/// The first octave's motion energy with the frame and background it came from, for measuring one
/// candidate: where its disc's centre is, how round it is, what it holds.
private struct EnergyPlane {
    let energy: UnsafeBufferPointer<UInt8>
    let frame: UnsafeBufferPointer<UInt8>
    let background: UnsafeBufferPointer<UInt8>
    let width: Int
    let height: Int
    /// Energy at or below this carries no weight.
    let threshold: Double

    /// Calls `body(x, y, index)` for every pixel whose centre lies within `radius` of (`cx`, `cy`).
    @inline(__always)
    private func forEachPixel(inDiscAt cx: Double, _ cy: Double, radius: Double, _ body: (Int, Int, Int) -> Void) {
        let x0 = max(0, Int((cx - radius).rounded(.down))), x1 = min(width - 1, Int((cx + radius).rounded(.down)))
        let y0 = max(0, Int((cy - radius).rounded(.down))), y1 = min(height - 1, Int((cy + radius).rounded(.down)))
        guard x0 <= x1, y0 <= y1 else { return }
        let r2 = radius * radius
        for y in y0...y1 {
            let dy = Double(y) + 0.5 - cy
            for x in x0...x1 {
                let dx = Double(x) + 0.5 - cx
                if dx * dx + dy * dy <= r2 { body(x, y, y * width + x) }
            }
        }
    }

    /// Three mean-shift steps: the centre moves to the energy-weighted centroid of the disc around
    /// it, at most one radius from where it started in all.
    func refine(x: Double, y: Double, radius: Double) -> (x: Double, y: Double) {
        var (cx, cy) = (x, y)
        for _ in 0..<3 {
            var sw = 0.0, sx = 0.0, sy = 0.0
            forEachPixel(inDiscAt: cx, cy, radius: radius) { px, py, i in
                let w = Double(energy[i]) - threshold
                guard w > 0 else { return }
                sw += w; sx += w * (Double(px) + 0.5); sy += w * (Double(py) + 0.5)
            }
            guard sw > 0 else { break }
            var (nx, ny) = (sx / sw, sy / sw)
            let (dx, dy) = (nx - x, ny - y)
            let travel = (dx * dx + dy * dy).squareRoot()
            if travel > radius { (nx, ny) = (x + dx * radius / travel, y + dy * radius / travel) }
            let moved = abs(nx - cx) + abs(ny - cy)
            (cx, cy) = (nx, ny)
            if moved < 0.05 { break }
        }
        return (cx, cy)
    }

    /// The plain centroid of the pixels within `radius` whose energy reaches the threshold, and the
    /// radius of a disc of their area; `nil` when there are none. Unweighted on purpose: a shaded
    /// ball's lit side would pull a weighted centre towards it.
    func disc(x: Double, y: Double, radius: Double) -> (x: Double, y: Double, radius: Double)? {
        var count = 0, sx = 0.0, sy = 0.0
        forEachPixel(inDiscAt: x, y, radius: radius) { px, py, i in
            guard Double(energy[i]) >= threshold else { return }
            count += 1; sx += Double(px) + 0.5; sy += Double(py) + 0.5
        }
        guard count > 0 else { return nil }
        return (sx / Double(count), sy / Double(count), (Double(count) / PortableMath.pi).squareRoot())
    }

    /// The radius of the disc of energy centred at (`x`, `y`), near `scale`: where the mean energy
    /// of rings one pixel wide falls half way from the disc's inside (within half the scale) to
    /// its surroundings (two to two and a half scales out); within half to twice the scale.
    func radius(x: Double, y: Double, scale: Double) -> Double {
        let rings = Int((2.5 * scale).rounded(.up)) + 1
        return withUnsafeTemporaryAllocation(of: (sum: Double, count: Int).self, capacity: rings) { ring in
            ring.initialize(repeating: (0, 0))
            forEachPixel(inDiscAt: x, y, radius: Double(rings)) { px, py, i in
                let (dx, dy) = (Double(px) + 0.5 - x, Double(py) + 0.5 - y)
                let k = min(rings - 1, Int((dx * dx + dy * dy).squareRoot()))
                ring[k].sum += Double(energy[i])
                ring[k].count += 1
            }
            func mean(_ range: Range<Int>) -> Double? {
                var s = 0.0, c = 0
                for k in range where k < rings { s += ring[k].sum; c += ring[k].count }
                return c > 0 ? s / Double(c) : nil
            }
            let inner = max(1, Int((0.5 * scale).rounded(.up)))
            guard let inside = mean(0..<inner), let outside = mean(Int(2 * scale)..<rings), inside > outside else { return scale }
            let half = (inside + outside) / 2
            var previous = inside
            for k in inner..<rings {
                guard ring[k].count > 0 else { continue }
                let m = ring[k].sum / Double(ring[k].count)
                if m < half {
                    // Linear between ring k − 1 (centre k − 0.5) and ring k (centre k + 0.5).
                    let crossing = Double(k) - 0.5 + (previous - half) / max(previous - m, 1e-9)
                    return min(2 * scale, max(0.5 * scale, crossing))
                }
                previous = m
            }
            return 2 * scale
        }
    }

    /// √(λ₁ / λ₂) of the energy's second moments (above the threshold) within `radius`.
    func elongation(x: Double, y: Double, radius: Double) -> Double {
        var sw = 0.0, sx = 0.0, sy = 0.0, sxx = 0.0, syy = 0.0, sxy = 0.0
        forEachPixel(inDiscAt: x, y, radius: radius) { px, py, i in
            let w = Double(energy[i]) - threshold
            guard w > 0 else { return }
            let (u, v) = (Double(px) + 0.5 - x, Double(py) + 0.5 - y)
            sw += w; sx += w * u; sy += w * v; sxx += w * u * u; syy += w * v * v; sxy += w * u * v
        }
        guard sw > 0 else { return 1 }
        let (mx, my) = (sx / sw, sy / sw)
        let (a, b, c) = (sxx / sw - mx * mx + 1.0 / 12, syy / sw - my * my + 1.0 / 12, sxy / sw - mx * my)
        let mean = (a + b) / 2, spread = (((a - b) / 2) * ((a - b) / 2) + c * c).squareRoot()
        let small = max(mean - spread, 1e-6)
        return ((mean + spread) / small).squareRoot()
    }

    /// Mean energy inside the disc, and mean frame luma over mean background luma there.
    func means(x: Double, y: Double, radius: Double) -> (energy: Double, ratio: Double) {
        var count = 0, e = 0, f = 0, b = 0
        forEachPixel(inDiscAt: x, y, radius: max(radius, 0.75)) { _, _, i in
            count += 1; e += Int(energy[i]); f += Int(frame[i]); b += Int(background[i])
        }
        guard count > 0 else { return (0, 1) }
        return (Double(e) / Double(count), Double(f + 1) / Double(b + 1))
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
