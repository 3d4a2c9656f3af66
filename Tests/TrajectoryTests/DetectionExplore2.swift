import Testing
import Foundation
import LumaEngine
import LumaSynth
@testable import TrajectoryAnalyzer

@Suite struct DetectionExplore2 {
    @Test func centroidVariants() throws {
        let env = ProcessInfo.processInfo.environment
        guard env["VARIANTS"] != nil else { return }
        for variant in 0..<1 {
            _ = variant
            var errs: [Double] = [], rerr: [Double] = []
            var bx = 0.0, by = 0.0, n = 0, missing = 0
            for seed in (ProcessInfo.processInfo.environment["VSEEDS"] ?? "1,2,3,5,6,7").split(separator: ",").map({ UInt64($0)! }) {
                let (kind, settings) = QualitySweep.settings(seed: seed)
                let scene = try SyntheticScene(kind: kind, settings: settings)
                let w = settings.width, h = settings.height
                let geometry = ProcessingGeometry(frameWidth: w, frameHeight: h, regionOfInterest: .full, maximumProcessingDimension: 640, minimumRadius: 0)
                var detector = MotionDetector(geometry: geometry, fixedThreshold: 0, minimumRadius: 0, maximumRadius: Double(w), settleFrames: 15)
                var pixels = [UInt8](repeating: 0, count: w * h)
                for i in 0..<settings.frameCount {
                    pixels.withUnsafeMutableBufferPointer { scene.render(frame: i, into: $0) }
                    let ds = pixels.withUnsafeBufferPointer { p in
                        detector.detect(Frame(index: i, timestamp: Timestamp(ticks: Int64(i), timescale: 30), width: w, height: h, pixels: p))
                    }
                    if i < 20 { continue }
                    for seg in scene.truth.ballSegments {
                        guard let p = seg.points.first(where: { Int($0[0]) == i }) else { continue }
                        let tx = p[1] * Double(w), ty = (1 - p[2]) * Double(h), tr = p[3] * Double(w)
                        guard tx > tr + 2, ty > tr + 2, tx < Double(w) - tr - 2, ty < Double(h) - tr - 2 else { continue }
                        // skip when another ball is near
                        var crowded = false
                        for o in scene.truth.ballSegments where o.ball != seg.ball {
                            if let q = o.points.first(where: { Int($0[0]) == i }), hypot(q[1] * Double(w) - tx, (1 - q[2]) * Double(h) - ty) < 4 * tr + 4 * q[3] * Double(w) { crowded = true }
                        }
                        if crowded { continue }
                        let near = ds.min { hypot($0.x - tx, $0.y - ty) < hypot($1.x - tx, $1.y - ty) }
                        if let d = near, hypot(d.x - tx, d.y - ty) < tr + 3 {
                            errs.append(hypot(d.x - tx, d.y - ty)); rerr.append(d.radius - tr)
                            bx += d.x - tx; by += d.y - ty; n += 1
                        } else { missing += 1 }
                    }
                }
            }
            errs.sort(); rerr.sort()
            print("variant \(variant): n \(n) missing \(missing) median \(fixed(errs[errs.count / 2], 3)) p90 \(fixed(errs[errs.count * 9 / 10], 3)) bias (\(fixed(bx / Double(n), 3)), \(fixed(by / Double(n), 3))) radius err median \(fixed(rerr[rerr.count / 2], 2))")
        }
    }
}
