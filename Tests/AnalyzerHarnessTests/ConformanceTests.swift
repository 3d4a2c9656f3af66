import AnalyzerHarness
import DifferencingAnalyzer
import ExternalAnalyzer
import Foundation
import LumaAnalysis
import LumaEngine
import RectanglesAnalyzer
import Testing
import TrackingAnalyzer
import TrajectoryAnalyzer
import LumaTestSupport

/// Every built-in analyzer passes the conformance check plugin authors run on theirs.
@Suite("Conformance of the built-in analyzers (AnalyzerHarness)")
struct ConformanceTests {
    @Test("differencing") func differencing() throws {
        try AnalyzerHarness(DifferencingAnalyzer.self).checkConformance(invalidOptions: [("threshold", "0"), ("mode", "sideways")])
    }

    @Test("trajectory") func trajectory() throws {
        try AnalyzerHarness(TrajectoryAnalyzer.self).checkConformance(invalidOptions: [("trajectoryLength", "1"), ("filter", "maybe")])
    }

    @Test("tracking, seeded on the moving square") func tracking() throws {
        var configuration = TrackingConfiguration()
        configuration.seeds = "square=0.0,0.53,0.1,0.14"
        try AnalyzerHarness(TrackingAnalyzer.self, configuration: configuration)
            .checkConformance(invalidOptions: [("trackingLevel", "medium"), ("seeds", "1,2,3"), ("lostThreshold", "0")])
    }

    @Test("rectangles") func rectangles() throws {
        try AnalyzerHarness(RectanglesAnalyzer.self).checkConformance(invalidOptions: [("minimumAspectRatio", "2")])
    }

    @Test("external, running the Python example", .externalPrograms) func external() throws {
        var configuration = ExternalConfiguration()
        configuration.command = try ProjectPython.require() + " "
            + PackageLayout.root.appendingPathComponent("Plugins/BrightnessHistogram/brightness_histogram.py").path
        configuration.options = .object([.init("every", .int(5))])
        try AnalyzerHarness(ExternalAnalyzer.self, configuration: configuration)
            .checkConformance(invalidOptions: [("timeout", "0"), ("command", ""), ("startTimeout", "0"), ("maximumLineBytes", "100"),
                                                ("maximumEventsPerFrame", "0"), ("maximumBytesPerFrame", "100")])
    }

    @Test("the harness feeds frames in memory and decodes typed events")
    func harnessRun() throws {
        let frames = (0..<12).map { HarnessFrame.square(64, 48, x: 3 * $0, y: 10, size: 6) }
        let events = try AnalyzerHarness(DifferencingAnalyzer.self).run(frames: frames)
        #expect(events.map(\.frame) == Array(1..<12), "one diff event per frame after the first")
        let first = try #require(events.first)
        #expect(first.kind == "diff")
        let blobs = try #require(first.payload["blobs"]?.arrayValue)
        #expect(blobs.count == 2, "the square where it left and where it arrived")
    }

    @Test("a broken analyzer fails the check with the rule it broke")
    func catchesNondeterminism() throws {
        #expect {
            try AnalyzerHarness(CoinFlip.self).checkConformance()
        } throws: { error in
            guard case .notDeterministic(analyzer: "coin-flip", _, let event)? = error as? HarnessFailure else { return false }
            return event >= 1 && "\(error)".contains("coin-flip is not deterministic")
        }
    }

    @Test("a configuration property its options do not declare fails the check, naming the properties")
    func catchesUndeclaredProperty() throws {
        #expect {
            try AnalyzerHarness(Undeclared.self).checkConformance()
        } throws: { "\($0)".contains("undeclared's options [level] are not its configuration's properties [level, gain]") }
    }
}

/// Declares `level` but not `gain`: `gain` would be missing from every log header.
struct Undeclared: Analyzer {
    struct Configuration: AnalyzerConfiguration {
        var level = 1
        var gain = 2.0
        init() {}
        static let options: [AnalyzerOption<Self>] = [AnalyzerOption("level", \.level, in: 0...9, help: "a level")]
    }
    static let name = "undeclared"
    static let version = "1"
    init(configuration: Configuration, context: AnalyzerContext) throws {}
    mutating func analyze(_ frame: Frame, into events: inout EventSink) throws {}
}

/// Emits a different value on every run: what the determinism rule catches.
struct CoinFlip: Analyzer {
    struct Configuration: AnalyzerConfiguration {
        init() {}
        static let options: [AnalyzerOption<Self>] = []
    }
    static let name = "coin-flip"
    static let version = "1"
    nonisolated(unsafe) static var runs = 0
    let run: Int
    init(configuration: Configuration, context: AnalyzerContext) throws {
        CoinFlip.runs += 1
        run = CoinFlip.runs
    }
    mutating func analyze(_ frame: Frame, into events: inout EventSink) throws {
        if frame.index == 0 { events.emit("flip", json: .int(Int64(run))) }
    }
}
