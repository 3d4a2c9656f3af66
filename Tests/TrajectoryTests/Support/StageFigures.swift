import LumaAnalysis
import LumaBase
import LumaImaging
import LumaTruth
@testable import TrajectoryAnalyzer

/// Where the trajectory analyzer loses a ball, stage by stage, against truth: the detector's
/// motion stage (is the ball inside a moving blob?), its appearance stage (is a detection's centre
/// on the ball?), and, from the score, the association (does a reported path cover it?). The
/// tolerance is the score's: `2 px + half the ball's radius`.
struct StageFigures: CustomStringConvertible {
    /// Truth ball positions (every point of every segment).
    var positions = 0
    /// Positions inside the extent of some detection's blob (grown by the tolerance).
    var proposed = 0
    /// Positions some detection's centre lies on.
    var located = 0
    /// Detections, and how many lie on a truth ball of their frame.
    var detections = 0
    var detectionsOnBall = 0

    var description: String {
        func share(_ a: Int, _ b: Int) -> String { b == 0 ? "-" : fixed(Double(a) / Double(b), 3) }
        return "motion: \(proposed) of \(positions) positions in a blob (\(share(proposed, positions))); "
            + "detections: \(located) of \(positions) positions located (\(share(located, positions))), "
            + "\(detectionsOnBall) of \(detections) detections on a ball (\(share(detectionsOnBall, detections)))"
    }

    static func + (a: StageFigures, b: StageFigures) -> StageFigures {
        StageFigures(positions: a.positions + b.positions, proposed: a.proposed + b.proposed, located: a.located + b.located,
                     detections: a.detections + b.detections, detectionsOnBall: a.detectionsOnBall + b.detectionsOnBall)
    }

    /// Runs the analyzer's detector, as the analyzer sets it up by default, over `frameCount`
    /// frames that `render` draws, and judges its detections against `truth`.
    static func measure(truth: GroundTruth, width: Int, height: Int, frameCount: Int, framesPerSecond: Double,
                        render: (Int, UnsafeMutableBufferPointer<UInt8>) throws -> Void) throws -> StageFigures {
        let stream = StreamInfo(width: width, height: height, timescale: 1_000_000, nominalFrameRate: framesPerSecond, frameCount: frameCount,
                                identity: "stage-figures")
        var detector = TrackingStages.detector(StageSetting(configuration: TrajectoryConfiguration(), stream: stream,
                                                            regionOfInterest: .full, frameAnalysisSpacing: 0))
        // Truth positions by frame, in frame pixels (top-left origin), with their tolerance.
        var truthByFrame: [Int: [(x: Double, y: Double, tolerance: Double)]] = [:]
        for segment in truth.ballSegments {
            for p in segment.points {
                truthByFrame[Int(p[0]), default: []].append((p[1] * Double(width), (1 - p[2]) * Double(height), 2 + 0.5 * p[3] * Double(width)))
            }
        }
        var figures = StageFigures()
        var pixels = [UInt8](repeating: 0, count: width * height)
        for index in 0..<frameCount {
            try pixels.withUnsafeMutableBufferPointer { try render(index, $0) }
            let timescale: Int64 = 1_000_000
            let detections = pixels.withUnsafeBufferPointer { buffer in
                detector.detect(Frame(index: index, timestamp: Timestamp(ticks: Int64(index) * timescale / Int64(max(1, framesPerSecond.rounded())), timescale: timescale),
                                      width: width, height: height, pixels: buffer))
            }
            let truths = truthByFrame[index] ?? []
            figures.positions += truths.count
            for t in truths {
                if detections.contains(where: { d in
                    t.x >= d.left - t.tolerance && t.x <= d.right + t.tolerance && t.y >= d.top - t.tolerance && t.y <= d.bottom + t.tolerance
                }) { figures.proposed += 1 }
                if detections.contains(where: { d in (d.x - t.x) * (d.x - t.x) + (d.y - t.y) * (d.y - t.y) <= t.tolerance * t.tolerance }) {
                    figures.located += 1
                }
            }
            figures.detections += detections.count
            figures.detectionsOnBall += detections.filter { d in
                truths.contains { t in (d.x - t.x) * (d.x - t.x) + (d.y - t.y) * (d.y - t.y) <= t.tolerance * t.tolerance }
            }.count
        }
        return figures
    }
}
