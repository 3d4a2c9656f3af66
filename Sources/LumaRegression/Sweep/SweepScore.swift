import LumaAnalysis
import LumaEngine

/// How one setting did on one recording, or pooled over a corpus: what `score` measures, kept as
/// counts so that scores of several recordings (or of shards) add up.
///
/// Pooled = counts summed, then the ratios: recall = found / segments, precision = correct /
/// reported over the corpus; the median point error over every correct trajectory's points; a
/// tracking success AUC and P@20px over every truth frame (each recording's weighted by its frames).
public struct SweepScore: Sendable, Equatable, Codable {
    /// Trajectories against ball segments (as ``TrajectoryScore``).
    public struct Trajectories: Sendable, Equatable, Codable {
        public var segments = 0
        public var found = 0
        public var reported = 0
        public var correct = 0
        /// Point errors (pixels) of the correct trajectories, ascending.
        public var pointErrors: [Double] = []

        public var recall: Double { segments == 0 ? 1 : Double(found) / Double(segments) }
        public var precision: Double { reported == 0 ? 1 : Double(correct) / Double(reported) }
        public var f1: Double { recall + precision == 0 ? 0 : 2 * recall * precision / (recall + precision) }
        public var medianError: Double { percentile(pointErrors, 0.5) }

        public init(segments: Int = 0, found: Int = 0, reported: Int = 0, correct: Int = 0, pointErrors: [Double] = []) {
            (self.segments, self.found, self.reported, self.correct, self.pointErrors) = (segments, found, reported, correct, pointErrors)
        }
    }

    /// Tracks against object tracks (as ``TrackingScore``).
    public struct Tracking: Sendable, Equatable, Codable {
        /// Truth frames scored.
        public var frames = 0
        public var successAUC = 0.0
        public var precision20 = 0.0
        public var losses = 0

        public init(frames: Int = 0, successAUC: Double = 0, precision20: Double = 0, losses: Int = 0) {
            (self.frames, self.successAUC, self.precision20, self.losses) = (frames, successAUC, precision20, losses)
        }
    }

    /// Events the setting logged.
    public var events = 0
    /// `nil` when the truth has no ball segments.
    public var trajectories: Trajectories?
    /// `nil` when the truth has no object tracks.
    public var tracking: Tracking?

    public init(events: Int = 0, trajectories: Trajectories? = nil, tracking: Tracking? = nil) {
        self.events = events
        self.trajectories = trajectories
        self.tracking = tracking
    }

    /// The score of one log, as `score` computed it, keeping what the analyzer can give: trajectories
    /// when it declares `pathEnd` events, tracking when it declares `box` events (`shapes`).
    public init(_ score: LogScore, events: Int, shapes: [EventShape]) {
        self.events = events
        if let t = score.trajectories, shapes.contains(.pathEnd) {
            trajectories = Trajectories(segments: t.segments, found: t.found, reported: t.trajectories, correct: t.correct,
                                        pointErrors: t.errors.sorted())
        }
        if let k = score.tracking, shapes.contains(.box) {
            tracking = Tracking(frames: k.objects.reduce(0) { $0 + $1.frames }, successAUC: k.successAUC, precision20: k.precision20,
                                losses: k.losses)
        }
    }

    /// The scores of several recordings pooled: counts summed, then ratios (see the type's summary).
    public static func pooled(_ scores: [SweepScore]) -> SweepScore {
        var pooled = SweepScore(events: scores.reduce(0) { $0 + $1.events })
        let trajectories = scores.compactMap(\.trajectories)
        if !trajectories.isEmpty {
            pooled.trajectories = Trajectories(segments: trajectories.reduce(0) { $0 + $1.segments }, found: trajectories.reduce(0) { $0 + $1.found },
                                               reported: trajectories.reduce(0) { $0 + $1.reported }, correct: trajectories.reduce(0) { $0 + $1.correct },
                                               pointErrors: trajectories.flatMap(\.pointErrors).sorted())
        }
        let tracking = scores.compactMap(\.tracking)
        if !tracking.isEmpty {
            let frames = tracking.reduce(0) { $0 + $1.frames }
            let weighted = { (value: (Tracking) -> Double) in
                frames == 0 ? 0 : tracking.reduce(0.0) { $0 + value($1) * Double($1.frames) } / Double(frames)
            }
            pooled.tracking = Tracking(frames: frames, successAUC: weighted(\.successAUC), precision20: weighted(\.precision20),
                                       losses: tracking.reduce(0) { $0 + $1.losses })
        }
        return pooled
    }
}
