import LumaAnalysis
import LumaBase
import LumaTruth
@testable import TrajectoryAnalyzer

/// How well each appearance cue of the window design tells balls from shadows and other false
/// paths, against truth (issue 57, item 1): every path the design ends whose geometry alone would
/// let it be reported (`min(1, 2.5 × geometric) ≥ 0.5`) is judged a *ball* (at least half its points
/// within max(6 px, r) of a truth ball of their frame), a *shadow* (half its points on a known
/// shadow: the synthetic `crowded` scenes only) or *other*; and each cue's value on it is kept, as
/// the design measures it when the path ends (``WindowStages/appearanceReport(serial:)``).
///
/// The stages are the analyzer's own (``StageSetting/makeStages()``): nothing here rebuilds them.
struct CueFigures {
    enum Kind: String { case ball, shadow, other }

    /// One path: what it lies on, its cues and their evidence.
    struct Path {
        var kind: Kind
        var points: Int
        var geometric: Double
        var appearance: PathAppearance
        var evidence: ClipAppearance.Evidence
        var clip: ClipAppearance?
        /// Polarity signed so that the clip's ball polarity is positive (raw when uncalibrated).
        var polarity: Double { appearance.polarity * (clip?.polarity ?? 1) }
        var size: Double { clip.map { appearance.radius / max($0.radius, 1e-9) } ?? 0 }
        var edge: Double { clip.map { appearance.edgeWidth / max($0.edgeWidth, 1e-9) } ?? 0 }
        var confidence: Double { min(1, 2.5 * geometric) * ClipAppearance.factor(evidence) }
    }

    var paths: [Path] = []

    /// A truth position of a ball (or of a shadow), frame pixels, and how near a point must be.
    typealias Spot = (x: Double, y: Double, tolerance: Double)

    /// Runs the window design over `frameCount` frames that `render` draws and judges every ended
    /// path against `balls` and `shadows` (per frame).
    static func measure(width: Int, height: Int, frameCount: Int, framesPerSecond: Double,
                        balls: [Int: [Spot]], shadows: [Int: [Spot]] = [:],
                        render: (Int, UnsafeMutableBufferPointer<UInt8>) throws -> Void) throws -> CueFigures {
        let harness = StageHarness(width: width, height: height, frameCount: frameCount, framesPerSecond: framesPerSecond,
                                   configuration: .design(.window), identity: "cue-figures")
        guard var stages = harness.makeStages() as? WindowStages else { throw RealClip.Failure(description: "not the window design") }
        var figures = CueFigures()
        func judge(_ ended: [EndedPath], _ stages: WindowStages) {
            for e in ended {
                guard let report = stages.appearanceReport(serial: e.track.serial), min(1, 2.5 * report.geometric) >= 0.5 else { continue }
                let points = e.track.points
                func share(_ spots: [Int: [Spot]]) -> Double {
                    Double(points.filter { p in (spots[p.frame] ?? []).contains { ($0.x - p.x) * ($0.x - p.x) + ($0.y - p.y) * ($0.y - p.y) <= $0.tolerance * $0.tolerance } }.count)
                        / Double(max(1, points.count))
                }
                let kind: Kind = share(balls) >= 0.5 ? .ball : share(shadows) >= 0.5 ? .shadow : .other
                figures.paths.append(Path(kind: kind, points: points.count, geometric: report.geometric, appearance: report.appearance,
                                          evidence: report.evidence, clip: stages.clip))
            }
        }
        try harness.run(&stages, render: render, ended: judge)
        return figures
    }

    /// The truth's ball positions by frame, frame pixels, each within max(6 px, its radius).
    static func balls(_ truth: GroundTruth, width: Int, height: Int) -> [Int: [Spot]] {
        var at: [Int: [Spot]] = [:]
        for s in truth.ballSegments {
            for p in s.points { at[Int(p[0]), default: []].append((p[1] * Double(width), (1 - p[2]) * Double(height), max(6, p[3] * Double(width)))) }
        }
        return at
    }

    static func + (a: CueFigures, b: CueFigures) -> CueFigures { CueFigures(paths: a.paths + b.paths) }
}

extension CueFigures: CustomStringConvertible {
    /// Per cue: its value's quartiles on balls and on the rest, and the threshold that separates them
    /// best (fewest paths on the wrong side), with the balls it would reject and the rest it would keep.
    var description: String {
        let balls = paths.filter { $0.kind == .ball }, rest = paths.filter { $0.kind != .ball }
        var lines = ["paths the geometry passes: \(balls.count) on balls, \(rest.filter { $0.kind == .shadow }.count) on shadows, "
            + "\(rest.filter { $0.kind == .other }.count) other; calibrated on \(paths.filter { $0.clip != nil }.count)"]
        let cues: [(String, (Path) -> Double, Bool)] = [
            ("polarity (log luma ratio × clip polarity)", \.polarity, true),
            ("size (radius / clip's ball radius)", \.size, false),
            ("edge (edge width / clip's ball edge width)", \.edge, false),
            ("edge width, px", \.appearance.edgeWidth, false),
            ("lockstep (1: a copy of a better-looking path)", \.evidence.lockstep, false),
            ("evidence, all cues", \.evidence.total, false),
            ("confidence (geometry × appearance)", \.confidence, true),
        ]
        for (name, value, ballsHigh) in cues {
            let b = balls.map(value), r = rest.map(value)
            lines.append("  \(name): balls \(Self.quartiles(b)); not balls \(Self.quartiles(r)); " + Self.separation(b, r, ballsHigh: ballsHigh))
        }
        return lines.joined(separator: "\n")
    }

    static func quartiles(_ v: [Double]) -> String {
        guard !v.isEmpty else { return "none" }
        let s = v.sorted()
        return "[" + [0, 1, 2, 3, 4].map { fixed(s[min(s.count - 1, $0 * (s.count - 1) / 4)], 2) }.joined(separator: " ") + "]"
    }

    /// The best threshold: balls kept at or above it (`ballsHigh`) or below it.
    static func separation(_ balls: [Double], _ rest: [Double], ballsHigh: Bool) -> String {
        guard !balls.isEmpty || !rest.isEmpty else { return "" }
        var best = (errors: Int.max, threshold: 0.0, lost: 0, kept: 0)
        for t in (balls + rest).sorted() {
            let lost = balls.filter { ballsHigh ? $0 < t : $0 > t }.count
            let kept = rest.filter { ballsHigh ? $0 >= t : $0 <= t }.count
            if lost + kept < best.errors { best = (lost + kept, t, lost, kept) }
        }
        return "best threshold \(ballsHigh ? "≥" : "≤") \(fixed(best.threshold, 2)): \(best.lost) of \(balls.count) balls lost, "
            + "\(best.kept) of \(rest.count) others kept"
    }
}
