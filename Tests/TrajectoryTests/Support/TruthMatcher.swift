import LumaSynth
import LumaTruth
import TrajectoryAnalyzer

/// Scores found trajectories against a synthetic scene's truth segments.
///
/// Two paths are compared frame by frame where both have a point; a frame *agrees* when the points
/// are within `2 px + half the ball's radius`. Each found trajectory belongs to the truth segment it
/// agrees with most often; it is **correct** when it agrees there on at least 80% of the frames both
/// have, and those are at least half its points (real truth leaves out frames where the ball is
/// hard to see; a synthetic truth has every frame, so there the two are the same).
/// A truth segment with at least `minimumVisible` frames is **found** when a correct trajectory
/// belonging to it agrees on at least half of the segment's frames. Point error is measured, in
/// pixels, over every shared frame of every correct trajectory.
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
        /// Segments not found, and trajectories not correct, by id (for diagnosis).
        var missed: [String] = []
        var wrong: [String] = []
        /// For correct trajectories: "truth end → reported reason" counts.
        var reasons: [String: Int] = [:]

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
                  reasons: a.reasons.merging(b.reasons, uniquingKeysWith: +))
        }

        var description: String {
            "segments \(segments), found \(found) (recall \(fixed(recall, 3))), trajectories \(trajectories), correct \(correct) "
                + "(precision \(fixed(precision, 3))), fragments \(fragments), median error \(fixed(medianError, 2)) px"
        }
    }

    func score(_ found: [TrajectoryEnd], truth: GroundTruth) -> Score {
        let w = Double(truth.width), h = Double(truth.height)
        var score = Score()
        score.trajectories = found.count
        // Truth points by frame, per segment.
        let segments = truth.ballSegments
        var agreeing = [[Int]](repeating: [Int](repeating: 0, count: segments.count), count: found.count)
        var pairErrors = [[[Double]]](repeating: [[Double]](repeating: [], count: segments.count), count: found.count)
        var shared = [[Int]](repeating: [Int](repeating: 0, count: segments.count), count: found.count)
        for (si, s) in segments.enumerated() {
            var byFrame: [Int: [Double]] = [:]
            for p in s.points { byFrame[Int(p[0])] = p }
            for (ti, t) in found.enumerated() {
                for p in t.points {
                    guard let q = byFrame[Int(p[0])] else { continue }
                    let dx = (p[1] - q[1]) * w, dy = (p[2] - q[2]) * h
                    let d = (dx * dx + dy * dy).squareRoot()
                    pairErrors[ti][si].append(d)
                    shared[ti][si] += 1
                    if d <= 2 + 0.5 * q[3] * w { agreeing[ti][si] += 1 }
                }
            }
        }
        var foundBy = [Int](repeating: 0, count: segments.count)
        for (ti, t) in found.enumerated() {
            guard let si = segments.indices.max(by: { (agreeing[ti][$0], -$0) < (agreeing[ti][$1], -$1) }) else {
                score.wrong.append(t.id)
                continue
            }
            if Double(agreeing[ti][si]) >= 0.8 * Double(shared[ti][si]), 2 * shared[ti][si] >= t.points.count {
                score.correct += 1
                score.errors += pairErrors[ti][si]
                score.reasons["\(segments[si].end) → \(t.reason.rawValue)", default: 0] += 1
                if Double(agreeing[ti][si]) >= 0.5 * Double(segments[si].points.count) { foundBy[si] += 1 }
            } else {
                score.wrong.append("\(t.id.prefix(8)) (\(t.points.count) points from frame \(Int(t.points[0][0])), best \(segments[si].id) agrees \(agreeing[ti][si]))")
            }
        }
        for (si, s) in segments.enumerated() where s.points.count >= minimumVisible {
            score.segments += 1
            if foundBy[si] > 0 {
                score.found += 1
                score.fragments += foundBy[si] - 1
            } else {
                score.missed.append("\(s.id) (\(s.points.count) frames from \(Int(s.points[0][0])), \(s.end))")
            }
        }
        return score
    }
}

func fixed(_ v: Double, _ decimals: Int) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let n = (v * scale).rounded()
    let whole = Int(abs(n) / scale)
    var fraction = String(Int(abs(n).truncatingRemainder(dividingBy: scale)))
    while fraction.count < decimals { fraction = "0" + fraction }
    return (n < 0 ? "-" : "") + "\(whole)" + (decimals > 0 ? "." + fraction : "")
}
