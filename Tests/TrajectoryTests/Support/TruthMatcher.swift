import LumaAnalysis
import LumaBase
import LumaEngine
import LumaRegression
import LumaSynth
import LumaTruth
import TrajectoryAnalyzer

/// Scores found trajectories against truth segments with the library's rule (``TrajectoryScore``:
/// the one `lumatrace score` uses), and keeps what the quality sweep prints for diagnosis.
struct TruthMatcher {
    var minimumVisible = 10

    struct Score: CustomStringConvertible {
        var segments = 0
        var found = 0
        var trajectories = 0
        var correct = 0
        /// Segments found by more than one correct trajectory (the extra ones).
        var fragments = 0
        var errors: [Double] = []
        /// Segments not found, and trajectories not correct, described for diagnosis.
        var missed: [String] = []
        var wrong: [String] = []
        /// For correct trajectories: "truth end → reported reason" counts.
        var reasons: [String: Int] = [:]
        /// Point by point: truth positions covered, path points on a ball.
        var points = PointCoverage([], segments: [], pixels: (1, 1))

        var recall: Double { segments == 0 ? 1 : Double(found) / Double(segments) }
        var precision: Double { trajectories == 0 ? 1 : Double(correct) / Double(trajectories) }
        var medianError: Double {
            guard !errors.isEmpty else { return 0 }
            let s = errors.sorted()
            return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
        }

        static func + (a: Score, b: Score) -> Score {
            Score(segments: a.segments + b.segments, found: a.found + b.found, trajectories: a.trajectories + b.trajectories,
                  correct: a.correct + b.correct, fragments: a.fragments + b.fragments, errors: a.errors + b.errors,
                  missed: a.missed + b.missed, wrong: a.wrong + b.wrong,
                  reasons: a.reasons.merging(b.reasons, uniquingKeysWith: +), points: a.points + b.points)
        }

        var description: String {
            "segments \(segments), found \(found) (recall \(fixed(recall, 3))), trajectories \(trajectories), correct \(correct) "
                + "(precision \(fixed(precision, 3))), fragments \(fragments), median error \(fixed(medianError, 2)) px; "
                + "points: covered \(points.coveredTruthPoints) of \(points.truthPoints) (\(fixed(points.coverage, 3))), "
                + "on a ball \(points.pathPointsOnBall) of \(points.pathPoints) (\(fixed(points.precision, 3)))"
        }
    }

    func score(_ found: [TrajectoryEnd], truth: GroundTruth) -> Score {
        let logged = found.map {
            LoggedTrajectory(id: $0.id, analyzer: "trajectory", points: $0.points, confidence: $0.confidence, reason: $0.reason.rawValue,
                             endFrame: Int($0.points.last?[0] ?? 0))
        }
        let s = TrajectoryScore(logged, segments: truth.ballSegments, pixels: (Double(truth.width), Double(truth.height)),
                                minimumSegmentFrames: minimumVisible)
        var score = Score(segments: s.segments, found: s.found, trajectories: s.trajectories, correct: s.correct,
                          fragments: s.fragments, errors: s.errors, points: s.points)
        let segments = Dictionary(truth.ballSegments.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let trajectories = Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for (trajectory, segment) in s.followed {
            score.reasons["\(segments[segment]!.end) → \(trajectories[trajectory]!.reason.rawValue)", default: 0] += 1
        }
        score.missed = s.missed.map { id in
            let p = segments[id]!.points
            return "\(id) (\(p.count) frames from \(Int(p[0][0])), \(segments[id]!.end))"
        }
        score.wrong = s.closest.map { c in
            let t = trajectories[c.trajectory]!
            return "\(t.id.prefix(8)) (\(t.points.count) points from frame \(Int(t.points[0][0]))"
                + (c.segment.map { ", best \($0) agrees \(c.agreeing))" } ?? ")")
        }
        return score
    }
}

func fixed(_ v: Double, _ decimals: Int) -> String { DecimalText.fixed(v, decimals) }
