import LumaAnalysis
import LumaImaging


/// Finds small objects moving on parabolic paths, the way Vision's `VNDetectTrajectoriesRequest`
/// does, from differences between the frames of a fixed camera.
///
/// Stateful: the engine creates one per replay and feeds it every analyzed frame in order.
/// Each frame goes through three stages (the default design, `window`; ``TrajectoryConfiguration/Design``):
/// 1. `DiscCandidateFinder` finds at most ten discs of motion energy against a median background,
///    on a shrunk copy of the region of interest, and `DiscProfile` measures each at full
///    resolution (its brightness against the background, its size, its edge).
/// 2. `FlightFinder` links them into flights: parabolas that candidates support over a window of
///    frames, several at once; a bounce or a ball leaving and coming back starts a new one.
/// 3. `FlightConfidence` weighs a flight's geometry against the clip's own gravity, and
///    `ClipAppearance` its appearance against the clip's balls (a shadow is larger, softer, or an
///    affine copy of another path). A flight with `trajectoryLength` points and confidence of at
///    least 0.5 is reported: a `trajectory` event every frame it gains a point, and one
///    `trajectory.end` when it is over.
///
/// Version 2's design, `tracking` (compact moving blobs searched for a disc, linked frame by frame
/// by `TrajectoryTracker`), stays as an option: it still finds more throws on synthetic scenes.
///
/// Beyond Vision: the path is also fitted in time (so a vertical toss, which `y = f(x)` cannot
/// describe, is found), `objectMaximumNormalizedRadius` really filters, the end event gives launch
/// velocity, angle, apex and landing, and `filter=throw` applies Apple's sample-app logic.
public struct TrajectoryAnalyzer: Analyzer {
    public static let name = "trajectory"
    public static let version = "3"
    public static let summary = "parabolic trajectories of thrown objects (Vision's VNDetectTrajectoriesRequest, and beyond)"
    public static let eventTypes: [any EventPayload.Type] = [TrajectoryObservation.self, TrajectoryEnd.self]

    private let configuration: TrajectoryConfiguration
    private let streamIdentity: String
    /// The name the events are logged under: ids derive from it, so two instances never share one.
    private let instanceName: String
    private let setting: StageSetting
    private let report: TrajectoryReport
    private let filter: ReportFilter
    private var stages: any TrajectoryStages
    private var reported = 0

    /// Full-resolution buffers and the planes shrunk to `maximumProcessingDimension`; measured on
    /// 16384×16384 frames: 2.2 bytes per pixel (2.6 on noise). Unshrunk (0), every plane is full size.
    public static func memoryPerPixel(in configuration: TrajectoryConfiguration) -> Double {
        configuration.maximumProcessingDimension == 0 ? 12 : 3
    }

    public init(configuration: TrajectoryConfiguration, context: AnalyzerContext) throws {
        try configuration.validate()
        self.configuration = configuration
        streamIdentity = context.stream.identity
        instanceName = context.instanceName(of: Self.self)
        setting = StageSetting(configuration: configuration, stream: context.stream, regionOfInterest: context.regionOfInterest,
                               frameAnalysisSpacing: context.frameAnalysisSpacing)
        let geometry = setting.geometry
        stages = setting.makeStages()
        report = TrajectoryReport(geometry: geometry, trajectoryLength: configuration.trajectoryLength)
        filter = ReportFilter(configuration: configuration, regionLeft: Double(geometry.region.x0), regionWidth: Double(geometry.region.width))
    }

    public mutating func analyze(_ frame: Frame, into events: inout EventSink) throws {
        let (ended, gained) = stages.advance(frame)
        try emitEnds(ended, into: &events)
        for track in gained { try observe(track, into: &events) }
    }

    public mutating func finish(into events: inout EventSink) throws {
        // Finished first, in a statement of its own: as an argument of `emitEnds` (a non-mutating
        // method) it would run after `self` was read, and the ends would ask the stages as they were
        // before finishing (the window design then knew none of the flights it had just ended, and
        // logged their confidence as 0).
        let ended = stages.finish()
        try emitEnds(ended, into: &events)
    }

    /// Emits a `trajectory` event if the track has earned one.
    private mutating func observe(_ track: Track, into events: inout EventSink) throws {
        guard track.count >= configuration.trajectoryLength else { return }
        let radius = report.movingAverageRadius(track)
        guard radius >= setting.minimumRadiusPixels, radius <= setting.maximumRadiusPixels, stages.mayReport(track, radius: radius) else { return }
        let confidence = stages.confidence(track)
        guard confidence >= stages.minimumConfidence else { return }
        let a = report.equationCoefficients(track)[0]
        guard filter.passes(track, confidence: confidence, equationA: a) else { return }
        let ordinal: Int
        if let o = track.ordinal {
            ordinal = o
        } else {
            ordinal = reported
            reported += 1
            stages.markReported(serial: track.serial, ordinal: ordinal)
        }
        guard let observation = report.observation(track, id: id(ordinal), confidence: confidence) else { return }
        try events.emit(observation)
    }

    private func emitEnds(_ ended: [EndedPath], into events: inout EventSink) throws {
        for e in ended {
            guard let ordinal = e.track.ordinal else { continue }
            try events.emit(report.end(e.track, id: id(ordinal), reason: e.reason, confidence: stages.confidence(e.track)))
        }
    }

    private func id(_ ordinal: Int) -> String {
        DerivedIdentifier.make(streamIdentity: streamIdentity, analyzer: instanceName, kind: "trajectory", ordinal: ordinal)
    }
}
