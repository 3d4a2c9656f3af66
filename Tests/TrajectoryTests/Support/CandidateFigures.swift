import LumaAnalysis
import LumaBase
import LumaImaging
import LumaTruth
@testable import TrajectoryAnalyzer

/// How well the candidate stage places balls, against truth: of the in-flight truth positions, the
/// share with a candidate among the frame's best `K` within max(6 px, the ball's radius) (recall
/// at K), the candidates per frame, and how far the nearest one lies from the ball's centre.
struct CandidateFigures: CustomStringConvertible {
    var positions = 0
    /// Positions with a candidate within the tolerance among the best 1, 5 and 10.
    var within: [Int: Int] = [1: 0, 5: 0, 10: 0]
    var frames = 0
    var candidates = 0
    /// For positions found among the best 10: the distance to the nearest candidate, frame pixels.
    var errors: [Double] = []
    /// For candidates on a ball: their radius over the ball's.
    var radiusRatios: [Double] = []

    func recall(at k: Int) -> Double { positions == 0 ? 0 : Double(within[k, default: 0]) / Double(positions) }

    var description: String {
        let sorted = errors.sorted()
        let median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
        let ratios = radiusRatios.sorted()
        func q(_ f: Double) -> String { ratios.isEmpty ? "-" : fixed(ratios[min(ratios.count - 1, Int(f * Double(ratios.count)))], 2) }
        return "candidates: recall@1/5/10 \(fixed(recall(at: 1), 3)) / \(fixed(recall(at: 5), 3)) / \(fixed(recall(at: 10), 3)) "
            + "of \(positions) in-flight positions, \(fixed(frames == 0 ? 0 : Double(candidates) / Double(frames), 1)) per frame, "
            + "median centre error \(fixed(median, 1)) px\n   radius / truth radius on a ball: p10 \(q(0.1)) p25 \(q(0.25)) median \(q(0.5)) p75 \(q(0.75)) p90 \(q(0.9))"
    }

    /// Runs the candidate stage, set up as the analyzer sets it up by default, over `frameCount`
    /// frames that `render` draws, and judges its candidates against `truth`.
    static func measure(truth: GroundTruth, width: Int, height: Int, frameCount: Int,
                        configuration: TrajectoryConfiguration = TrajectoryConfiguration(),
                        render: (Int, UnsafeMutableBufferPointer<UInt8>) throws -> Void) throws -> CandidateFigures {
        let harness = StageHarness(width: width, height: height, frameCount: frameCount, framesPerSecond: 30,
                                   configuration: configuration, identity: "candidate-figures")
        var finder = WindowStages.candidateFinder(harness.setting)
        var truthByFrame: [Int: [(x: Double, y: Double, tolerance: Double, radius: Double)]] = [:]
        for segment in truth.ballSegments {
            for p in segment.points {
                truthByFrame[Int(p[0]), default: []].append((p[1] * Double(width), (1 - p[2]) * Double(height), max(6, p[3] * Double(width)), p[3] * Double(width)))
            }
        }
        var figures = CandidateFigures()
        try harness.run(&finder, render: render) { index, found in
            figures.frames += 1
            figures.candidates += found.count
            for t in truthByFrame[index] ?? [] {
                figures.positions += 1
                for c in found where ((c.x - t.x) * (c.x - t.x) + (c.y - t.y) * (c.y - t.y)).squareRoot() <= t.tolerance { figures.radiusRatios.append(c.radius / t.radius) }
                let distances = found.map { (($0.x - t.x) * ($0.x - t.x) + ($0.y - t.y) * ($0.y - t.y)).squareRoot() }
                for k in [1, 5, 10] where distances.prefix(k).contains(where: { $0 <= t.tolerance }) { figures.within[k, default: 0] += 1 }
                if let nearest = distances.prefix(10).min(), nearest <= t.tolerance { figures.errors.append(nearest) }
            }
        }
        return figures
    }
}
