import AnalyzerHarness
import DifferencingAnalyzer
import Foundation
import LumaAnalysis
import LumaEngine
import LumaFormat
import RectanglesAnalyzer
import Testing
import TrackingAnalyzer
import TrajectoryAnalyzer
import LumaTestSupport

/// The harness's default route analyzes frames in memory, writing nothing; it must give exactly
/// what a replay of the same frames' recording gives.
@Suite("Harness routes: frames analyzed in memory give the log a replay of their recording gives")
struct HarnessRouteTests {
    /// The bundled real toss: 60 frames of 640×360 with a thrown ball and a moving arm.
    static func toss() throws -> [HarnessFrame] {
        let reader = try RecordingReader(path: PackageLayout.recordings.appendingPathComponent("toss-real.luma").path)
        return try decodedFrames(reader).map { HarnessFrame(width: reader.header.width, height: reader.header.height, pixels: $0.pixels) }
    }

    /// The in-memory log and the log of a replay of the frames' recording: the same frames digest,
    /// the same event lines (their SHA-256 in the footer) and counts, at one thread or two.
    static func sameLog<A: Analyzer>(_ harness: AnalyzerHarness<A>, atLeast events: Int) throws {
        let frames = try toss()
        let draw: (Int, UnsafeMutableBufferPointer<UInt8>) throws -> Void = { i, pixels in _ = pixels.initialize(from: frames[i].pixels) }
        for jobs in [1, 2] {
            let inMemory = try harness.log(width: frames[0].width, height: frames[0].height, frameCount: frames.count, jobs: jobs, draw: draw)
            let replayed = try harness.withRecording(of: frames) { try harness.log(recording: $0, jobs: jobs) }
            #expect(inMemory.header.recordingFile == "(memory)")
            #expect(inMemory.header.recordingDigest == replayed.header.recordingDigest)
            #expect(inMemory.events.count >= events, "\(A.name): \(inMemory.events.count) events")
            #expect(inMemory.events.map(\.json.serialized) == replayed.events.map(\.json.serialized), "\(A.name), \(jobs) jobs")
            #expect(inMemory.end?.eventsDigest == replayed.end?.eventsDigest && inMemory.end?.complete == true)
            #expect(try harness.run(frames: frames, jobs: jobs).map(\.kind) == replayed.events.map(\.kind))
        }
    }

    @Test("differencing") func differencing() throws {
        try Self.sameLog(AnalyzerHarness(DifferencingAnalyzer.self), atLeast: 59)
    }

    @Test("trajectory: the toss is found in memory as in the replay") func trajectory() throws {
        try Self.sameLog(AnalyzerHarness(TrajectoryAnalyzer.self), atLeast: 2)
    }

    @Test("tracking, seeded on the wall") func tracking() throws {
        var configuration = TrackingConfiguration()
        configuration.seeds = "wall=0.2,0.5,0.1,0.1"
        try Self.sameLog(AnalyzerHarness(TrackingAnalyzer.self, configuration: configuration), atLeast: 59)
    }

    @Test("rectangles") func rectangles() throws {
        try Self.sameLog(AnalyzerHarness(RectanglesAnalyzer.self), atLeast: 0)
    }

    @Test("in memory, each frame is drawn once, in order, as a decoder hands frames over")
    func drawsEachFrameOnce() throws {
        var drawn: [Int] = []
        _ = try AnalyzerHarness(DifferencingAnalyzer.self).run(width: 32, height: 24, frameCount: 12) { i, pixels in
            drawn.append(i)
            pixels.update(repeating: UInt8(i * 10))
        }
        #expect(drawn == Array(0..<12))
    }

    @Test("frames of two sizes, or none, are refused before anything runs")
    func refusals() throws {
        let harness = AnalyzerHarness(DifferencingAnalyzer.self)
        #expect(throws: HarnessFailure.frameSizesDiffer(frame: 1, width: 9, height: 8, firstWidth: 8, firstHeight: 8)) {
            try harness.run(frames: [HarnessFrame.filled(8, 8, value: 1), HarnessFrame.filled(9, 8, value: 1)])
        }
        #expect(HarnessFailure.frameSizesDiffer(frame: 1, width: 9, height: 8, firstWidth: 8, firstHeight: 8).description
                    == "frame 1 is 9x8, the first is 8x8")
        #expect(throws: HarnessFailure.noFrames) { try harness.run(frames: []) }
        #expect(throws: HarnessFailure.emptyFrame(width: 0, height: 24)) {
            try harness.run(width: 0, height: 24, frameCount: 3) { _, _ in }
        }
    }
}
