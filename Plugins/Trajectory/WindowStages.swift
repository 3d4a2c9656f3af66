import LumaAnalysis

/// Version 3's design: candidates are discs of motion energy against a median background
/// (``DiscCandidateFinder``), flights are parabolas that candidates support over a window of
/// frames (``FlightFinder``), and confidence weighs a flight's geometry against the clip's gravity
/// and whether it is another flight's shadow (``FlightConfidence``). Its cost per frame is bounded
/// whatever the scene: a few passes over the shrunk frame and at most ten candidates.
struct WindowStages: TrajectoryStages {
    private var candidates: DiscCandidateFinder
    private var finder: FlightFinder
    private let rating: FlightConfidence
    /// The flights that ended lately: a flight may be the shadow of one of them.
    private var recent: [Flight] = []

    /// Flights that ended kept as possible companions of a shadow.
    static let flightsRemembered = 16

    /// Half: the confidence is meant as the probability that a path is a real flight.
    var minimumConfidence: Double { 0.5 }

    init(_ setting: StageSetting) {
        candidates = Self.candidateFinder(setting)
        finder = FlightFinder(settings: .init(geometry: setting.geometry, frameInterval: setting.frameInterval))
        rating = FlightConfidence(geometry: setting.geometry, frameInterval: setting.frameInterval)
    }

    /// The candidate stage as this design sets it up.
    static func candidateFinder(_ setting: StageSetting) -> DiscCandidateFinder {
        DiscCandidateFinder(geometry: setting.geometry, fixedThreshold: setting.configuration.threshold,
                            minimumRadiusPixels: setting.minimumRadiusPixels, maximumRadiusPixels: setting.maximumRadiusPixels)
    }

    mutating func advance(_ frame: Frame) -> (ended: [EndedPath], gained: [Track]) {
        let found = candidates.find(frame)
        let ended = finder.advance(frame: frame.index, time: frame.timestamp.seconds, candidates: found)
        let paths = endedPaths(ended)
        remember(ended)
        return (paths, finder.flights.filter(\.gainedPoint).map(Self.track))
    }

    mutating func finish() -> [EndedPath] {
        let ended = finder.finish()
        remember(ended)
        return endedPaths(ended)
    }

    mutating func markReported(serial: Int, ordinal: Int) {
        finder.markReported(serial: serial, ordinal: ordinal)
    }

    func confidence(_ track: Track) -> Double {
        guard let flight = flight(track.serial) else { return 0 }
        return rating.confidence(flight, clipGravity: finder.gravity.estimate, others: companions)
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
        recent += ended.map(\.flight).filter { $0.count >= FlightFinder.minimumSupport }
        if recent.count > Self.flightsRemembered { recent.removeFirst(recent.count - Self.flightsRemembered) }
    }

    /// The flights a flight may be the shadow of: those open and those that ended lately.
    private var companions: [Flight] { recent + finder.flights }

    private func flight(_ serial: Int) -> Flight? {
        finder.flights.first { $0.serial == serial } ?? recent.last { $0.serial == serial }
    }
}
