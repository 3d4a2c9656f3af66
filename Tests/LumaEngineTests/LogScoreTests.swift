import LumaAnalysis
import LumaEngine
import LumaRegression
import LumaTruth
import Testing

/// Scores on cases small enough to work out by hand, in a 100×100-pixel frame (0.01 = 1 px).
@Suite("lumatrace score: trajectories and tracks against ground truth")
struct LogScoreTests {
    let pixels = (100.0, 100.0)

    /// A segment of `count` points moving right along y = 0.5, radius 1 px.
    func segment(_ id: String, from first: Int, count: Int, x0: Double) -> BallSegment {
        BallSegment(id: id, ball: id, end: "exit", points: (0..<count).map { [Double(first + $0), x0 + 0.02 * Double($0), 0.5, 0.01] })
    }

    @Test("one of two segments found, one of two trajectories correct: recall, precision and F1 0.5; errors 0…0.9 px")
    func trajectoryCounts() {
        let truth = [segment("a", from: 0, count: 10, x0: 0.1), segment("b", from: 20, count: 12, x0: 0.1)]
        // Follows segment a, its k-th point k × 0.1 px to the right: errors 0, 0.1, …, 0.9 px.
        let following = LoggedTrajectory(id: "t1", analyzer: "trajectory",
                                          points: truth[0].points.enumerated().map { k, p in [p[0], p[1] + 0.001 * Double(k), p[2], p[3]] },
                                          confidence: 0.9, reason: "exit", endFrame: 9)
        // During segment b's frames, but 20 px above it.
        let elsewhere = LoggedTrajectory(id: "t2", analyzer: "trajectory",
                                         points: truth[1].points.map { [$0[0], $0[1], $0[2] + 0.2, $0[3]] },
                                         confidence: 0.9, reason: "exit", endFrame: 31)
        let score = TrajectoryScore([following, elsewhere], segments: truth, pixels: pixels, minimumSegmentFrames: 10)
        #expect((score.segments, score.found, score.trajectories, score.correct) == (2, 1, 2, 1))
        #expect(score.recall == 0.5 && score.precision == 0.5 && score.f1 == 0.5)
        #expect(score.missed == ["b"] && score.falseAlarms == ["t2"])
        #expect(abs(score.medianError - 0.45) < 1e-9)  // mean of the 5th and 6th of ten: (0.4 + 0.5) / 2
        #expect(abs(score.error90 - 0.8) < 1e-9)       // nearest rank: the 9th of ten
    }

    @Test("a trajectory that agrees on only 7 of its 10 frames (under 80%) is not correct, and the segment is missed")
    func agreementBelowEightyPercent() {
        let truth = [segment("a", from: 0, count: 10, x0: 0.1)]
        // Three points 3 px off: beyond the 2 px + half the radius (2.5 px) agreement distance.
        let points = truth[0].points.enumerated().map { k, p in [p[0], p[1] + (k < 3 ? 0.03 : 0), p[2], p[3]] }
        let score = TrajectoryScore([LoggedTrajectory(id: "t", analyzer: "trajectory", points: points, confidence: 1, reason: "exit", endFrame: 9)],
                                    segments: truth, pixels: pixels, minimumSegmentFrames: 10)
        #expect((score.found, score.correct) == (0, 0))
        #expect(score.f1 == 0)
    }

    @Test("segments shorter than the minimum are neither found nor missed; nothing to find and nothing found scores 1")
    func shortSegments() {
        let score = TrajectoryScore([], segments: [segment("a", from: 0, count: 5, x0: 0.1)], pixels: pixels, minimumSegmentFrames: 10)
        #expect((score.segments, score.recall, score.precision, score.f1) == (0, 1, 1, 1))
    }

    @Test("points: a path that follows half a flight and then strays onto a shadow covers half the positions, and half its points are on the ball")
    func pointCoverage() {
        let truth = [segment("a", from: 0, count: 10, x0: 0.1)]
        // Frames 0…4 on the ball; 5…9 ten pixels below it (a shadow keeping pace).
        let points = truth[0].points.enumerated().map { k, p in [p[0], p[1], p[2] - (k < 5 ? 0 : 0.1), p[3]] }
        let path = LoggedTrajectory(id: "t", analyzer: "trajectory", points: points, confidence: 1, reason: "exit", endFrame: 9)
        let p = TrajectoryScore([path], segments: truth, pixels: pixels, minimumSegmentFrames: 10).points
        #expect((p.truthPoints, p.coveredTruthPoints, p.pathPoints, p.pathPointsOnBall, p.unjudgedPathPoints) == (10, 5, 10, 5, 0))
        #expect(p.coverage == 0.5 && p.precision == 0.5)
    }

    @Test("points: a path point in a frame the truth leaves out is unjudged when it lies on the ball's parabola, false when off it")
    func pointsInFramesTheTruthLeavesOut() {
        // A ball falling along y = 0.5 + 0.001 k² (normalized), with frame 5 and frame 10 left out of the truth.
        let all: [[Double]] = (0..<11).map { k in
            let t = Double(k)
            return [t, 0.1 + 0.02 * t, 0.5 + 0.001 * t * t, 0.01]
        }
        let truth = [BallSegment(id: "a", ball: "a", end: "caught", points: all.filter { $0[0] != 5 && $0[0] != 10 })]
        let onPath = LoggedTrajectory(id: "t1", analyzer: "trajectory", points: all, confidence: 1, reason: "end", endFrame: 10)
        var p = TrajectoryScore([onPath], segments: truth, pixels: pixels, minimumSegmentFrames: 5).points
        #expect((p.truthPoints, p.coveredTruthPoints, p.pathPoints, p.pathPointsOnBall, p.unjudgedPathPoints) == (9, 9, 9, 9, 2))
        // Frame 5 moved 5 px off the parabola: judged, and off every ball.
        var strayed = all
        strayed[5][2] += 0.05
        p = TrajectoryScore([LoggedTrajectory(id: "t2", analyzer: "trajectory", points: strayed, confidence: 1, reason: "end", endFrame: 10)],
                            segments: truth, pixels: pixels, minimumSegmentFrames: 5).points
        #expect((p.pathPoints, p.pathPointsOnBall, p.unjudgedPathPoints) == (10, 9, 1))
        // Three frames past the segment's end is beyond the truth's reach: judged, and false.
        let late: [[Double]] = all + [[13, 0.36, 0.669, 0.01]]
        p = TrajectoryScore([LoggedTrajectory(id: "t3", analyzer: "trajectory", points: late, confidence: 1, reason: "end", endFrame: 13)],
                            segments: truth, pixels: pixels, minimumSegmentFrames: 5).points
        #expect((p.pathPoints, p.pathPointsOnBall, p.unjudgedPathPoints) == (10, 9, 2))
    }

    @Test("tracking: IoUs 1, 1/3, lost, 0 give success AUC 6.75/21, precision at 20 px 0.5, one loss")
    func trackingScore() {
        let object = ObjectTrack(id: "object1", points: (0..<4).map { [Double($0), 0.1, 0.1, 0.2, 0.2] })
        var track = LoggedTrack(id: "T", analyzer: "tracking", kind: "track")
        track.boxes[0] = [0.1, 0.1, 0.2, 0.2]   // IoU 1, centre error 0
        track.boxes[1] = [0.2, 0.1, 0.2, 0.2]   // half a box to the right: IoU 1/3, centre error 10 px
        track.lostAt = [2]                       // no box in frame 2: IoU 0, a miss
        track.boxes[3] = [0.7, 0.7, 0.2, 0.2]   // far away: IoU 0, centre error 85 px
        let score = TrackingScore([track], objects: [object], pixels: pixels)
        // Thresholds 0, 0.05, …, 1: above 0 → 2 of 4; 0.05…0.30 (6 thresholds) → 2 of 4; 0.35…0.95 (13) → 1 of 4; 1 → 0.
        let expected = (0.5 + 6 * 0.5 + 13 * 0.25) / 21
        #expect(abs(score.successAUC - expected) < 1e-12)
        #expect(score.precision20 == 0.5)
        #expect(score.losses == 1)
        #expect(score.objects.map(\.track) == ["T"])
        #expect(score.unpairedTracks == 0)
    }

    @Test("tracking: a track labelled with the truth id is paired with it even when another overlaps more")
    func pairingByLabel() {
        let object = ObjectTrack(id: "object1", points: [[0, 0.1, 0.1, 0.2, 0.2]])
        var exact = LoggedTrack(id: "A", analyzer: "tracking", kind: "track")
        exact.boxes[0] = [0.1, 0.1, 0.2, 0.2]
        var labelled = LoggedTrack(id: "B", analyzer: "tracking", kind: "track")
        labelled.label = "object1"
        labelled.boxes[0] = [0.15, 0.1, 0.2, 0.2]
        let score = TrackingScore([exact, labelled], objects: [object], pixels: pixels)
        #expect(score.objects.first?.track == "B")
        #expect(score.unpairedTracks == 1)
    }

    @Test("the bundled synthetic recordings score as their golden logs say (end to end through the log)")
    func bundledRecordings() throws {
        let log = try EditedLog.golden("tracking-synth")
        let truth = try GroundTruth.read(EditedLog.recordings.appendingPathComponent("tracking-synth.truth.json").path)
        let score = try LogScore(log: log, truth: truth)
        #expect(score.trajectories == nil)
        let tracking = try #require(score.tracking)
        #expect(tracking.objects.map(\.id) == ["object1", "object2", "object3", "object4"])
        #expect(tracking.objects.allSatisfy { $0.frames == 90 })
        #expect(tracking.successAUC > 0 && tracking.successAUC <= 1)
    }
}
