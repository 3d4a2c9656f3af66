import LumaImaging

/// Links the candidates of successive frames into flights by the window design: a flight is a
/// parabola that candidates support over a window of frames, not a chain grown link by link.
///
/// Each analyzed frame:
/// 1. **Grow** the open flights: each takes the nearest unused candidate within its gate at the
///    position its parabola predicts (greedy over all flight–candidate pairs, nearest first);
///    one missed for more than ``maximumGap`` frames closes.
/// 2. **Hypothesise** new flights from the unused candidates of the last ``window`` frames: every
///    triplet (t − 2d, t − d, t) with d = 1…3 gives a parabola, and, once the clip's gravity is
///    known, so does every pair (t − d, t) with d = 2…4 falling with it. A hypothesis must fall
///    with plausible gravity; its **support** is the frames of the window with an unused
///    candidate of similar size within the gate of its path.
/// 3. **Accept** hypotheses with at least ``minimumSupport`` best first (support less the
///    normalised residuals), each candidate in one flight only; each accepted flight grows back over
///    the frames before the window.
/// 4. **End** flights: *exit* when the predicted disc leaves the region, *bounce* when a new flight
///    starts where a closed one stopped, *lost* otherwise. A closed flight's end is held back
///    ``window`` frames, long enough for the bounce to be seen.
///
/// The clip's gravity is learnt from the flights it finds (``ClipGravity``); until then hypotheses
/// come from triplets alone.
struct FlightFinder {
    struct Settings: Sendable {
        var geometry: ProcessingGeometry
        /// Nominal time between analyzed frames, seconds.
        var frameInterval: Double
    }

    struct Ended: Sendable {
        var flight: Flight
        var reason: TrajectoryEnd.Reason
    }

    /// Frames over which a hypothesis's support is counted.
    static let window = 8
    /// Frames of the window that must support a hypothesis.
    static let minimumSupport = 6
    /// Frames in a row a flight may miss before it closes.
    static let maximumGap = 2
    /// Radii of one ball's candidates differ by less than this factor.
    static let radiusRatio = 2.0
    /// Points after which a flight is ended whatever it does (five seconds at 60 frames/s; a ball
    /// thrown 30 m high is in the air for five).
    static let longestFlight = 300
    /// Frames of candidates kept for growing flights backwards.
    static let historyLength = 48

    let settings: Settings
    private(set) var flights: [Flight] = []
    private(set) var gravity = ClipGravity()
    private var history: [FrameCandidates] = []
    /// Closed flights waiting to learn whether they bounced.
    private var closing: [(flight: Flight, closedAt: Int, reason: TrajectoryEnd.Reason)] = []
    private var step = 0
    private var nextSerial = 0

    /// One analyzed frame's candidates, and which flights took them.
    private struct FrameCandidates {
        var frame: Int
        var time: Double
        var candidates: [Candidate]
        var used: [Bool]

        func point(_ i: Int) -> TrackPoint {
            TrackPoint(frame: frame, time: time, x: candidates[i].x, y: candidates[i].y, radius: candidates[i].radius)
        }
    }

    init(settings: Settings) {
        self.settings = settings
    }

    /// How far from a path a candidate may lie and still be the flight's ball, frame pixels.
    func gate(radius: Double) -> Double { settings.geometry.flightGate(radius: radius) }

    /// The gate of an open flight: wider for a flight that scatters about its path, and after missed
    /// frames, and by a tenth of a frame's travel (a path's small errors grow with its speed).
    func growingGate(_ flight: Flight) -> Double {
        let v = flight.path.velocity(at: flight.last.time)
        let step = (v.x * v.x + v.y * v.y).squareRoot() * settings.frameInterval
        return (max(gate(radius: flight.radius), 3 * flight.scatter) + 0.1 * step) * (1 + 0.5 * Double(flight.misses))
    }

    /// The gravity a path may fall with, px/s², for a ball of `radius` frame pixels: what a ball of
    /// that size could show (``TrajectoryQuality/gravityPerRadius``, and at least what a frame
    /// 100 m across would). Not narrowed to the clip's once that is known: a clip's first flights
    /// may be a hand's, and a wrong estimate must not hide every ball after it.
    func plausibleGravity(radius: Double) -> ClosedRange<Double> {
        let frameSize = Double(max(settings.geometry.frameWidth, settings.geometry.frameHeight))
        let low = max(TrajectoryQuality.gravityPerRadius.lowerBound * radius, 0.1 * frameSize)
        return low...max(low, TrajectoryQuality.gravityPerRadius.upperBound * radius)
    }

    // MARK: - One frame

    /// Takes the candidates of one analyzed frame; returns the flights whose end became clear.
    mutating func advance(frame: Int, time: Double, candidates: [Candidate]) -> [Ended] {
        step += 1
        history.append(FrameCandidates(frame: frame, time: time, candidates: candidates,
                                       used: [Bool](repeating: false, count: candidates.count)))
        if history.count > Self.historyLength { history.removeFirst(history.count - Self.historyLength) }
        for i in flights.indices { flights[i].gainedPoint = false }
        grow()
        close(time: time)
        startFlights()
        return releaseClosed(upTo: step - Self.window)
    }

    /// Ends every flight (the recording is over).
    mutating func finish() -> [Ended] {
        var ended = releaseClosed(upTo: Int.max)
        for f in flights {
            let p = f.path.position(at: f.last.time + settings.frameInterval)
            let leaving = f.misses > 0 && !settings.geometry.containsDisc(x: p.x, y: p.y, radius: f.radius)
            ended.append(Ended(flight: f, reason: leaving ? .exit : .end))
        }
        flights.removeAll()
        return ended.sorted { $0.flight.serial < $1.flight.serial }
    }

    /// Gives flight `serial` its id ordinal.
    mutating func markReported(serial: Int, ordinal: Int) {
        if let i = flights.firstIndex(where: { $0.serial == serial }) { flights[i].ordinal = ordinal }
    }

    // MARK: - Growing

    /// Each open flight takes the nearest unused candidate of this frame within its gate.
    private mutating func grow() {
        let h = history.count - 1
        let frame = history[h]
        var pairs: [(cost: Double, flight: Int, candidate: Int)] = []
        for (fi, f) in flights.enumerated() {
            let p = f.path.position(at: frame.time)
            let r = f.radius, g = growingGate(f)
            for (j, c) in frame.candidates.enumerated() where !frame.used[j] && Self.similar(c.radius, r) {
                let d = ((c.x - p.x) * (c.x - p.x) + (c.y - p.y) * (c.y - p.y)).squareRoot()
                if d <= g { pairs.append((d / g, fi, j)) }
            }
        }
        pairs.sort { ($0.cost, flights[$0.flight].serial, $0.candidate) < ($1.cost, flights[$1.flight].serial, $1.candidate) }
        var taken = [Bool](repeating: false, count: flights.count)
        for pair in pairs where !taken[pair.flight] && !history[h].used[pair.candidate] {
            taken[pair.flight] = true
            history[h].used[pair.candidate] = true
            flights[pair.flight].add(frame.point(pair.candidate), lumaRatio: frame.candidates[pair.candidate].lumaRatio, gravity: gravity.estimate)
            flights[pair.flight].misses = 0
            flights[pair.flight].gainedPoint = true
        }
        for i in flights.indices where !taken[i] { flights[i].misses += 1 }
    }

    /// Closes the flights that missed too many frames or are predicted out of the region.
    private mutating func close(time: Double) {
        var open: [Flight] = []
        for f in flights {
            let p = f.path.position(at: time)
            let leaving = !settings.geometry.containsDisc(x: p.x, y: p.y, radius: f.radius)
            // A path longer than any throw (something that never stops moving, or stands still
            // where candidates keep appearing) is ended too: its points and its fit's cost would
            // otherwise grow for as long as the stream runs.
            let overlong = f.count >= Self.longestFlight
            if f.misses > Self.maximumGap || (leaving && f.misses > 0) || overlong {
                closing.append((f, step, leaving ? .exit : overlong ? .end : .lost))
            } else {
                open.append(f)
            }
        }
        flights = open
    }

    /// The closed flights held back long enough, as ended.
    private mutating func releaseClosed(upTo last: Int) -> [Ended] {
        var ended: [Ended] = [], waiting: [(flight: Flight, closedAt: Int, reason: TrajectoryEnd.Reason)] = []
        for entry in closing {
            if entry.closedAt <= last { ended.append(Ended(flight: entry.flight, reason: entry.reason)) } else { waiting.append(entry) }
        }
        closing = waiting
        for e in ended { gravity.learn(e.flight, plausible: plausibleGravity(radius: e.flight.radius)) }
        return ended
    }

    // MARK: - Starting flights

    private struct Hypothesis {
        var path: Parabola
        var radius: Double
        var score: Double
        /// For each frame of the window (history index), the supporting candidate, or -1.
        var support: [Int]
        var order: (Int, Int, Int)
    }

    /// Hypothesises, scores and accepts new flights ending in this frame.
    private mutating func startFlights() {
        let newest = history.count - 1
        guard newest >= 2 else { return }
        let windowStart = max(0, newest - Self.window + 1)
        var hypotheses: [Hypothesis] = []
        let now = history[newest]
        let speedLimit = 3 * Double(max(settings.geometry.frameWidth, settings.geometry.frameHeight))
        for (k, c) in now.candidates.enumerated() where !now.used[k] {
            let pc = now.point(k)
            // Triplets (t − 2d, t − d, t).
            for d in 1...3 where newest - 2 * d >= windowStart {
                let mid = history[newest - d], old = history[newest - 2 * d]
                for (j, b) in mid.candidates.enumerated() where !mid.used[j] && Self.similar(b.radius, c.radius) {
                    let pb = mid.point(j)
                    guard Self.distance(pb, pc) <= speedLimit * (pc.time - pb.time) else { continue }
                    for (i, a) in old.candidates.enumerated() where !old.used[i] && Self.similar(a.radius, c.radius) {
                        let pa = old.point(i)
                        guard let path = Parabola(pa, pb, pc) else { continue }
                        let r = (a.radius + b.radius + c.radius) / 3
                        guard plausibleGravity(radius: r).contains(path.gravity), abs(path.position(at: pb.time).x - pb.x) <= gate(radius: r),
                              Self.distance(pa, pc) >= gate(radius: r) else { continue }
                        if let h = hypothesis(path, radius: r, from: windowStart, to: newest, order: (k, d, i * 16 + j)) { hypotheses.append(h) }
                    }
                }
            }
            // Pairs (t − d, t) falling with the clip's gravity.
            if let g = gravity.estimate {
                for d in 2...4 where newest - d >= windowStart {
                    let old = history[newest - d]
                    for (i, a) in old.candidates.enumerated() where !old.used[i] && Self.similar(a.radius, c.radius) {
                        let pa = old.point(i)
                        guard Self.distance(pa, pc) <= speedLimit * (pc.time - pa.time), Self.distance(pa, pc) >= gate(radius: c.radius),
                              let path = Parabola(pa, pc, gravity: g) else { continue }
                        let r = (a.radius + c.radius) / 2
                        if let h = hypothesis(path, radius: r, from: windowStart, to: newest, order: (k, 10 + d, i)) { hypotheses.append(h) }
                    }
                }
            }
        }
        hypotheses.sort { ($0.score, -$0.order.0, -$0.order.1, -$0.order.2) > ($1.score, -$1.order.0, -$1.order.1, -$1.order.2) }
        for h in hypotheses {
            // Each candidate in one flight: count the support again without those taken since.
            guard let fresh = hypothesis(h.path, radius: h.radius, from: windowStart, to: newest, order: h.order) else { continue }
            accept(fresh, windowStart: windowStart)
        }
    }

    /// The hypothesis of `path` with its support over history frames `from...to`, or `nil` if
    /// fewer than ``minimumSupport`` frames support it.
    private func hypothesis(_ path: Parabola, radius r: Double, from: Int, to: Int, order: (Int, Int, Int)) -> Hypothesis? {
        let g = gate(radius: r)
        var support = [Int](repeating: -1, count: to - from + 1)
        var count = 0, residual = 0.0
        for h in from...to {
            let frame = history[h]
            let p = path.position(at: frame.time)
            var best = -1, bestDistance = g
            for (j, c) in frame.candidates.enumerated() where !frame.used[j] && Self.similar(c.radius, r) {
                let d = ((c.x - p.x) * (c.x - p.x) + (c.y - p.y) * (c.y - p.y)).squareRoot()
                if d <= bestDistance { best = j; bestDistance = d }
            }
            if best >= 0 {
                support[h - from] = best
                count += 1
                residual += (bestDistance / g) * (bestDistance / g)
            }
        }
        guard count >= Self.minimumSupport else { return nil }
        return Hypothesis(path: path, radius: r, score: Double(count) - residual, support: support, order: order)
    }

    /// Makes a flight of hypothesis `h`, grows it back over the frames before the window, and
    /// marks its candidates used.
    private mutating func accept(_ h: Hypothesis, windowStart: Int) {
        var points: [TrackPoint] = [], ratios: [Double] = []
        for (offset, j) in h.support.enumerated() where j >= 0 {
            let index = windowStart + offset
            history[index].used[j] = true
            points.append(history[index].point(j))
            ratios.append(history[index].candidates[j].lumaRatio)
        }
        if join(points, ratios: ratios, path: h.path) { return }
        var flight = Flight(serial: nextSerial, points: points, lumaRatios: ratios, path: h.path)
        flight.refit(gravity: gravity.estimate)
        nextSerial += 1
        // Back over the frames before the window, while gaps stay short.
        var missed = 0
        var index = windowStart - 1
        while index >= 0, missed <= Self.maximumGap {
            let frame = history[index]
            let p = flight.path.position(at: frame.time)
            let r = flight.radius, g = gate(radius: r)
            var best = -1, bestDistance = g
            for (j, c) in frame.candidates.enumerated() where !frame.used[j] && Self.similar(c.radius, r) {
                let d = ((c.x - p.x) * (c.x - p.x) + (c.y - p.y) * (c.y - p.y)).squareRoot()
                if d <= bestDistance { best = j; bestDistance = d }
            }
            if best >= 0 {
                history[index].used[best] = true
                flight.add(frame.point(best), lumaRatio: frame.candidates[best].lumaRatio, gravity: gravity.estimate)
                missed = 0
            } else {
                missed += 1
            }
            index -= 1
        }
        flight.gainedPoint = true
        flight.misses = history.count - 1 - (history.lastIndex { $0.frame == flight.last.frame } ?? history.count - 1)
        markBounce(before: flight)
        flights.append(flight)
    }

    /// Joins the points of an accepted hypothesis to the open or recently closed flight they
    /// continue, if there is one: one parabola fits the flight's points and the new ones about as
    /// tightly as the window's gate. (A flight of a few points extrapolates poorly and may lose its
    /// ball near the apex or in front of something that moves; the window finds the ball again.)
    /// Returns whether they were joined.
    private mutating func join(_ points: [TrackPoint], ratios: [Double], path: Parabola) -> Bool {
        guard let start = points.first else { return false }
        func residual(_ f: Flight) -> Double? {
            let gap = start.time - f.last.time
            guard gap > 0, gap <= Double(Self.maximumGap + 2) * settings.frameInterval, Self.similar(f.radius, points[0].radius) else { return nil }
            let union = f.points + points
            let fixed = union.count < Flight.ownGravityPoints ? gravity.estimate : nil
            guard let joint = Parabola(fitting: union[...], gravity: fixed) ?? Parabola(fitting: union[...], gravity: nil) else { return nil }
            var squares = 0.0
            for p in union { let d = joint.distance(to: p); squares += d * d }
            let rms = (squares / Double(union.count)).squareRoot()
            return rms <= max(gate(radius: f.radius), f.scatter) ? rms : nil
        }
        var best: (rms: Double, open: Bool, index: Int)?
        for (i, f) in flights.enumerated() {
            if let r = residual(f), best == nil || r < best!.rms { best = (r, true, i) }
        }
        for (i, c) in closing.enumerated() {
            if let r = residual(c.flight), best == nil || r < best!.rms { best = (r, false, i) }
        }
        guard let found = best else { return false }
        var flight = found.open ? flights[found.index] : closing.remove(at: found.index).flight
        for (p, r) in zip(points, ratios) { flight.add(p, lumaRatio: r, gravity: gravity.estimate) }
        flight.misses = 0
        flight.gainedPoint = true
        if found.open { flights[found.index] = flight } else { flights.append(flight) }
        return true
    }

    /// A new flight that starts where a closed one stopped, a moment later, is that ball after a
    /// bounce.
    private mutating func markBounce(before flight: Flight) {
        let start = flight.first
        for i in closing.indices where closing[i].reason != .bounce {
            let last = closing[i].flight.last
            let gap = start.time - last.time
            guard gap > 0, gap <= Double(Self.maximumGap + 2) * settings.frameInterval else { continue }
            let reach = 2 * closing[i].flight.radius + 0.1 * Double(max(settings.geometry.frameWidth, settings.geometry.frameHeight)) * gap / settings.frameInterval
            if Self.distance(start, last) <= reach { closing[i].reason = .bounce }
        }
    }

    static func similar(_ a: Double, _ b: Double) -> Bool { max(a, b) < radiusRatio * min(a, b) }

    static func distance(_ a: TrackPoint, _ b: TrackPoint) -> Double {
        ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
    }
}
