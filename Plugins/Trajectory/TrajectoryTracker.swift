/// Links detections across frames into trajectories, several at once.
///
/// Each analyzed frame:
/// 1. **Predict** every track's position from its ballistic fit and gate the detections around
///    it (the gate widens with the fit's scatter, the object's size, a young fit's uncertainty and
///    frames missed).
/// 2. **Assign** greedily by distance relative to the gate, over all track–detection pairs at
///    once, so two balls crossing each other keep their own detections.
/// 3. **Start** new tracks from three unassigned detections in (nearly) consecutive frames that
///    move like a thrown object: not too fast, not standing still, and accelerating (if at all)
///    downwards.
/// 4. **End** tracks: *exit* when the predicted disc leaves the region, *bounce* when a new track
///    starts where a missing one stopped, *lost* after a few missed frames.
///
/// A track is not output here: the analyzer decides when it has earned a report.
struct TrajectoryTracker {
    struct Settings: Sendable {
        var geometry: ProcessingGeometry
        var quality: TrajectoryQuality
        /// Nominal time between analyzed frames, seconds.
        var frameInterval: Double
        /// Window for the moving-average radius.
        var radiusWindow: Int
    }

    struct Ended: Sendable {
        var track: Track
        var reason: TrajectoryEnd.Reason
    }

    let settings: Settings
    /// The settings' quality, with the current noise level.
    private(set) var quality: TrajectoryQuality
    private(set) var tracks: [Track] = []
    private var nextSerial = 0
    /// Analyzed-frame counter.
    private var step = 0
    /// Unassigned detections of the last few analyzed frames, oldest first: seeds of new tracks.
    private var pool: [PoolEntry] = []
    /// Where the previous analyzed frame's detections were.
    private var previousDetections: [(x: Double, y: Double, frames: Int)] = []

    private struct PoolEntry {
        var step: Int
        var point: TrackPoint
        var used = false
    }

    /// Frames a track may go unseen before it is given up (a ball passing in front of something
    /// that moves too, or two balls overlapping).
    var maximumMisses: Int { max(3, Int((0.12 / settings.frameInterval).rounded(.up))) }
    /// Points in a row a track may take by appearance alone (half a second).
    var maximumRecovered: Int { max(4, Int((0.5 / settings.frameInterval).rounded(.up))) }
    /// Analyzed frames a track predicted to leave the region is kept before it ends as an exit:
    /// long enough for a bounce off a floor near the edge to start the next track.
    var bounceWindow: Int { minimumSupport }
    /// Frames an unreported, short track may go unseen.
    var maximumYoungMisses: Int { 2 }
    /// Analyzed frames back a new track may take its points from: a quarter of a second.
    var startWindow: Int { max(6, Int((0.25 / settings.frameInterval).rounded(.up))) }
    /// Frames whose detections must lie on a new track's parabola before it starts.
    var minimumSupport: Int { 3 }

    init(settings: Settings) {
        self.settings = settings
        quality = settings.quality
    }

    // MARK: - One frame

    /// Takes the detections of one analyzed frame; returns the tracks that ended in it. `finder`
    /// looks for established tracks' balls that no detection accounts for (see ``BallTemplate``).
    mutating func advance(frame: Int, time: Double, detections: [Detection], finder: some BallFinder) -> [Ended] {
        step += 1
        quality.noise = finder.noiseLevel
        for i in tracks.indices { tracks[i].gainedPoint = false }
        let still = markStill(detections)
        var taken = [Bool](repeating: false, count: detections.count)
        let assigned = assign(detections, still: still, frame: frame, time: time, taken: &taken)
        for (ti, j) in assigned where !detections[j].touchesEdge {
            tracks[ti].template = finder.template(at: tracks[ti].last, contrast: detections[j].contrast)
        }
        recover(frame: frame, time: time, finder: finder)
        for i in tracks.indices where !tracks[i].gainedPoint { tracks[i].misses += 1 }

        // Whole blobs left over may start tracks; cut-off ones cannot be measured without a radius.
        let oldest = step - startWindow + 1
        pool.removeAll { $0.step < oldest }
        for (j, d) in detections.enumerated() where !taken[j] && !d.touchesEdge && !still[j] {
            pool.append(PoolEntry(step: step, point: TrackPoint(frame: frame, time: time, x: d.x, y: d.y, radius: d.radius)))
        }
        var ended: [Ended] = []
        startTracks(time: time, ended: &ended)
        endTracks(time: time, ended: &ended)
        return ended.sorted { ($0.track.ordinal ?? Int.max, $0.track.serial) < ($1.track.ordinal ?? Int.max, $1.track.serial) }
    }

    /// Ends every open track (the recording is over).
    mutating func finish() -> [Ended] {
        var ended: [Ended] = []
        for t in tracks {
            let p = t.fit.map { $0.position(at: t.last.time) } ?? (x: t.last.x, y: t.last.y)
            let outside = !settings.geometry.containsDisc(x: p.x, y: p.y, radius: t.last.radius) && t.misses > 0
            ended.append(Ended(track: t, reason: outside ? .exit : .end))
        }
        tracks.removeAll()
        return ended.sorted { ($0.track.ordinal ?? Int.max, $0.track.serial) < ($1.track.ordinal ?? Int.max, $1.track.serial) }
    }

    /// Gives track `serial` its id ordinal.
    mutating func markReported(serial: Int, ordinal: Int) {
        if let i = tracks.firstIndex(where: { $0.serial == serial }) { tracks[i].ordinal = ordinal }
    }

    // MARK: - Association

    /// How far from its prediction track `t` accepts a detection, frame pixels: 3.7 standard
    /// deviations (99.9% of a two-dimensional normal) of the distance between a measured point and
    /// the prediction. The point's scatter is what measurement is expected to give or, once there
    /// are enough points to tell, what this track shows (robustly); the prediction's adds through the fit's
    /// leverage, which is large for a young track or after missed frames.
    func gate(_ t: Track, time: Double) -> Double {
        guard let fit = t.fit else { return 0 }
        let r = t.meanRadius(window: settings.radiusWindow)
        let expected = quality.expectedScatter(radius: r)
        let sigma = t.count >= 6 ? max(expected, fit.robustScatter) : expected
        return 3.7 * sigma * (1 + fit.leverage(at: time)).squareRoot() + 0.5 * Double(settings.geometry.factor)
    }

    /// Gives tracks their detections; returns (track index, detection index) pairs.
    private mutating func assign(_ detections: [Detection], still: [Bool], frame: Int, time: Double,
                                 taken: inout [Bool]) -> [(Int, Int)] {
        struct Candidate { var cost: Double; var track: Int; var detection: Int; var point: TrackPoint }
        var candidates: [Candidate] = []
        for (ti, t) in tracks.enumerated() {
            guard let fit = t.fit else { continue }
            let p = fit.position(at: time)
            let g = gate(t, time: time)
            let r = t.meanRadius(window: settings.radiusWindow)
            // A track that is itself (nearly) standing still, like a ball at the top of a
            // vertical toss, may take a still blob; others may not.
            let step = fit.position(at: t.last.time)
            let slow = ((p.x - step.x) * (p.x - step.x) + (p.y - step.y) * (p.y - step.y)).squareRoot() < 2 * stillTolerance(r)
            for (j, d) in detections.enumerated() where !taken[j] && (slow || !still[j]) {
                guard let q = measuredPoint(d, trackRadius: r, frame: frame, time: time) else { continue }
                let dx = q.x - p.x, dy = q.y - p.y
                let distance = (dx * dx + dy * dy).squareRoot()
                guard distance <= g, !Self.stoppedShort(q, of: t, fit: fit) else { continue }
                candidates.append(Candidate(cost: distance / g, track: ti, detection: j, point: q))
            }
        }
        candidates.sort { ($0.cost, tracks[$0.track].serial, $0.detection) < ($1.cost, tracks[$1.track].serial, $1.detection) }
        var trackTaken = [Bool](repeating: false, count: tracks.count)
        var assigned: [(Int, Int)] = []
        for c in candidates where !trackTaken[c.track] && !taken[c.detection] {
            trackTaken[c.track] = true
            taken[c.detection] = true
            assigned.append((c.track, c.detection))
            add(c.point, to: c.track)
        }
        return assigned
    }

    private mutating func add(_ point: TrackPoint, to index: Int, recovered: Bool = false) {
        tracks[index].append(point, recovered: recovered)
        let r = tracks[index].meanRadius(window: settings.radiusWindow)
        tracks[index].rejectOutliers(expected: quality.expectedScatter(radius: r))
    }

    /// Established tracks that got no detection look for their ball by its appearance, inside
    /// their gate: a ball in front of something else that moves is part of that thing's blob.
    private mutating func recover(frame: Int, time: Double, finder: some BallFinder) {
        for i in tracks.indices where !tracks[i].gainedPoint && tracks[i].count >= 6 {
            guard let template = tracks[i].template, let fit = tracks[i].fit else { continue }
            let r = tracks[i].meanRadius(window: settings.radiusWindow)
            // Only a path that already looks thrown is followed this way, and only for a while:
            // a template also follows a patch of a moving texture.
            guard tracks[i].recoveredRun < maximumRecovered, quality.isBallistic(tracks[i], radius: r) else { continue }
            let p = fit.position(at: time)
            guard settings.geometry.containsDisc(x: p.x, y: p.y, radius: r + 2 * Double(settings.geometry.factor)) else { continue }
            let g = gate(tracks[i], time: time)
            guard let q = finder.locate(template, nearX: p.x, y: p.y, gate: g) else { continue }
            let point = TrackPoint(frame: frame, time: time, x: q.x, y: q.y, radius: r)
            let d = ((q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y)).squareRoot()
            guard d <= g, !Self.stoppedShort(point, of: tracks[i], fit: fit) else { continue }
            add(point, to: i, recovered: true)
        }
    }

    /// How close a blob must be to one of the previous frame's to count as standing still.
    func stillTolerance(_ radius: Double) -> Double { max(1.5 * Double(settings.geometry.factor), 0.25 * radius) }

    /// Which detections stand where detections stood in the two previous analyzed frames: flicker,
    /// a lamp, compression noise along an edge, a ghost or a ball at rest. A thrown ball moves
    /// from frame to frame, so still blobs neither start tracks nor join moving ones; where they
    /// crowd (a row of flickering blobs along a door frame) a moving track's gate would otherwise
    /// always find one.
    private mutating func markStill(_ detections: [Detection]) -> [Bool] {
        var frames = [Int](repeating: 0, count: detections.count)
        for (j, d) in detections.enumerated() {
            let tolerance = stillTolerance(d.radius)
            for p in previousDetections {
                let dx = p.x - d.x, dy = p.y - d.y
                if dx * dx + dy * dy <= tolerance * tolerance { frames[j] = max(frames[j], p.frames + 1) }
            }
        }
        previousDetections = detections.indices.map { (x: detections[$0].x, y: detections[$0].y, frames: frames[$0]) }
        // Three frames in the same place: a ball slowing at the top of its flight rarely does.
        return frames.map { $0 >= 2 }
    }

    /// Whether `point` has barely moved from the track's last point although the path says it
    /// should have moved well: a ball that landed and stopped, or the first point after a bounce
    /// that happens to be near the last one before it. Either way it is not on this path.
    static func stoppedShort(_ point: TrackPoint, of track: Track, fit: BallisticFit) -> Bool {
        let last = track.last
        let a = fit.position(at: last.time), b = fit.position(at: point.time)
        let expected = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
        guard expected > 3 * max(1, 0.1 * last.radius) else { return false }
        return distance(point, last) < expected / 3
    }

    /// The point detection `d` gives a track of radius `trackRadius`, or `nil` if it cannot be
    /// that object: a whole blob of a very different size, or a cut-off one whose centre, placed
    /// one radius in from its uncut side, is outside the region.
    private func measuredPoint(_ d: Detection, trackRadius r: Double, frame: Int, time: Double) -> TrackPoint? {
        let k = settings.geometry.factor
        guard d.touchesEdge else {
            guard Self.similarRadius(d.radius, r, factor: k) else { return nil }
            return TrackPoint(frame: frame, time: time, x: d.x, y: d.y, radius: d.radius)
        }
        guard d.radius <= 2 * r + 1.5 * Double(k), let c = d.centre(assumingRadius: r),
              settings.geometry.contains(x: c.x, y: c.y) else { return nil }
        return TrackPoint(frame: frame, time: time, x: c.x, y: c.y, radius: r)
    }

    /// Whether blobs of radii `a` and `b` can be the same object. Radii measured on one object
    /// vary by a few tenths of a pixel (more when it is faint); two objects merged into one blob
    /// measure half as large again.
    static func similarRadius(_ a: Double, _ b: Double, factor: Int) -> Bool {
        let slack = Double(factor)
        return a <= 1.5 * b + slack && b <= 1.5 * a + slack
    }

    // MARK: - Starting tracks

    /// Starts tracks from the unassigned detections of the last ``startWindow`` frames: the
    /// parabolas they support best, each detection used once.
    ///
    /// 1. **Hypotheses.** Each unassigned detection of this frame, with unassigned detections of
    ///    the two (or, across a missed frame, three) frames before, makes triplets that move like a
    ///    thrown object (``tripletCost(_:_:_:factor:maximumSpeed:similar:)``). Real footage gives
    ///    hundreds of small blobs a frame (foliage, a codec's flicker), so the oldest point is not
    ///    searched among all of them: given the newer two, a thrown object's oldest point lies in a
    ///    narrow window (its acceleration is bounded), found by binary search in the pool sorted by x.
    /// 2. **Support.** The best few triplets of each detection are grown back over the window,
    ///    frame by frame from the newest: the detection of similar size nearest the fitted path,
    ///    within the path's gate, joins, and the path is fitted again.
    /// 3. **Choice.** Hypotheses are taken most support first (then the tighter fit, the lower
    ///    triplet cost, the earlier detection), each detection in one track only; one supported by
    ///    fewer than ``minimumSupport`` frames waits: its detections stay in the pool, and a later
    ///    frame may start it with more.
    ///
    /// Three blobs in a row that happen to line up (a hand, a shadow and a ball in a crowded
    /// scene) no longer start a track that then follows the wrong blob: a path needs several
    /// frames that agree, and a track starts with all of them, so no point is lost by waiting.
    private mutating func startTracks(time: Double, ended: inout [Ended]) {
        // Unused pool entries of each earlier step, sorted by x (ties by pool order).
        var byStep: [Int: [Int]] = [:]
        for i in pool.indices where pool[i].step < step && !pool[i].used { byStep[pool[i].step, default: []].append(i) }
        for key in byStep.keys.sorted() {
            byStep[key]!.sort { (pool[$0].point.x, $0) < (pool[$1].point.x, $1) }
        }
        struct Hypothesis { var members: [Int]; var rms: Double; var cost: Double; var seed: Int }
        var hypotheses: [Hypothesis] = []
        for ci in pool.indices where pool[ci].step == step && !pool[ci].used {
            let triplets = triplets(endingAt: ci, byStep: byStep)
            var best: Hypothesis?
            for t in triplets.prefix(3) {
                guard let grown = support([t.a, t.b, ci], byStep: byStep) else { continue }
                let h = Hypothesis(members: grown.members, rms: grown.rms, cost: t.cost, seed: ci)
                if best == nil || Self.ranksBefore(h.members.count, h.rms, h.cost, than: best!.members.count, best!.rms, best!.cost) { best = h }
            }
            if let best, best.members.count >= minimumSupport { hypotheses.append(best) }
        }
        hypotheses.sort { a, b in
            if (a.members.count, a.rms, a.cost) != (b.members.count, b.rms, b.cost) {
                return Self.ranksBefore(a.members.count, a.rms, a.cost, than: b.members.count, b.rms, b.cost)
            }
            return a.seed < b.seed
        }
        for h in hypotheses where !h.members.contains(where: { pool[$0].used }) {
            for i in h.members { pool[i].used = true }
            var track = Track(serial: nextSerial, points: h.members.map { pool[$0].point })
            nextSerial += 1
            endBouncedTrack(before: &track, ended: &ended)
            tracks.append(track)
        }
    }

    /// The triplets (a, b, c) of pool entries from the two steps before each other that end at
    /// pool entry `ci` and pass ``tripletCost(_:_:_:factor:maximumSpeed:similar:)``, cheapest first
    /// (ties by b, then a). Each `a` is looked for only in the narrow window of x its acceleration
    /// allows, by binary search in `byStep` (unused entries of each step, sorted by x).
    private func triplets(endingAt ci: Int, byStep: [Int: [Int]]) -> [(cost: Double, b: Int, a: Int)] {
        let k = Double(settings.geometry.factor)
        let g = settings.geometry
        let maximumSpeed = 3 * Double(max(g.region.width, g.region.height))  // px/s
        let factor = settings.geometry.factor
        let similar = { (a: Double, b: Double) in Self.similarRadius(a, b, factor: factor) }
        let c = pool[ci].point
        var triplets: [(cost: Double, b: Int, a: Int)] = []
        for bStep in (step - 2)..<step {
            for bi in byStep[bStep] ?? [] {
                let b = pool[bi].point
                let dt2 = c.time - b.time
                guard dt2 > 0, Self.distance(b, c) <= maximumSpeed * dt2, similar(b.radius, c.radius) else { continue }
                for aStep in (pool[bi].step - 2)..<pool[bi].step {
                    guard let candidates = byStep[aStep], let first = candidates.first else { continue }
                    let dt1 = b.time - pool[first].point.time
                    guard dt1 > 0 else { continue }
                    // The largest radius an acceptable `a` can have bounds the tolerance, hence the window.
                    let largest = (1.5 * c.radius + k + b.radius + c.radius) / 3
                    let widest = (2 * k + 0.3 * largest) * 2 / (dt1 * dt2)
                    let reach = widest * dt1 * (dt1 + dt2) / 2
                    let predictedX = b.x - dt1 * (c.x - b.x) / dt2
                    var j = Self.firstIndex(in: candidates, atLeast: predictedX - reach) { pool[$0].point.x }
                    while j < candidates.count, pool[candidates[j]].point.x <= predictedX + reach {
                        let ai = candidates[j]
                        j += 1
                        guard let cost = Self.tripletCost(pool[ai].point, b, c, factor: k, maximumSpeed: maximumSpeed, similar: similar)
                        else { continue }
                        triplets.append((cost, bi, ai))
                    }
                }
            }
        }
        triplets.sort { ($0.cost, $0.b, $0.a) < ($1.cost, $1.b, $1.a) }
        return triplets
    }

    /// Whether a hypothesis with `count` supporting frames, fit scatter `rms` and triplet `cost`
    /// is preferred to another: more support, then a tighter fit, then a lower cost.
    private static func ranksBefore(_ count: Int, _ rms: Double, _ cost: Double, than otherCount: Int, _ otherRMS: Double, _ otherCost: Double) -> Bool {
        if count != otherCount { return count > otherCount }
        if rms != otherRMS { return rms < otherRMS }
        return cost < otherCost
    }

    /// Grows the triplet `seed` (pool indices, oldest first) back over the window: for each
    /// earlier frame without a member, newest first, the unused entry of similar size nearest the
    /// fitted path within its gate joins, and the path is fitted again. Returns the members in
    /// time order and the fit's scatter; `nil` when the seed has no fit or the grown path does
    /// not fall like a thrown object.
    private func support(_ seed: [Int], byStep: [Int: [Int]]) -> (members: [Int], rms: Double)? {
        var members = seed
        var points = seed.map { pool[$0].point }
        guard var fit = BallisticFit(points[...]) else { return nil }
        let radius = points.reduce(0) { $0 + $1.radius } / Double(points.count)
        let scatter = quality.expectedScatter(radius: radius)
        let seedSteps = Set(seed.map { pool[$0].step })
        for s in stride(from: step - 1, to: step - startWindow, by: -1) where !seedSteps.contains(s) {
            guard let entries = byStep[s], let first = entries.first else { continue }
            let time = pool[first].point.time
            let p = fit.position(at: time)
            let gate = 3.7 * scatter * (1 + fit.leverage(at: time)).squareRoot() + 0.5 * Double(settings.geometry.factor)
            var best: (distance: Double, index: Int)?
            var j = Self.firstIndex(in: entries, atLeast: p.x - gate) { pool[$0].point.x }
            while j < entries.count, pool[entries[j]].point.x <= p.x + gate {
                let i = entries[j]
                j += 1
                let q = pool[i].point
                guard Self.similarRadius(q.radius, radius, factor: settings.geometry.factor) else { continue }
                let d = ((q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y)).squareRoot()
                if d <= gate, best == nil || d < best!.distance { best = (d, i) }
            }
            guard let found = best else { continue }
            let at = points.firstIndex { $0.time > pool[found.index].point.time } ?? points.count
            var grown = points
            grown.insert(pool[found.index].point, at: at)
            // A blob that only a young fit's wide gate lets in (a hand, a shadow near the path)
            // would bend the path off the ball: it joins only if the path still fits tightly.
            guard let refit = BallisticFit(grown[...]), refit.rms <= 2 * scatter else { continue }
            points = grown
            members.insert(found.index, at: at)
            fit = refit
        }
        // A path that curves upwards is no throw, however many blobs line it.
        guard fit.acceleration >= -2 * fit.accelerationError || points.count < 5 else { return nil }
        return (members, fit.rms)
    }

    /// The first position in `sorted` (ascending by `key`) whose key is at least `bound`.
    private static func firstIndex(in sorted: [Int], atLeast bound: Double, key: (Int) -> Double) -> Int {
        var lo = 0, hi = sorted.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if key(sorted[mid]) < bound { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// How far the triplet `a`, `b`, `c` (oldest first) is from moving like a thrown object, in
    /// units of its tolerance (0 = exactly), or `nil` when it cannot be one: too fast, of different
    /// sizes, standing still, or accelerating sideways, upwards or harder than gravity allows.
    static func tripletCost(_ a: TrackPoint, _ b: TrackPoint, _ c: TrackPoint, factor k: Double, maximumSpeed: Double,
                            similar: (Double, Double) -> Bool) -> Double? {
        let dt1 = b.time - a.time, dt2 = c.time - b.time
        guard dt1 > 0, dt2 > 0, distance(a, b) <= maximumSpeed * dt1, similar(a.radius, c.radius) else { return nil }
        let r = (a.radius + b.radius + c.radius) / 3
        // It must move: more than the centroid noise over the three points.
        guard distance(a, c) >= max(1.5 * k, 0.2 * r) else { return nil }
        // Acceleration from the two velocities; its tolerance is the centroid noise seen through a
        // second difference.
        let ax = 2 * ((c.x - b.x) / dt2 - (b.x - a.x) / dt1) / (dt1 + dt2)
        let ay = 2 * ((c.y - b.y) / dt2 - (b.y - a.y) / dt1) / (dt1 + dt2)
        let tolerance = (2 * k + 0.3 * r) * 2 / (dt1 * dt2)
        let gravityLimit = 1500 * r
        guard abs(ax) <= tolerance, ay >= -tolerance, ay <= gravityLimit + tolerance else { return nil }
        return (ax * ax + ay * ay).squareRoot() / tolerance
    }

    /// A new track that starts where a missing one stopped, a moment later, is that object after
    /// a bounce: the old one ends there.
    private mutating func endBouncedTrack(before new: inout Track, ended: inout [Ended]) {
        let start = new.first
        var best: (distance: Double, index: Int)?
        for (i, t) in tracks.enumerated() where t.misses >= 1 && t.count >= 5 {
            let gap = start.time - t.last.time
            guard gap > 0, gap <= 3.5 * settings.frameInterval else { continue }
            let d = Self.distance(start, t.last)
            let reach = t.speed * gap + 2 * t.last.radius + 3 * Double(settings.geometry.factor)
            guard d <= reach else { continue }
            if best == nil || d < best!.distance { best = (d, i) }
        }
        guard let found = best else { return }
        var old = tracks.remove(at: found.index)
        // The old track may have taken the first point after the bounce, which the new path
        // explains better: hand it over.
        if old.count > 5, let last = old.points.last, last.time < start.time, let fit = new.fit,
           let before = BallisticFit(old.points.dropLast()) {
            let onNew = fit.position(at: last.time), onOld = before.position(at: last.time)
            let dNew = ((onNew.x - last.x) * (onNew.x - last.x) + (onNew.y - last.y) * (onNew.y - last.y)).squareRoot()
            let dOld = ((onOld.x - last.x) * (onOld.x - last.x) + (onOld.y - last.y) * (onOld.y - last.y)).squareRoot()
            if dNew < dOld {
                old.removeLast()
                new.prepend(last)
            }
        }
        ended.append(Ended(track: old, reason: .bounce))
    }

    // MARK: - Ending tracks

    private mutating func endTracks(time: Double, ended: inout [Ended]) {
        var kept: [Track] = []
        kept.reserveCapacity(tracks.count)
        for t in tracks {
            guard t.misses > 0 else { kept.append(t); continue }
            let p = t.fit.map { $0.position(at: time) } ?? (x: t.last.x, y: t.last.y)
            let leaving = !settings.geometry.containsDisc(x: p.x, y: p.y, radius: t.last.radius)
            // A young track that already falls like a thrown ball may coast as long as a reported one.
            let young = !t.isReported && !(t.count >= 6 && quality.isBallistic(t, radius: t.meanRadius(window: settings.radiusWindow)))
            if leaving && t.count >= 3 {
                // A ball that hits a floor near the frame's edge is predicted to leave too: wait
                // until a bounce would have been seen (the next track's first three points).
                if t.misses > bounceWindow { ended.append(Ended(track: t, reason: .exit)) } else { kept.append(t) }
            } else if t.misses > (young ? maximumYoungMisses : maximumMisses) {
                ended.append(Ended(track: t, reason: .lost))
            } else {
                kept.append(t)
            }
        }
        tracks = kept
    }

    static func distance(_ a: TrackPoint, _ b: TrackPoint) -> Double {
        ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
    }
}

/// Finds a known ball in the frame just analyzed by its appearance (the ``MotionDetector`` does).
protocol BallFinder {
    /// Sensor noise σ in the frames searched, grey levels.
    var noiseLevel: Double { get }
    func template(at point: TrackPoint, contrast: Double) -> BallTemplate?
    func locate(_ template: BallTemplate, nearX x: Double, y: Double, gate: Double) -> (x: Double, y: Double)?
}

extension MotionDetector: BallFinder {}
