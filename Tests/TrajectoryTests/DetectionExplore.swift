import Testing
import Foundation
import LumaEngine
import LumaSynth
@testable import TrajectoryAnalyzer

@Suite struct DetectionExplore {
    @Test func detections() throws {
        let env = ProcessInfo.processInfo.environment
        guard let s = env["DSEED"], let seed = UInt64(s) else { return }
        let (kind, settings) = QualitySweep.settings(seed: seed)
        let scene = try SyntheticScene(kind: kind, settings: settings)
        let w = settings.width, h = settings.height
        let geometry = ProcessingGeometry(frameWidth: w, frameHeight: h, regionOfInterest: .full, maximumProcessingDimension: 640, minimumRadius: 0)
        var detector = MotionDetector(geometry: geometry, fixedThreshold: 0, minimumRadius: 0, maximumRadius: Double(w), settleFrames: 15)
        let ball = env["BALL"]
        var pixels = [UInt8](repeating: 0, count: w * h)
        for i in 0..<settings.frameCount {
            pixels.withUnsafeMutableBufferPointer { scene.render(frame: i, into: $0) }
            let ds = pixels.withUnsafeBufferPointer { p in
                detector.detect(Frame(index: i, timestamp: Timestamp(ticks: Int64(i), timescale: 30), width: w, height: h, pixels: p))
            }
            var line = "\(i) noise \(fixed(detector.noise ?? 0, 2)) thr \(fixed(detector.threshold, 1)) n=\(ds.count)"
            for seg in scene.truth.ballSegments where ball == nil || seg.ball == ball {
                guard let p = seg.points.first(where: { Int($0[0]) == i }) else { continue }
                let tx = p[1] * Double(w), ty = (1 - p[2]) * Double(h)
                let near = ds.min { hypot($0.x - tx, $0.y - ty) < hypot($1.x - tx, $1.y - ty) }
                line += " | \(seg.id) (\(fixed(tx, 1)),\(fixed(ty, 1))) "
                if let d = near, hypot(d.x - tx, d.y - ty) < 3 * p[3] * Double(w) + 3 {
                    line += "→ d(\(fixed(d.x - tx, 2)),\(fixed(d.y - ty, 2))) r\(fixed(d.radius, 1))/\(fixed(p[3] * Double(w), 1)) c\(fixed(d.contrast, 0))\(d.touchesEdge ? " EDGE" : "")"
                } else { line += "MISSING" }
            }
            print(line)
        }
    }
}
