import LumaAnalysis
import LumaImaging

/// Version 3's design: candidates are discs of motion energy against a median background
/// (``DiscCandidateFinder``), flights are parabolas that candidates support over a window of
/// frames (``FlightFinder``), and confidence weighs a flight's geometry against the clip's gravity
/// (``FlightConfidence``) and its appearance against the clip's balls (``ClipAppearance``: polarity,
/// size, edge and lockstep, so a ball's shadow is not taken for it). Its cost per frame is bounded
/// whatever the scene: a few passes over the shrunk frame, at most ten candidates, each profiled at
/// full resolution along a fixed number of samples (``DiscProfile``).
struct WindowStages: TrajectoryStages {
    /// The first stage: its own discs of motion energy by default, any ``CandidateStage`` given.
    private var candidates: any CandidateStage
    /// The second and third stages: the window's flights and their confidence by default.
    private var finder: any Associator
    private let rating: any PathConfidence
    /// The flights that ended lately: a flight may be the shadow of one of them.
    private var recent: [Flight] = []
    /// Every candidate's profile over the last frames, for the appearance of the paths through them.
    private var profiles = ProfileHistory()
    /// The ended flights the clip's ball appearance is learnt from (the latest ``pathsCalibrated``).
    private var calibration: [(geometric: Double, appearance: PathAppearance)] = []
    /// The clip's ball appearance, as the latest flights show it.
    private(set) var clip: ClipAppearance?
    /// What the stages hand on, for whoever measures them; nothing by default.
    var probe = StageProbe()

    /// Flights that ended kept as possible companions of a shadow.
    static let flightsRemembered = 16
    /// Ended flights the clip's ball appearance is learnt from.
    static let pathsCalibrated = 48

    /// Half: the confidence is meant as the probability that a path is a real flight.
    var minimumConfidence: Double { 0.5 }

    /// The window design as `setting` says, each stage its own unless another is given (to compare
    /// the other stages on the same input: another design's candidates, another association or
    /// confidence).
    init(_ setting: StageSetting, candidates: (any CandidateStage)? = nil, associator: (any Associator)? = nil,
         confidence: (any PathConfidence)? = nil) {
        self.candidates = candidates ?? Self.candidateFinder(setting)
        finder = associator ?? FlightFinder(settings: .init(geometry: setting.geometry, frameInterval: setting.frameInterval))
        rating = confidence ?? FlightConfidence(geometry: setting.geometry, frameInterval: setting.frameInterval)
    }

    /// The candidate stage as this design sets it up.
    static func candidateFinder(_ setting: StageSetting) -> DiscCandidateFinder {
        DiscCandidateFinder(geometry: setting.geometry, fixedThreshold: setting.configuration.threshold,
                            minimumRadiusPixels: setting.minimumRadiusPixels, maximumRadiusPixels: setting.maximumRadiusPixels)
    }

    mutating func advance(_ frame: Frame) -> (ended: [EndedPath], gained: [Track]) {
        let found = candidates.candidates(in: frame)
        probe.candidates?(frame.index, found)
        let image = GrayImage(frame)
        profiles.store(frame: frame.index, found.map { c in
            ProfileHistory.Entry(x: c.x, y: c.y, profile: DiscProfile.measure(image, x: c.x, y: c.y, radius: c.radius))
        })
        let ended = finder.advance(frame: frame.index, time: frame.timestamp.seconds, candidates: found)
        probe.ended?(ended)
        let paths = endedPaths(ended)
        remember(ended)
        return (paths, finder.flights.filter(\.gainedPoint).map(Self.track))
    }

    mutating func finish() -> [EndedPath] {
        let ended = finder.finish()
        probe.ended?(ended)
        remember(ended)
        return endedPaths(ended)
    }

    mutating func markReported(serial: Int, ordinal: Int) {
        finder.markReported(serial: serial, ordinal: ordinal)
    }

    func confidence(_ track: Track) -> Double {
        guard let flight = flight(track.serial) else { return 0 }
        return rating.confidence(flight, clipGravity: finder.clipGravity, evidence: evidence(flight).evidence)
    }

    /// A flight's appearance and the evidence of each cue that it is not one of the clip's balls.
    func evidence(_ flight: Flight) -> (appearance: PathAppearance, evidence: ClipAppearance.Evidence) {
        let own = PathAppearance.measure(flight, history: profiles)
        var e = clip.map { $0.evidence(own, besideBall: besideBall(flight, clip: $0)) } ?? ClipAppearance.Evidence()
        for serial in PathAppearance.lockstep(flight, among: companions, radius: flight.radius) {
            guard let partner = self.flight(serial) else { continue }
            let other = PathAppearance.measure(partner, history: profiles)
            let theirs = clip?.evidence(other) ?? ClipAppearance.Evidence()
            // Of two paths in lockstep, the copy is the larger or softer one (a penumbra), or a dark
            // one beside a brighter one (a shadow is darker than what it falls on, its ball brighter
            // than the shadow: version 3's first shadow rule, which needs no calibration). Not the
            // one of the clip's other polarity: where shadows fit as well as balls (the crowded
            // scenes), the best-fitting paths may set the clip's polarity to the shadows'.
            if theirs.size + theirs.edge < e.size + e.edge || (own.polarity < 0 && other.polarity > own.polarity + 0.1) {
                e.lockstep = 1
                break
            }
        }
        return (own, e)
    }

    /// Whether a flight of the clip's ball size, whose geometry alone would let it be reported, flies
    /// over some of `flight`'s frames (see ``ClipAppearance/sizeSpeaks(_:besideBall:)``).
    private func besideBall(_ flight: Flight, clip: ClipAppearance) -> Bool {
        let gravity = finder.clipGravity
        return companions.contains { other in
            other.serial != flight.serial && other.count >= FlightFinder.minimumSupport
                && other.first.frame <= flight.last.frame && other.last.frame >= flight.first.frame
                && 2.5 * rating.geometric(other, clipGravity: gravity).product >= minimumConfidence
                && clip.isBallSized(PathAppearance.measure(other, history: profiles).radius)
        }
    }

    /// A flight's confidence, its geometry and its appearance, as the analyzer would report it now.
    func appearanceReport(serial: Int) -> (geometric: Double, appearance: PathAppearance, evidence: ClipAppearance.Evidence)? {
        guard let flight = flight(serial) else { return nil }
        let (appearance, evidence) = evidence(flight)
        return (rating.geometric(flight, clipGravity: finder.clipGravity).product, appearance, evidence)
    }

    /// A flight's confidence from its geometry alone (no appearance), and the factors that set it,
    /// against the clip's gravity as the design knows it now.
    func geometricReport(_ flight: Flight) -> (confidence: Double, geometry: FlightConfidence.Geometry, clipGravity: Double?) {
        let gravity = finder.clipGravity
        return (rating.confidence(flight, clipGravity: gravity, evidence: .init()), rating.geometric(flight, clipGravity: gravity), gravity)
    }

    func mayReport(_ track: Track, radius: Double) -> Bool { track.fit != nil }

    // MARK: - Flights as tracks

    private static func track(_ flight: Flight) -> Track {
        var t = Track(serial: flight.serial, points: flight.points)
        t.ordinal = flight.ordinal
        t.gainedPoint = flight.gainedPoint
        return t
    }

    /// Ended flights as paths, reported ones first by ordinal, then by serial.
    private func endedPaths(_ ended: [FlightFinder.Ended]) -> [EndedPath] {
        ended.sorted { ($0.flight.ordinal ?? Int.max, $0.flight.serial) < ($1.flight.ordinal ?? Int.max, $1.flight.serial) }
            .map { EndedPath(track: Self.track($0.flight), reason: $0.reason) }
    }

    private mutating func remember(_ ended: [FlightFinder.Ended]) {
        let kept = ended.map(\.flight).filter { $0.count >= FlightFinder.minimumSupport }
        recent += kept
        if recent.count > Self.flightsRemembered { recent.removeFirst(recent.count - Self.flightsRemembered) }
        let gravity = finder.clipGravity
        // A path that is the copy of another in lockstep is no ball to learn the clip's balls from.
        calibration += kept.filter { evidence($0).evidence.lockstep == 0 }
            .map { (rating.geometric($0, clipGravity: gravity).product, PathAppearance.measure($0, history: profiles)) }
        if calibration.count > Self.pathsCalibrated { calibration.removeFirst(calibration.count - Self.pathsCalibrated) }
        let open = finder.flights.filter { $0.count >= FlightFinder.window }
            .map { (rating.geometric($0, clipGravity: gravity).product, PathAppearance.measure($0, history: profiles)) }
        clip = ClipAppearance(calibration + open)
    }

    /// The flights a flight may be the shadow of: those open and those that ended lately.
    private var companions: [Flight] { recent + finder.flights }

    private func flight(_ serial: Int) -> Flight? {
        finder.flights.first { $0.serial == serial } ?? recent.last { $0.serial == serial }
    }
}
