import AnalyzerHarness
import LumaAnalysis
import LumaTestSupport
import Testing
@testable import RectanglesAnalyzer

@Suite("Rectangles analyzer: Vision's VNDetectRectanglesRequest options and observations")
struct RectanglesAnalyzerTests {
    /// Runs the analyzer on one 640×360 frame: background 80, a bright axis-aligned rectangle
    /// (pixels `x0..<x1`, rows `y0..<y1`), and a second, smaller one.
    private func detect(_ configuration: RectanglesConfiguration) throws -> [RectangleObservation] {
        let (w, h) = (640, 360)
        var pixels = [UInt8](repeating: 80, count: w * h)
        for y in 60..<300 { for x in 100..<420 { pixels[y * w + x] = 210 } }     // 320×240: aspect 0.75
        for y in 100..<200 { for x in 480..<600 { pixels[y * w + x] = 30 } }     // 120×100: aspect 0.83
        let events = try AnalyzerHarness(RectanglesAnalyzer.self, configuration: configuration)
            .run(frames: [HarnessFrame(width: w, height: h, pixels: pixels)])
        #expect(events.allSatisfy { $0.kind == "rectangle" })
        return try events.map { try $0.decode(RectangleObservation.self) }
    }

    @Test("the best rectangle, with Vision's corners (normalized, lower-left origin: topLeft has the larger y)")
    func bestRectangle() throws {
        let found = try detect(RectanglesConfiguration())
        #expect(found.count == 1)
        let r = try #require(found.first)
        let want: [(String, [Double], [Double])] = [
            ("topLeft", r.topLeft, [100.0 / 640, 1 - 60.0 / 360]), ("topRight", r.topRight, [420.0 / 640, 1 - 60.0 / 360]),
            ("bottomRight", r.bottomRight, [420.0 / 640, 1 - 300.0 / 360]), ("bottomLeft", r.bottomLeft, [100.0 / 640, 1 - 300.0 / 360]),
        ]
        for (name, got, expected) in want {
            #expect(abs(got[0] - expected[0]) * 640 <= 3 && abs(got[1] - expected[1]) * 360 <= 3, "\(name): \(got) vs \(expected)")
        }
        #expect(r.confidence >= 0.9)
    }

    @Test("maximumObservations 0 gives all; minimumSize and the aspect range filter")
    func options() throws {
        #expect(try detect(.with { $0.maximumObservations = 0 }).count == 2)
        #expect(try detect(.with { $0.maximumObservations = 0; $0.minimumSize = 0.5 }).count == 1)
        #expect(try detect(.with { $0.maximumObservations = 0; $0.minimumAspectRatio = 0.8 }).count == 1)
        #expect(try detect(.with { $0.maximumObservations = 0; $0.maximumAspectRatio = 0.7 }).isEmpty)
    }

    @Test("impossible options are refused, naming the option")
    func refusals() {
        func option(_ change: (inout RectanglesConfiguration) -> Void) -> String? {
            do { try RectanglesConfiguration.with(change).validate(); return nil } catch { return error.option }
        }
        #expect(option { $0.minimumAspectRatio = -0.1 } == "minimumAspectRatio")
        #expect(option { $0.minimumAspectRatio = 0.8; $0.maximumAspectRatio = 0.5 } == "maximumAspectRatio")
        #expect(option { $0.minimumSize = 2 } == "minimumSize")
        #expect(option { $0.minimumConfidence = .nan } == "minimumConfidence")
        #expect(option { $0.quadratureTolerance = 60 } == "quadratureTolerance")
        #expect(option { $0.maximumObservations = -1 } == "maximumObservations")
        #expect(option { _ in } == nil)
    }
}
