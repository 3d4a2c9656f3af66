import Testing
import Foundation
import LumaSynth
import TrajectoryAnalyzer

@Suite struct ExploreTests {
    @Test func explore() throws {
        let env = ProcessInfo.processInfo.environment
        if let s = env["SEED"], let seed = UInt64(s) {
            let (kind, settings) = QualitySweep.settings(seed: seed)
            let scene = try SyntheticScene(kind: kind, settings: settings)
            let run = try AnalyzerHarness.run(scene)
            let w = Double(settings.width), h = Double(settings.height)
            func px(_ p: [Double]) -> String { "\(Int(p[0])):(\(fixed(p[1] * w, 1)),\(fixed((1 - p[2]) * h, 1)) r\(fixed(p[3] * w, 1)))" }
            print("contents:", scene.contents.balls.map { "\($0.id) r\(fixed($0.radius, 1)) c\(fixed($0.contrast, 0))" }, "floor", scene.contents.floorLine)
            for s in scene.truth.ballSegments {
                print("TRUTH \(s.id) \(s.end): " + s.points.map(px).joined(separator: " "))
            }
            for e in run.ends {
                print("FOUND \(e.id.prefix(8)) \(e.reason) conf \(fixed(e.confidence, 2)) g \(fixed(-2 * e.timeFit.y[2] * h, 0)): " + e.points.map(px).joined(separator: " "))
            }
            return
        }
        let n = UInt64(env["SWEEP"] ?? "8") ?? 8
        let start = UInt64(env["SWEEP_START"] ?? "1") ?? 1
        let r = try QualitySweep.run(seeds: Array(start..<(start + n)))
        print(r.table)
    }
}
