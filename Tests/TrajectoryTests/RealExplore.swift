import Testing
import Foundation
import LumaEngine
@testable import TrajectoryAnalyzer

@Suite struct RealExplore {
    @Test func real() throws {
        let env = ProcessInfo.processInfo.environment
        guard let path = env["LUMA"] else { return }
        let from = Int(env["FROM"] ?? "0") ?? 0, to = Int(env["TO"] ?? "100000") ?? 100000
        let reader = try RecordingReader(path: path)
        let h = reader.header
        let w = h.width, ht = h.height
        let geometry = ProcessingGeometry(frameWidth: w, frameHeight: ht, regionOfInterest: .full, maximumProcessingDimension: 640, minimumRadius: 0)
        let fps = h.nominalFrameRate
        var detector = MotionDetector(geometry: geometry, fixedThreshold: 0, minimumRadius: 0, maximumRadius: Double(w), settleFrames: Int((0.5 * fps).rounded(.up)))
        let quality = TrajectoryQuality(processingFactor: geometry.factor, frameSize: max(w, ht))
        var tracker = TrajectoryTracker(settings: .init(geometry: geometry, quality: quality, frameInterval: 1 / fps, radiusWindow: 10))
        let decoder = reader.makeDecoder()
        print("geometry factor \(geometry.factor) plane \(geometry.width)x\(geometry.height)")
        for entry in reader.chunks {
            let chunk = try decoder.decode(entry)
            for k in 0..<chunk.count {
                let i = entry.firstFrame + k
                if i > to { return }
                let t = Double(chunk.timestamps[k]) / Double(h.timescale)
                let ds = chunk.withFrame(k) { p in detector.detect(Frame(index: i, timestamp: Timestamp(ticks: chunk.timestamps[k], timescale: h.timescale), width: w, height: ht, pixels: p)) }
                let ended = tracker.advance(frame: i, time: t, detections: ds, finder: detector)
                guard i >= from else { continue }
                print("frame \(i) thr \(fixed(detector.threshold, 1)): dets " + ds.map { "(\(fixed($0.x, 1)),\(fixed($0.y, 1)) r\(fixed($0.radius, 1)) c\(fixed($0.contrast, 0))\($0.touchesEdge ? "E" : ""))" }.joined(separator: " "))
                for t in tracker.tracks {
                    let g = t.fit.map { fixed($0.acceleration, 0) } ?? "-"
                    let r = t.meanRadius(window: 10)
                    let ball = t.fit.map { _ in quality.isBallistic(t, radius: r) } ?? false
                    print("   track \(t.serial) n\(t.count) miss\(t.misses) g\(g)±\(fixed(t.fit?.accelerationError ?? 0, 0)) rms\(fixed(t.fit?.rms ?? 0, 2)) r\(fixed(r, 1)) ballistic \(ball) conf \(fixed(t.fit.map { quality.confidence($0, radius: r) } ?? 0, 2)) last (\(fixed(t.last.x, 1)),\(fixed(t.last.y, 1)))")
                }
                for e in ended { print("   ENDED \(e.track.serial) \(e.reason) n\(e.track.count)") }
            }
        }
    }
}
