import Foundation
import LumaAnalysis
import LumaEngine
import LumaTruth

/// How well a log's observations match ground truth: trajectories against the truth's ball
/// segments, tracks against its object tracks.
///
/// Only truth frames inside the log's replayed range (`replay.from…to` in its header) count.
public struct LogScore: Sendable {
    /// `nil` when the truth has no ball segments.
    public var trajectories: TrajectoryScore?
    /// `nil` when the truth has no object tracks.
    public var tracking: TrackingScore?

    /// Throws when the log's observations are out of range (see ``LoggedObservations/init(_:)``).
    public init(log: EventLog, truth: GroundTruth, minimumSegmentFrames: Int = 10) throws(EventLogError) {
        let observations = try LoggedObservations(log)
        let range = log.header.firstFrame...log.header.lastFrame
        let size = (Double(log.header.width), Double(log.header.height))
        if !truth.ballSegments.isEmpty {
            let segments = truth.ballSegments.map { s in
                BallSegment(id: s.id, ball: s.ball, end: s.end, points: s.points.filter { range.contains(frameNumber($0[0])) })
            }
            trajectories = TrajectoryScore(observations.trajectories, segments: segments, pixels: size, minimumSegmentFrames: minimumSegmentFrames)
        }
        if !truth.objectTracks.isEmpty {
            let objects = truth.objectTracks.map { t in
                ObjectTrack(id: t.id, points: t.points.filter { range.contains(frameNumber($0[0])) }, occluded: t.occluded)
            }
            tracking = TrackingScore(observations.tracks.filter { $0.shape == .box }, objects: objects, pixels: size)
        }
    }
}

/// Trajectories scored at segment level, with the point error of the correct ones.
///
/// Two paths are compared frame by frame where both have a point; a frame *agrees* when the points
/// are within `2 px + half the truth ball's radius`. Each trajectory belongs to the truth segment it
/// agrees with most often; it is **correct** when it agrees there on at least 80% of the frames
/// both have, and those are at least half its points (real truth leaves out frames where the ball
/// is hard to see). A truth segment with at least `minimumSegmentFrames` frames is **found** when a
/// correct trajectory belonging to it agrees on at least half of the segment's frames.
/// Recall = found / segments, precision = correct / trajectories, F1 their harmonic mean (each
/// 1 when there is nothing to find or nothing was reported). Point error is measured in pixels
/// over every shared frame of every correct trajectory.
public struct TrajectoryScore: Sendable {
    /// Truth segments long enough to count, and how many of them were found.
    public var segments = 0
    public var found = 0
    /// Trajectories in the log, and how many of them are correct.
    public var trajectories = 0
    public var correct = 0
    /// Segments found more than once (the extra correct trajectories).
    public var fragments = 0
    /// Point errors, pixels, ascending.
    public var errors: [Double] = []
    /// Segment ids not found, and ids of trajectories that are not correct.
    public var missed: [String] = []
    public var falseAlarms: [String] = []
    /// Each correct trajectory's id, with the id of the segment it follows.
    public var followed: [(trajectory: String, segment: String)] = []
    /// Each incorrect trajectory's id, with the segment it agrees with most and on how many frames.
    public var closest: [(trajectory: String, segment: String?, agreeing: Int)] = []
    /// Every point judged on its own: how many truth positions the paths cover, and how many path
    /// points lie on a ball (``PointCoverage``).
    public var points = PointCoverage([], segments: [], pixels: (1, 1))

    public var recall: Double { segments == 0 ? 1 : Double(found) / Double(segments) }
    public var precision: Double { trajectories == 0 ? 1 : Double(correct) / Double(trajectories) }
    public var f1: Double { recall + precision == 0 ? 0 : 2 * recall * precision / (recall + precision) }
    /// Median point error, pixels (0 with no correct trajectory).
    public var medianError: Double { percentile(errors, 0.5) }
    /// 90th percentile point error, pixels (the nearest-rank value).
    public var error90: Double { percentile(errors, 0.9) }

    public init(_ reported: [LoggedTrajectory], segments truthSegments: [BallSegment], pixels: (Double, Double), minimumSegmentFrames: Int) {
        let (w, h) = pixels
        trajectories = reported.count
        points = PointCoverage(reported, segments: truthSegments, pixels: pixels)
        var agreeing = [[Int]](repeating: [Int](repeating: 0, count: truthSegments.count), count: reported.count)
        var shared = agreeing
        var pairErrors = [[[Double]]](repeating: [[Double]](repeating: [], count: truthSegments.count), count: reported.count)
        for (si, s) in truthSegments.enumerated() {
            let byFrame = Dictionary(s.points.map { (frameNumber($0[0]), $0) }, uniquingKeysWith: { a, _ in a })
            for (ti, t) in reported.enumerated() {
                for p in t.points {
                    guard let q = byFrame[frameNumber(p[0])] else { continue }
                    let dx = (p[1] - q[1]) * w, dy = (p[2] - q[2]) * h
                    let d = (dx * dx + dy * dy).squareRoot()
                    pairErrors[ti][si].append(d)
                    shared[ti][si] += 1
                    if d <= 2 + 0.5 * q[3] * w { agreeing[ti][si] += 1 }
                }
            }
        }
        var foundBy = [Int](repeating: 0, count: truthSegments.count)
        for (ti, t) in reported.enumerated() {
            let best = truthSegments.indices.max(by: { (agreeing[ti][$0], -$0) < (agreeing[ti][$1], -$1) })
            guard let si = best, shared[ti][si] > 0,
                  Double(agreeing[ti][si]) >= 0.8 * Double(shared[ti][si]), 2 * shared[ti][si] >= t.points.count else {
                falseAlarms.append(t.id)
                closest.append((t.id, best.map { truthSegments[$0].id }, best.map { agreeing[ti][$0] } ?? 0))
                continue
            }
            correct += 1
            followed.append((t.id, truthSegments[si].id))
            errors += pairErrors[ti][si]
            if 2 * agreeing[ti][si] >= truthSegments[si].points.count { foundBy[si] += 1 }
        }
        for (si, s) in truthSegments.enumerated() where s.points.count >= minimumSegmentFrames {
            segments += 1
            if foundBy[si] > 0 {
                found += 1
                fragments += foundBy[si] - 1
            } else {
                missed.append(s.id)
            }
        }
        errors.sort()
    }
}

/// Tracks scored like OTB's one-pass evaluation, per truth object and over all of them.
///
/// Each truth object is paired with one `track`: the one carrying its id as label if there is one,
/// otherwise the unpaired track with the largest IoU summed over the object's frames. In every
/// truth frame the paired track's box is compared with the truth box; a frame where the track has
/// no box (not started yet, or lost) has IoU 0 and counts as a miss at every distance.
/// Success AUC is the mean, over IoU thresholds 0, 0.05, …, 1, of the share of frames with an IoU
/// above the threshold; precision at 20 px is the share of frames whose box centre is within
/// 20 pixels of the truth's. The totals pool the frames of all objects.
public struct TrackingScore: Sendable, Equatable {
    public struct Object: Sendable, Equatable {
        /// The truth object's id, and the id of the track paired with it (`nil`: none).
        public var id: String
        public var track: String?
        public var frames: Int
        public var successAUC: Double
        public var precision20: Double
        /// `track.lost` events of the paired track.
        public var losses: Int
    }

    public var objects: [Object] = []
    /// Over all truth frames of all objects.
    public var successAUC = 0.0
    public var precision20 = 0.0
    public var losses = 0
    /// Tracks not paired with any truth object.
    public var unpairedTracks = 0

    public static let thresholds = (0...20).map { Double($0) / 20 }

    public init(_ tracks: [LoggedTrack], objects truthObjects: [ObjectTrack], pixels: (Double, Double)) {
        let (w, h) = pixels
        var used = [Bool](repeating: false, count: tracks.count)
        var pairs = [Int?](repeating: nil, count: truthObjects.count)
        // Labels first, then overlap, each object in truth order.
        for (oi, o) in truthObjects.enumerated() {
            if let ti = tracks.indices.first(where: { !used[$0] && tracks[$0].label == o.id }) {
                pairs[oi] = ti
                used[ti] = true
            }
        }
        for (oi, o) in truthObjects.enumerated() where pairs[oi] == nil {
            var best: (overlap: Double, index: Int)?
            for (ti, t) in tracks.enumerated() where !used[ti] {
                let overlap = o.points.reduce(0.0) { sum, p in t.boxes[frameNumber(p[0])].map { sum + intersectionOverUnion($0, Array(p[1...])) } ?? sum }
                if overlap > 0, overlap > (best?.overlap ?? 0) { best = (overlap, ti) }
            }
            if let best {
                pairs[oi] = best.index
                used[best.index] = true
            }
        }
        var allIoU: [Double] = [], allHits = 0
        for (oi, o) in truthObjects.enumerated() {
            let track = pairs[oi].map { tracks[$0] }
            var ious: [Double] = [], hits = 0
            for p in o.points {
                let truthBox = Array(p[1...])
                guard let box = track?.boxes[frameNumber(p[0])] else {
                    ious.append(0)
                    continue
                }
                ious.append(intersectionOverUnion(box, truthBox))
                let dx = (box[0] + box[2] / 2 - truthBox[0] - truthBox[2] / 2) * w
                let dy = (box[1] + box[3] / 2 - truthBox[1] - truthBox[3] / 2) * h
                if (dx * dx + dy * dy).squareRoot() <= 20 { hits += 1 }
            }
            objects.append(Object(id: o.id, track: track?.id, frames: ious.count, successAUC: Self.successAUC(ious),
                                  precision20: ious.isEmpty ? 0 : Double(hits) / Double(ious.count), losses: track?.lostAt.count ?? 0))
            allIoU += ious
            allHits += hits
            losses += track?.lostAt.count ?? 0
        }
        successAUC = Self.successAUC(allIoU)
        precision20 = allIoU.isEmpty ? 0 : Double(allHits) / Double(allIoU.count)
        unpairedTracks = used.filter { !$0 }.count
    }

    /// OTB success AUC of per-frame IoUs (0 for no frames).
    public static func successAUC(_ ious: [Double]) -> Double {
        guard !ious.isEmpty else { return 0 }
        let shares = thresholds.map { t in Double(ious.filter { $0 > t }.count) / Double(ious.count) }
        return shares.reduce(0, +) / Double(thresholds.count)
    }
}

/// The `q` quantile of ascending `values` (median: mean of the two middle values; otherwise the
/// nearest-rank value); 0 for none.
func percentile(_ values: [Double], _ q: Double) -> Double {
    guard !values.isEmpty else { return 0 }
    if q == 0.5 {
        let n = values.count
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2
    }
    let rank = Int((q * Double(values.count)).rounded(.up))
    return values[max(0, min(values.count - 1, rank - 1))]
}
