import LumaAnalysis

/// One design of the trajectory analyzer's stages: from frames to candidates, from candidates to
/// paths, and how confident each path is. The analyzer reports what a design hands it (the same
/// events, ids and filters whatever the design), so designs can be swapped, compared on the same
/// frames and measured stage by stage.
///
/// Two designs exist (``TrajectoryConfiguration/Design``): ``WindowStages`` (discs of motion energy
/// and flights found by a window over the clip, the default since version 3) and ``TrackingStages``
/// (version 2's blobs and frame-by-frame tracker).
protocol TrajectoryStages {
    /// Takes one analyzed frame. Returns the paths whose end became clear in it, then the open
    /// paths that gained a point, each in the order they are reported.
    mutating func advance(_ frame: Frame) -> (ended: [EndedPath], gained: [Track])
    /// Ends every open path (the recording is over).
    mutating func finish() -> [EndedPath]
    /// Gives path `serial` the ordinal of its id, once it is first reported.
    mutating func markReported(serial: Int, ordinal: Int)
    /// How confident the design is that `track` is a thrown object's path, 0…1.
    func confidence(_ track: Track) -> Double
    /// Whether `track`, of mean radius `radius` (frame pixels), may be reported at all.
    func mayReport(_ track: Track, radius: Double) -> Bool
    /// Below this confidence a path is not reported whatever the options say.
    var minimumConfidence: Double { get }
}

/// What a design's stages hand on, frame by frame, for whoever measures them (the stage figures,
/// the tests): a probe sees what passes between two stages and changes nothing, as GStreamer's pad
/// probes do. A design calls each probe that is set, in frame order.
struct StageProbe {
    /// The candidates of each analyzed frame (its index), best first, as the candidate stage handed them on.
    var candidates: ((_ frame: Int, _ candidates: [Candidate]) -> Void)?
    /// The flights that ended in a frame, or when the recording ended, and why.
    var ended: ((_ flights: [FlightFinder.Ended]) -> Void)?

    init(candidates: ((Int, [Candidate]) -> Void)? = nil, ended: (([FlightFinder.Ended]) -> Void)? = nil) {
        (self.candidates, self.ended) = (candidates, ended)
    }
}

/// A path whose end became clear, and why it ended.
struct EndedPath: Sendable {
    var track: Track
    var reason: TrajectoryEnd.Reason
}

/// Where the stages of either design look and how often: what the analyzer works out once from
/// the stream, its region of interest and the options.
struct StageSetting: Sendable {
    let configuration: TrajectoryConfiguration
    let geometry: ProcessingGeometry
    /// Nominal time between analyzed frames, seconds.
    let frameInterval: Double
    /// The configured radius range in frame pixels.
    let minimumRadiusPixels: Double
    let maximumRadiusPixels: Double
    /// The longer side of the frame, pixels.
    let frameSize: Int

    init(configuration: TrajectoryConfiguration, stream: StreamInfo, regionOfInterest: NormalizedRect, frameAnalysisSpacing: Double) {
        self.configuration = configuration
        let width = Double(stream.width)
        minimumRadiusPixels = configuration.objectMinimumNormalizedRadius * width
        maximumRadiusPixels = configuration.objectMaximumNormalizedRadius * width
        geometry = ProcessingGeometry(
            frameWidth: stream.width, frameHeight: stream.height, regionOfInterest: regionOfInterest,
            maximumProcessingDimension: configuration.maximumProcessingDimension,
            minimumNormalizedRadius: configuration.objectMinimumNormalizedRadius)
        let nominal = stream.nominalFrameRate > 0 && stream.nominalFrameRate.isFinite ? 1 / stream.nominalFrameRate : 1.0 / 30
        frameInterval = max(nominal, frameAnalysisSpacing)
        frameSize = max(stream.width, stream.height)
    }

    /// The stages of the configured design: the one place either is set up, for the analyzer,
    /// the stage figures and the benchmark alike.
    func makeStages() -> any TrajectoryStages {
        switch configuration.design {
        case .tracking: return TrackingStages(self)
        case .window: return WindowStages(self)
        }
    }
}
