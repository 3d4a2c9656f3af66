import Foundation
import LumaTruth
import Testing
import LumaTestSupport

/// Truth files whose numbers describe nothing a recording can show are refused where they are
/// read, and an import never writes one (issue 56, L9 and L18).
@Suite("Impossible truth is refused: frames past the recording, values beyond ±10^6, radii ≤ 0, empty segments")
struct ImpossibleTruthTests {
    static let ball = BallSegment(id: "b.1", ball: "b", end: "end", points: [[0, 0.5, 0.5, 0.01], [1, 0.5, 0.6, 0.01]])

    /// `truth` written as a file and read back: the error `read` throws, or nil.
    static func readError(_ truth: GroundTruth) throws -> TruthError? {
        try withScratchFolder("truth") { dir in
            let path = "\(dir)/t.truth.json"
            try truth.canonicalJSON().write(toFile: path, atomically: true, encoding: .utf8)
            do { _ = try GroundTruth.read(path) } catch let error as TruthError { return TruthError(path: "t.truth.json", line: error.line, error.problem) }
            return nil
        }
    }

    @Test("a coordinate beyond ±10^6, a radius of zero or less, and a ball segment with no point are refused, each named; a track with no point is an object never in view")
    func impossiblePoints() throws {
        func truth(_ segments: [BallSegment], _ tracks: [ObjectTrack] = []) -> GroundTruth {
            GroundTruth(width: 640, height: 480, frames: 60, notes: "", ballSegments: segments, objectTracks: tracks)
        }
        #expect(try Self.readError(truth([Self.ball])) == nil)
        var far = Self.ball
        far.points[1][1] = 5e6
        #expect(try Self.readError(truth([far])) == TruthError(path: "t.truth.json", .pointValueOutOfRange(owner: "ball segment b.1", point: 2, value: 5e6, limit: 1e6)))
        for radius in [0.0, -1] {
            var flat = Self.ball
            flat.points[0][3] = radius
            #expect(try Self.readError(truth([flat])) == TruthError(path: "t.truth.json", .radiusNotPositive(owner: "ball segment b.1", point: 1, radius: radius)))
        }
        var empty = Self.ball
        empty.points = []
        #expect(try Self.readError(truth([empty])) == TruthError(path: "t.truth.json", .noPoints(owner: "ball segment b.1")))
        #expect(try Self.readError(truth([], [ObjectTrack(id: "o", points: [])])) == nil, "a track of no points is read")
        let wide = ObjectTrack(id: "o", points: [[3, 0.1, 0.1, 2e6, 0.1]])
        #expect(try Self.readError(truth([], [wide])) == TruthError(path: "t.truth.json", .pointValueOutOfRange(owner: "object track o", point: 1, value: 2e6, limit: 1e6)))
        #expect(TruthProblem.radiusNotPositive(owner: "ball segment b.1", point: 1, radius: -1).description == "ball segment b.1: point 1 has radius -1.0, not positive")
    }

    @Test("a truth of more frames than the recording is refused, naming both counts")
    func framesPastRecording() {
        let truth = GroundTruth(width: 640, height: 480, frames: 1_000_000_000_000, notes: "", ballSegments: [Self.ball])
        #expect(throws: TruthError(path: "t.truth.json", .framesPastRecording(frames: 1_000_000_000_000, frameCount: 60))) {
            try truth.check(againstFrames: 60, width: 640, height: 480, path: "t.truth.json")
        }
        #expect(TruthProblem.framesPastRecording(frames: 61, frameCount: 60).description == "truth describes 61 frames, more than the recording's 60")
        let fits = GroundTruth(width: 640, height: 480, frames: 60, notes: "", ballSegments: [Self.ball])
        #expect(throws: Never.self) { try fits.check(againstFrames: 60, width: 640, height: 480, path: "t.truth.json") }
    }

    @Test("an import whose labels normalize past ±10^6 is refused with the line, never written as a file read refuses")
    func importOutOfRange() {
        #expect(throws: TruthError(path: "big.txt", line: 2, .labelOutOfRange(value: 1e308, limit: 1e6))) {
            try GroundTruth.imported(.otb, from: "1,1,10,20\n1e308,1e308,1e308,1e308\n", path: "big.txt", geometry: .init(width: 100, height: 100))
        }
        #expect(throws: TruthError(path: "b.csv", line: 3, .labelOutOfRange(value: -9e200, limit: 1e6))) {
            try GroundTruth.imported(.tracknet, from: "Frame,Visibility,X,Y\n0,1,10,10\n1,1,-9e200,10\n", path: "b.csv", geometry: .init(width: 100, height: 100))
        }
        #expect(TruthProblem.labelOutOfRange(value: 1e308, limit: 1e6).description
            == "1e+308 is no pixel of the frame: normalized, it is outside the ±1000000 a truth file holds")
    }

    @Test("a label file that starts with a UTF-8 byte order mark imports as the same file without it")
    func byteOrderMark() throws {
        let plain = try GroundTruth.imported(.otb, from: "1,1,10,20\n5,5,10,20\n", path: "x", geometry: .init(width: 100, height: 100))
        let marked = try GroundTruth.imported(.otb, from: "\u{FEFF}1,1,10,20\n5,5,10,20\n", path: "x", geometry: .init(width: 100, height: 100))
        #expect(marked == plain)
        let balls = try GroundTruth.imported(.tracknet, from: "\u{FEFF}Frame,Visibility,X,Y\n0,1,10,10\n", path: "b.csv", geometry: .init(width: 100, height: 100))
        #expect(balls.ballSegments.map(\.points.count) == [1])
    }
}
