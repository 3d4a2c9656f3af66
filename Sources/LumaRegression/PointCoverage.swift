import LumaAnalysis
import LumaTruth

/// Trajectories scored point by point: what a crowded scene needs beside the throw counts.
///
/// Counting whole throws hides two failures that matter when several balls are in the air: a path
/// that follows a ball for only part of its flight (the throw is "found", half its positions are
/// not), and a path that strays onto a shadow or a hand for a few frames (the trajectory is still
/// "correct" on 80% of its frames). So every point is judged on its own, with the segment-level
/// tolerance (`2 px + half the truth ball's radius`):
///
/// - **Coverage**: the share of truth ball positions (every point of every ball segment, in flight
///   by definition) that some trajectory point in the same frame lies on.
/// - **Precision**: the share of trajectory points that lie on some truth ball in their frame. A
///   point on a shadow, a hand or a person is off every ball, so it counts against.
///
/// Truth made from real footage leaves out frames where the ball is hard to see (half hidden in a
/// hand, merged with a line). A trajectory point in such a frame cannot be judged from the truth:
/// when the frame lies within two frames of a segment that has no point there, and the point is
/// within the tolerance of where that segment's neighbouring points put the ball (the parabola
/// through its three nearest points), it is **unjudged** — counted apart, neither for nor against.
public struct PointCoverage: Sendable, Equatable {
    /// Truth ball positions, and how many a trajectory point lies on.
    public var truthPoints = 0
    public var coveredTruthPoints = 0
    /// Trajectory points judged, and how many lie on a truth ball.
    public var pathPoints = 0
    public var pathPointsOnBall = 0
    /// Trajectory points in frames the truth leaves out, on the path of the ball it leaves out.
    public var unjudgedPathPoints = 0

    /// Covered share of the truth positions (1 with none).
    public var coverage: Double { truthPoints == 0 ? 1 : Double(coveredTruthPoints) / Double(truthPoints) }
    /// Share of the judged trajectory points on a ball (1 with none).
    public var precision: Double { pathPoints == 0 ? 1 : Double(pathPointsOnBall) / Double(pathPoints) }

    /// Judges every point of `trajectories` against `segments` (normalized lower-left
    /// coordinates, as in logs and truth files) in a `pixels` (width, height) frame.
    public init(_ trajectories: [LoggedTrajectory], segments: [BallSegment], pixels: (Double, Double)) {
        let (w, h) = pixels
        // Truth positions by frame: (segment index, x, y, tolerance in pixels).
        var truthByFrame: [Int: [(segment: Int, x: Double, y: Double, tolerance: Double)]] = [:]
        for (si, s) in segments.enumerated() {
            for p in s.points {
                truthByFrame[frameNumber(p[0]), default: []].append((si, p[1] * w, p[2] * h, 2 + 0.5 * p[3] * w))
            }
        }
        truthPoints = truthByFrame.values.reduce(0) { $0 + $1.count }
        var pathByFrame: [Int: [(x: Double, y: Double)]] = [:]
        for t in trajectories {
            for p in t.points { pathByFrame[frameNumber(p[0]), default: []].append((p[1] * w, p[2] * h)) }
        }
        for (frame, truths) in truthByFrame {
            let path = pathByFrame[frame] ?? []
            for q in truths where path.contains(where: { Self.within($0, (q.x, q.y), q.tolerance) }) { coveredTruthPoints += 1 }
        }
        for (frame, path) in pathByFrame {
            let truths = truthByFrame[frame] ?? []
            for p in path {
                if truths.contains(where: { Self.within(p, ($0.x, $0.y), $0.tolerance) }) {
                    pathPoints += 1
                    pathPointsOnBall += 1
                } else if segments.indices.contains(where: { si in
                    !truths.contains(where: { $0.segment == si })
                        && Self.unannotated(segments[si], frame: frame, pixels: pixels).map { Self.within(p, ($0.x, $0.y), $0.tolerance) } == true
                }) {
                    unjudgedPathPoints += 1
                } else {
                    pathPoints += 1
                }
            }
        }
    }

    /// The counts of two scorings together (a sweep's total).
    public static func + (a: PointCoverage, b: PointCoverage) -> PointCoverage {
        var sum = a
        sum.truthPoints += b.truthPoints
        sum.coveredTruthPoints += b.coveredTruthPoints
        sum.pathPoints += b.pathPoints
        sum.pathPointsOnBall += b.pathPointsOnBall
        sum.unjudgedPathPoints += b.unjudgedPathPoints
        return sum
    }

    private static func within(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double), _ tolerance: Double) -> Bool {
        let dx = a.x - b.x, dy = a.y - b.y
        return dx * dx + dy * dy <= tolerance * tolerance
    }

    /// Where segment `s` puts its ball in `frame`, which it has no point for, when `frame` lies
    /// within two frames of its span: the quadratic through its three points nearest in time,
    /// in pixels, with their tolerance. `nil` outside that reach or with fewer than three points.
    static func unannotated(_ s: BallSegment, frame: Int, pixels: (Double, Double)) -> (x: Double, y: Double, tolerance: Double)? {
        let (w, h) = pixels
        guard s.points.count >= 3, let first = s.points.first, let last = s.points.last,
              frame >= frameNumber(first[0]) - 2, frame <= frameNumber(last[0]) + 2 else { return nil }
        let nearest = s.points.sorted { (abs(frameNumber($0[0]) - frame), $0[0]) < (abs(frameNumber($1[0]) - frame), $1[0]) }.prefix(3)
        let t = nearest.map { $0[0] }
        guard Set(t).count == 3 else { return nil }
        // Lagrange weights of the three frames at `frame`.
        let f = Double(frame)
        let weights = (0..<3).map { i in
            (0..<3).filter { $0 != i }.reduce(1.0) { $0 * (f - t[$1]) / (t[i] - t[$1]) }
        }
        var x = 0.0, y = 0.0
        for (i, p) in nearest.enumerated() {
            x += weights[i] * p[1] * w
            y += weights[i] * p[2] * h
        }
        return (x, y, 2 + 0.5 * nearest.first![3] * w)
    }
}
