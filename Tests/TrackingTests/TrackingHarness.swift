import AnalyzerHarness
import LumaAnalysis
import TrackingAnalyzer

/// Runs the tracking analyzer through `AnalyzerHarness` (the real replay engine) on frames drawn
/// on demand, and decodes what it said.
struct TrackingRun {
    var events: [HarnessEvent]

    func tracks(label: String) -> [(frame: Int, observation: TrackObservation)] {
        events.filter { $0.kind == "track" }
            .map { ($0.frame, try! $0.decode(TrackObservation.self)) }
            .filter { $0.observation.label == label }
    }

    func kinds(_ kind: String) -> [(frame: Int, payload: JSONValue)] {
        events.filter { $0.kind == kind }.map { ($0.frame, $0.payload) }
    }

    static func run(width: Int, height: Int, frames: Int, configuration: TrackingConfiguration,
                    render: (Int, UnsafeMutableBufferPointer<UInt8>) -> Void) throws -> TrackingRun {
        let harness = AnalyzerHarness(TrackingAnalyzer.self, configuration: configuration)
        return TrackingRun(events: try harness.run(width: width, height: height, frameCount: frames, draw: render))
    }
}

/// Intersection over union of two `[x, y, w, h]` boxes.
func intersectionOverUnion(_ a: [Double], _ b: [Double]) -> Double {
    let ix = max(0, min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]))
    let iy = max(0, min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]))
    let i = ix * iy, u = a[2] * a[3] + b[2] * b[3] - i
    return u > 0 ? i / u : 0
}

/// A fixed pseudo-random texture value at (x, y) for pattern `seed`, 0...255.
func texture(_ x: Int, _ y: Int, seed: UInt32) -> UInt8 {
    var h = UInt32(truncatingIfNeeded: x &* 73_856_093) ^ UInt32(truncatingIfNeeded: y &* 19_349_663) ^ (seed &* 83_492_791)
    h = (h ^ (h >> 13)) &* 0x5bd1_e995
    return UInt8(truncatingIfNeeded: h >> 24)
}
