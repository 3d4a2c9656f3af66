import LumaAnalysis
import LumaBase
import LumaTruth
@testable import TrajectoryAnalyzer

/// Where the window design loses each throw of the truth, stage by stage: the candidates (in-flight
/// positions with a candidate among the frame's ten), the association (the flight that covers the
/// most of the throw, its points on it), and the confidence (the flight's, and the geometric
/// factors that set it; geometry only: the appearance cues are `CueFigures`').
struct FlightFigures: CustomStringConvertible {
    struct Throw {
        var id: String
        var frames: Int
        /// In-flight positions with a candidate within max(6 px, r).
        var withCandidate = 0
        /// The flight with the most points on the throw: its points on it, all its points, its
        /// confidence and what set it.
        var bestOnThrow = 0
        var bestPoints = 0
        var bestConfidence = 0.0
        var factors = ""
        /// Every flight with points on the throw: "first–last frame (points on it / points)".
        var pieces: [String] = []
    }
    var throwsSeen: [Throw] = []
    /// Flights of at least ten points and confidence 0.5 on no throw: what they are and why they pass.
    var others: [String] = []
    /// Each in-flight position's nearest candidate within 1.5 max(6 px, r), with its throw: candidate
    /// minus truth, frame pixels.
    var centreErrors: [(id: String, dx: Double, dy: Double, radius: Double)] = []

    /// The candidates' centre error against the truth: median distance, mean offset, the scatter
    /// about it and about each throw's own mean offset (what breaks a flight: a constant offset does
    /// not), the share within 2 and 4 px; the candidates' radius, and how often it jumps between
    /// one position of a throw and the next (the gate is half of it).
    var centreSummary: String {
        guard !centreErrors.isEmpty else { return "centres: none near the truth" }
        let d = centreErrors.map { ($0.dx * $0.dx + $0.dy * $0.dy).squareRoot() }.sorted()
        let n = Double(d.count)
        let mx = centreErrors.map(\.dx).reduce(0, +) / n, my = centreErrors.map(\.dy).reduce(0, +) / n
        let spread = (centreErrors.map { ($0.dx - mx) * ($0.dx - mx) + ($0.dy - my) * ($0.dy - my) }.reduce(0, +) / n).squareRoot()
        var within = 0.0, steps = 0, jumps = 0
        for id in Set(centreErrors.map(\.id)).sorted() {
            let mine = centreErrors.filter { $0.id == id }
            for (a, b) in zip(mine, mine.dropFirst()) {
                steps += 1
                if max(a.radius, b.radius) > 1.5 * min(a.radius, b.radius) { jumps += 1 }
            }
            let (ux, uy) = (mine.map(\.dx).reduce(0, +) / Double(mine.count), mine.map(\.dy).reduce(0, +) / Double(mine.count))
            within += mine.map { ($0.dx - ux) * ($0.dx - ux) + ($0.dy - uy) * ($0.dy - uy) }.reduce(0, +)
        }
        return "centres: \(d.count) near the truth, median error \(fixed(d[d.count / 2], 2)) px, mean offset (\(fixed(mx, 2)), \(fixed(my, 2))), "
            + "spread about it \(fixed(spread, 2)) px, about each throw's own offset \(fixed((within / n).squareRoot(), 2)) px, "
            + "within 2 px \(fixed(Double(d.filter { $0 <= 2 }.count) / n, 3)), within 4 px \(fixed(Double(d.filter { $0 <= 4 }.count) / n, 3)); "
            + "radius median \(fixed(centreErrors.map(\.radius).sorted()[d.count / 2], 1)) px, changing by more than 1.5 times "
            + "from one frame to the next on \(jumps) of \(steps)"
    }

    var description: String {
        centreSummary + "\n" + throwsSeen.map { t in
            "\(t.id) (\(t.frames) frames): candidates \(t.withCandidate), best flight \(t.bestOnThrow) on it of \(t.bestPoints), "
                + "confidence \(fixed(t.bestConfidence, 2)) [\(t.factors)] pieces \(t.pieces.joined(separator: ", "))"
        }.joined(separator: "\n") + (others.isEmpty ? "" : "\nnot on a throw:\n" + others.joined(separator: "\n"))
    }

    static func measure(truth: GroundTruth, width: Int, height: Int, frameCount: Int, framesPerSecond: Double,
                        render: (Int, UnsafeMutableBufferPointer<UInt8>) throws -> Void) throws -> FlightFigures {
        let harness = StageHarness(width: width, height: height, frameCount: frameCount, framesPerSecond: framesPerSecond,
                                   configuration: .design(.window), identity: "flight-figures")
        var stages = harness.windowStages()
        var truthAt: [Int: [(id: String, x: Double, y: Double, tolerance: Double)]] = [:]
        var figures = FlightFigures()
        for s in truth.ballSegments {
            figures.throwsSeen.append(Throw(id: s.id, frames: s.points.count))
            for p in s.points {
                truthAt[Int(p[0]), default: []].append((s.id, p[1] * Double(width), (1 - p[2]) * Double(height), max(6, p[3] * Double(width))))
            }
        }
        var flights: [Flight] = []
        stages.probe = StageProbe(candidates: { index, found in
            for t in truthAt[index] ?? [] {
                let reach = max(6, 1.5 * t.tolerance)
                let near = found.map { (dx: $0.x - t.x, dy: $0.y - t.y, radius: $0.radius) }.filter { $0.dx * $0.dx + $0.dy * $0.dy <= reach * reach }
                if let best = near.min(by: { $0.dx * $0.dx + $0.dy * $0.dy < $1.dx * $1.dx + $1.dy * $1.dy }) { figures.centreErrors.append((t.id, best.dx, best.dy, best.radius)) }
            }
            for t in truthAt[index] ?? [] where found.contains(where: { ($0.x - t.x) * ($0.x - t.x) + ($0.y - t.y) * ($0.y - t.y) <= t.tolerance * t.tolerance }) {
                if let k = figures.throwsSeen.firstIndex(where: { $0.id == t.id }) { figures.throwsSeen[k].withCandidate += 1 }
            }
        }, ended: { flights += $0.map(\.flight) })
        try harness.run(&stages, render: render)
        for k in figures.throwsSeen.indices {
            let id = figures.throwsSeen[k].id
            for f in flights {
                let on = f.points.filter { p in
                    (truthAt[p.frame] ?? []).contains { $0.id == id && ($0.x - p.x) * ($0.x - p.x) + ($0.y - p.y) * ($0.y - p.y) <= $0.tolerance * $0.tolerance }
                }.count
                if on >= 2 { figures.throwsSeen[k].pieces.append("\(f.first.frame)–\(f.last.frame) (\(on)/\(f.count))") }
                guard on > figures.throwsSeen[k].bestOnThrow else { continue }
                let (confidence, g, _) = stages.geometricReport(f)
                figures.throwsSeen[k].bestOnThrow = on
                figures.throwsSeen[k].bestPoints = f.count
                figures.throwsSeen[k].bestConfidence = confidence
                figures.throwsSeen[k].factors = "length \(fixed(g.length, 2)) residual \(fixed(g.residual, 2)) gravity \(fixed(g.gravity, 2)) "
                    + "disc \(fixed(g.disc, 2)) travel \(fixed(g.travel, 2)) fill \(fixed(g.fill, 2)) sagitta \(fixed(g.sagitta, 2))"
            }
        }
        for f in flights where f.count >= 10 {
            let on = f.points.contains { p in
                (truthAt[p.frame] ?? []).contains { ($0.x - p.x) * ($0.x - p.x) + ($0.y - p.y) * ($0.y - p.y) <= $0.tolerance * $0.tolerance }
            }
            let (confidence, g, clipGravity) = stages.geometricReport(f)
            guard !on, confidence >= 0.5 else { continue }
            let fit = BallisticFit(f.points[...])
            figures.others.append("\(f.first.frame)–\(f.last.frame) (\(f.count) points, radius \(fixed(f.radius, 1)), from \(Int(f.first.x)),\(Int(f.first.y)) to \(Int(f.last.x)),\(Int(f.last.y))): "
                + "confidence \(fixed(confidence, 2)), gravity \(fixed(fit?.acceleration ?? 0, 0)) of the clip's \(fixed(clipGravity ?? 0, 0)), "
                + "log luma ratio \(fixed(f.logLumaRatio, 2)) [length \(fixed(g.length, 2)) residual \(fixed(g.residual, 2)) gravity \(fixed(g.gravity, 2)) "
                + "disc \(fixed(g.disc, 2)) travel \(fixed(g.travel, 2)) fill \(fixed(g.fill, 2)) sagitta \(fixed(g.sagitta, 2))]")
        }
        return figures
    }
}
