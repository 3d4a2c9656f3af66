import LumaAnalysis
import LumaImaging
import Foundation
let debugFlights = ProcessInfo.processInfo.environment["LT_DEBUG"] != nil
let debugPoints = ProcessInfo.processInfo.environment["LT_DEBUG"] == "2"


/// Finds small objects moving on parabolic paths, the way Vision's `VNDetectTrajectoriesRequest`
/// does, from differences between the frames of a fixed camera.
///
/// Stateful: the engine creates one per replay and feeds it every analyzed frame in order.
/// Each frame goes through three stages:
/// 1. ``MotionDetector`` finds compact moving blobs against a background model, on a shrunk copy
///    of the region of interest, and looks inside each at full resolution for the disc of a ball
///    (``AppearanceCheck``): motion proposes, appearance decides where the ball is.
/// 2. ``TrajectoryTracker`` links them into tracks, one parabola each, several at once; a bounce
///    or a ball leaving and coming back starts a new one.
/// 3. A track with `trajectoryLength` points that falls under plausible gravity is reported: a
///    `trajectory` event every frame it gains a point, and one `trajectory.end` when it is over.
///
/// Beyond Vision: the path is also fitted in time (so a vertical toss, which `y = f(x)` cannot
/// describe, is found), `objectMaximumNormalizedRadius` really filters, the end event gives launch
/// velocity, angle, apex and landing, and `filter=throw` applies Apple's sample-app logic.
public struct TrajectoryAnalyzer: Analyzer {
    public static let name = "trajectory"
    public static let version = "3"
    public static let summary = "parabolic trajectories of thrown objects (Vision's VNDetectTrajectoriesRequest, and beyond)"
    public static let eventTypes: [any EventPayload.Type] = [TrajectoryObservation.self, TrajectoryEnd.self]

    /// Below this, a flight is not reported whatever the options say: the confidence is meant as
    /// the probability that the path is a real flight, and half is where a guess stops.
    static let minimumConfidence = 0.5
    /// Flights that ended kept as possible companions of a shadow.
    static let flightsRemembered = 16

    private let configuration: TrajectoryConfiguration
    private let streamIdentity: String
    /// The name the events are logged under: ids derive from it, so two instances never share one.
    private let instanceName: String
    private let geometry: ProcessingGeometry
    private let report: TrajectoryReport
    private let filter: ReportFilter
    private let minimumRadius: Double
    private let maximumRadius: Double
    private let rating: FlightConfidence
    private var candidates: DiscCandidateFinder
    private var finder: FlightFinder
    /// The flights that ended lately (see ``remember(ended:)``).
    private var recentFlights: [Flight] = []
    private var reported = 0

    public init(configuration: TrajectoryConfiguration, context: AnalyzerContext) throws {
        try configuration.validate()
        self.configuration = configuration
        let stream = context.stream
        streamIdentity = stream.identity
        instanceName = context.instanceName(of: Self.self)
        let width = Double(stream.width)
        minimumRadius = configuration.objectMinimumNormalizedRadius * width
        maximumRadius = configuration.objectMaximumNormalizedRadius * width
        geometry = ProcessingGeometry(
            frameWidth: stream.width, frameHeight: stream.height, regionOfInterest: context.regionOfInterest,
            maximumProcessingDimension: configuration.maximumProcessingDimension,
            minimumRadius: configuration.objectMinimumNormalizedRadius)
        let nominal = stream.nominalFrameRate > 0 && stream.nominalFrameRate.isFinite ? 1 / stream.nominalFrameRate : 1.0 / 30
        let interval = max(nominal, context.frameAnalysisSpacing)
        candidates = DiscCandidateFinder(geometry: geometry, fixedThreshold: configuration.threshold,
                                         minimumRadius: minimumRadius, maximumRadius: maximumRadius)
        finder = FlightFinder(settings: .init(geometry: geometry, frameInterval: interval))
        rating = FlightConfidence(geometry: geometry, frameInterval: interval)
        let quality = TrajectoryQuality(processingFactor: geometry.factor, frameSize: max(stream.width, stream.height))
        report = TrajectoryReport(geometry: geometry, trajectoryLength: configuration.trajectoryLength, quality: quality)
        filter = ReportFilter(configuration: configuration, regionLeft: Double(geometry.region.x0), regionWidth: Double(geometry.region.width))
    }

    public mutating func analyze(_ frame: Frame, into events: inout EventSink) throws {
        let found = candidates.find(frame)
        let ended = finder.advance(frame: frame.index, time: frame.timestamp.seconds, candidates: found)
        try emitEnds(ended, into: &events)
        remember(ended: ended)
        for flight in finder.flights where flight.gainedPoint {
            try observe(flight, into: &events)
        }
    }

    public mutating func finish(into events: inout EventSink) throws {
        let ended = finder.finish()
        remember(ended: ended)
        try emitEnds(ended, into: &events)
    }

    /// Keeps the flights that ended lately: a flight that ends may have been a shadow's ball.
    private mutating func remember(ended: [FlightFinder.Ended]) {
        recentFlights += ended.map(\.flight).filter { $0.count >= FlightFinder.minimumSupport }
        if recentFlights.count > Self.flightsRemembered { recentFlights.removeFirst(recentFlights.count - Self.flightsRemembered) }
    }

    /// The flights a flight may be the shadow of: those open and those that ended lately.
    private var companions: [Flight] { recentFlights + finder.flights }

    /// Emits a `trajectory` event if the flight has earned one.
    private mutating func observe(_ flight: Flight, into events: inout EventSink) throws {
        guard flight.count >= configuration.trajectoryLength else { return }
        let track = Track(serial: flight.serial, points: flight.points)
        let radius = report.movingAverageRadius(track)
        guard radius >= minimumRadius, radius <= maximumRadius else { return }
        let confidence = rating.confidence(flight, clipGravity: finder.gravity.estimate, others: companions)
        guard confidence >= Self.minimumConfidence else { return }
        let a = report.equationCoefficients(track)[0]
        guard filter.passes(track, confidence: confidence, equationA: a) else { return }
        let ordinal: Int
        if let o = flight.ordinal {
            ordinal = o
        } else {
            ordinal = reported
            reported += 1
            finder.markReported(serial: flight.serial, ordinal: ordinal)
        }
        guard let observation = report.observation(track, id: id(ordinal), confidence: confidence) else { return }
        try events.emit(observation)
    }

    private func emitEnds(_ ended: [FlightFinder.Ended], into events: inout EventSink) throws {
        if debugFlights {
            for e in ended where e.flight.count >= 6 {
                let g = rating.geometric(e.flight, clipGravity: finder.gravity.estimate)
                let c = rating.confidence(e.flight, clipGravity: finder.gravity.estimate, others: companions)
                let fit = BallisticFit(e.flight.points[...])
                if debugPoints { print("POINTS \(e.flight.serial): " + e.flight.points.map { "\($0.frame):\(Int($0.x)),\(Int($0.y)),r\(Int($0.radius))" }.joined(separator: " ")) }
                print("DEBUG flight \(e.flight.serial) frames \(e.flight.first.frame)-\(e.flight.last.frame) n \(e.flight.count) conf \(c) geo \(g) acc \(fit?.acceleration ?? 0) clip \(finder.gravity.estimate ?? 0) logrho \(ClipPolarity.logRatio(e.flight)) shadowOf \(FlightConfidence.shadowedBy(e.flight, among: companions) ?? -1) \(e.reason)")
            }
        }
        for e in ended.sorted(by: { ($0.flight.ordinal ?? Int.max, $0.flight.serial) < ($1.flight.ordinal ?? Int.max, $1.flight.serial) }) {
            guard let ordinal = e.flight.ordinal else { continue }
            let confidence = rating.confidence(e.flight, clipGravity: finder.gravity.estimate, others: companions)
            try events.emit(report.end(Track(serial: e.flight.serial, points: e.flight.points), id: id(ordinal), reason: e.reason, confidence: confidence))
        }
    }

    private func id(_ ordinal: Int) -> String {
        DerivedIdentifier.make(streamIdentity: streamIdentity, analyzer: instanceName, kind: "trajectory", ordinal: ordinal)
    }
}
