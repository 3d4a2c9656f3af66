import Testing
import Foundation
import LumaEngine
import LumaSynth
@testable import TrajectoryAnalyzer

@Suite struct TrackerExplore {
    @Test func tracks() throws {
        let env = ProcessInfo.processInfo.environment
        guard let s = env["TSEED"], let seed = UInt64(s) else { return }
        let from = Int(env["FROM"] ?? "0") ?? 0, to = Int(env["TO"] ?? "1000") ?? 1000
        let (kind, settings) = QualitySweep.settings(seed: seed)
        let scene = try SyntheticScene(kind: kind, settings: settings)
        let w = settings.width, h = settings.height
        let geometry = ProcessingGeometry(frameWidth: w, frameHeight: h, regionOfInterest: .full, maximumProcessingDimension: 640, minimumRadius: 0)
        var detector = MotionDetector(geometry: geometry, fixedThreshold: 0, minimumRadius: 0, maximumRadius: Double(w), settleFrames: 15)
        let quality = TrajectoryQuality(processingFactor: 1, frameSize: max(w, h))
        var tracker = TrajectoryTracker(settings: .init(geometry: geometry, quality: quality, frameInterval: 1.0 / 30, radiusWindow: 10))
        var pixels = [UInt8](repeating: 0, count: w * h)
        for i in 0..<min(settings.frameCount, to + 1) {
            pixels.withUnsafeMutableBufferPointer { scene.render(frame: i, into: $0) }
            let ds = pixels.withUnsafeBufferPointer { p in
                detector.detect(Frame(index: i, timestamp: Timestamp(ticks: Int64(i), timescale: 30), width: w, height: h, pixels: p))
            }
                        let ended = tracker.advance(frame: i, time: Double(i) / 30, detections: ds, finder: detector)
            guard i >= from else { continue }
            print("frame \(i): dets " + ds.map { "(\(fixed($0.x, 1)),\(fixed($0.y, 1)) r\(fixed($0.radius, 1))\($0.touchesEdge ? "E" : ""))" }.joined(separator: " "))
            for t in tracker.tracks {
                let g = t.fit.map { fixed($0.acceleration, 0) } ?? "-"
                let r = t.meanRadius(window: 10)
                let ball = t.fit.map { _ in quality.isBallistic(t, radius: r) } ?? false
                print("   track \(t.serial) n\(t.count) miss\(t.misses) g\(g) rms\(fixed(t.fit?.rms ?? 0, 2)) ballistic \(ball) conf \(fixed(t.fit.map { quality.confidence($0, radius: r) } ?? 0, 2)) last (\(fixed(t.last.x, 1)),\(fixed(t.last.y, 1)))")
            }
            for e in ended { print("   ENDED \(e.track.serial) \(e.reason) n\(e.track.count)") }
        }
    }
}
