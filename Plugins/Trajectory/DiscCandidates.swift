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

    let geometry: ProcessingGeometry
    /// Fixed motion threshold in grey levels, or 0 to derive it from the noise.
    let fixedThreshold: Int

    private var background: MedianBackground
    private var current: [UInt8]
    private var previous: [UInt8]
    private var hasPrevious = false
    /// Motion energy per octave (octave 0 is the processing plane), with each octave's size.
    /// (Internal, not private: the peak search, in its own file, reads them.)
    var energy: [[UInt8]]
    let sizes: [(width: Int, height: Int)]
    /// The octaves searched, and which of each octave's radii.
    private let searched: [(octave: Int, radii: [Int])]
    var table = SummedArea()
    var peaks: [Peak] = []
    /// Smoothed noise σ of the processing plane, grey levels; nil before two frames.
    private(set) var noise: Double?

    /// A local maximum of one octave's responses.
    struct Peak {
        var octave: Int
        /// Centre and radius in processing pixels.
        var x: Double
        var y: Double
        var radius: Double
        var response: Double
    }

    /// `minimumRadiusPixels` and `maximumRadiusPixels` are frame pixels (the configured range).
    init(geometry: ProcessingGeometry, fixedThreshold: Int, minimumRadiusPixels: Double, maximumRadiusPixels: Double) {
        self.geometry = geometry
        self.fixedThreshold = fixedThreshold
        let k = Double(geometry.factor)
        let (w, h) = (geometry.width, geometry.height)
        // With no range given (Vision's 0...1 of the width), balls up to an eighth of the shorter
        // side are looked for.
        let upper = min(maximumRadiusPixels / k, Double(min(w, h)) / 8)
        let lower = min(max(minimumRadiusPixels / k, 1.5), upper)
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
            Downsample.boxAverage(GrayImage(frame), region: g.region, factor: g.factor, into: $0)
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
                    let plane = GrayImage(pixels: UnsafeBufferPointer(rebasing: source.prefix(above.width * above.height)),
                                          width: above.width, height: above.height)
                    Downsample.boxAverage(plane, region: plane.bounds, factor: 2, into: $0)
                }
            }
        }
        let t = threshold
        peaks.removeAll(keepingCapacity: true)
        for (octave, radii) in searched { findPeaks(octave: octave, radii: radii, threshold: t) }
        return candidates(threshold: t)
    }

    // MARK: - From peaks to candidates

    /// One peak per place across scales, refined and judged at the first octave, the best
    /// ``perFrame`` kept.
    private mutating func candidates(threshold t: Double) -> [Candidate] {
        var ranking = PeakRanking(peaks)
        peaks = []
        var kept: [Peak] = []
        while kept.count < 2 * Self.perFrame, let p = ranking.next() {
            let overlaps = kept.contains { q in
                let reach = 0.8 * max(p.radius, q.radius)
                return (p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y) < reach * reach
            }
            if !overlaps { kept.append(p) }
        }
        peaks = ranking.storage()
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
