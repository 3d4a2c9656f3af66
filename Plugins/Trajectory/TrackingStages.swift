import LumaAnalysis

/// Version 2's design: compact moving blobs against a running background, each looked at for the
/// disc of a ball (``MotionDetector``), linked frame by frame into tracks (``TrajectoryTracker``).
/// Strong on clean and synthetic scenes; on real footage with people moving, the disc search
/// inside every moving blob makes it slow, and blob centroids rarely lie on a ball.
struct TrackingStages: TrajectoryStages {
    private(set) var detector: MotionDetector
    private var tracker: TrajectoryTracker
    private var quality: TrajectoryQuality
    private let radiusWindow: Int

    /// Below this, a track is not reported: Vision, too, reports only trajectories it is confident about.
    var minimumConfidence: Double { 0.7 }

    init(_ setting: StageSetting) {
        detector = Self.detector(setting)
        quality = TrajectoryQuality(processingFactor: setting.geometry.factor, frameSize: setting.frameSize)
        radiusWindow = setting.configuration.trajectoryLength
        tracker = TrajectoryTracker(settings: .init(geometry: setting.geometry, quality: quality, frameInterval: setting.frameInterval,
                                                    radiusWindow: radiusWindow))
    }

    /// The detector as this design sets it up: a pixel becomes background after holding still for
    /// half a second.
    static func detector(_ setting: StageSetting) -> MotionDetector {
        MotionDetector(geometry: setting.geometry, fixedThreshold: setting.configuration.threshold,
                       minimumRadiusPixels: setting.minimumRadiusPixels, maximumRadiusPixels: setting.maximumRadiusPixels,
                       settleFrames: Int((0.5 / setting.frameInterval).rounded(.up)))
    }

    mutating func advance(_ frame: Frame) -> (ended: [EndedPath], gained: [Track]) {
        let detections = detector.detect(frame)
        let ended = tracker.advance(frame: frame.index, time: frame.timestamp.seconds, detections: detections, finder: detector)
        quality.noise = detector.noiseLevel
        return (ended.map { EndedPath(track: $0.track, reason: $0.reason) }, tracker.tracks.filter(\.gainedPoint))
    }

    mutating func finish() -> [EndedPath] {
        tracker.finish().map { EndedPath(track: $0.track, reason: $0.reason) }
    }

    mutating func markReported(serial: Int, ordinal: Int) {
        tracker.markReported(serial: serial, ordinal: ordinal)
    }

    func confidence(_ track: Track) -> Double {
        guard let fit = track.fit else { return 0 }
        return quality.confidence(fit, radius: track.meanRadius(window: radiusWindow))
    }

    func mayReport(_ track: Track, radius: Double) -> Bool {
        track.fit != nil && quality.isBallistic(track, radius: radius)
    }
}
