import Foundation
import LumaSynth
import LumaTruth
import Testing

@Suite("Truth files: canonical JSON that any decoder reads back")
struct GroundTruthJSONTests {
    @Test("Canonical JSON decodes back into an equal truth", arguments: SceneKind.allCases)
    func roundTrip(kind: SceneKind) throws {
        let truth = try makeScene(kind, seed: 11).truth
        let text = truth.canonicalJSON()
        let decoded = try JSONDecoder().decode(GroundTruth.self, from: Data(text.utf8))
        #expect(decoded == truth)
        #expect(decoded.format == "lumatrace-truth" && decoded.version == 1)
    }

    @Test("Numbers are the shortest 6-decimal text, keys in a fixed order, never -0")
    func numberFormat() {
        let truth = GroundTruth(
            width: 640, height: 360, frames: 2, notes: "a \"quoted\"\nnote",
            ballSegments: [BallSegment(id: "ball1.1", ball: "ball1", end: "exit", points: [[0, 0.5, 0.25, 0.0125], [1, 0.1234565, -0.0000001, 1]])],
            objectTracks: [ObjectTrack(id: "object1", points: [[0, 0, 1, 0.5, 0.5]], occluded: [0])])
        let text = truth.canonicalJSON()
        #expect(text.contains("[0, 0.5, 0.25, 0.0125]"))
        #expect(text.contains("[1, 0.123457, 0, 1]") || text.contains("[1, 0.123456, 0, 1]"))
        #expect(text.contains(#""notes": "a \"quoted\"\nnote""#))
        #expect(text.contains(#"{"id": "object1", "occluded": [0], "points": "#))
        let keys = ["\"format\"", "\"version\"", "\"width\"", "\"height\"", "\"frames\"", "\"notes\"", "\"ballSegments\"", "\"objectTracks\""]
        let positions = keys.compactMap { text.range(of: $0)?.lowerBound }
        #expect(positions.count == keys.count && positions == positions.sorted())
        #expect(!text.contains("-0,") && !text.contains("-0]"))
    }

    @Test("Every stored number has at most 6 decimals")
    func rounding() throws {
        let truth = try makeScene(.mixed, seed: 2).truth
        let numbers = truth.ballSegments.flatMap { $0.points.flatMap { $0 } } + truth.objectTracks.flatMap { $0.points.flatMap { $0 } }
        for value in numbers { #expect(abs(value * 1e6 - (value * 1e6).rounded()) < 1e-6) }
        for segment in truth.ballSegments { for p in segment.points { #expect(p[0] == p[0].rounded()) } }
    }

    @Test("Notes say how the scene was made")
    func notes() throws {
        let scene = try makeScene(.mixed, seed: 77)
        let notes = scene.truth.notes
        #expect(notes.contains("'mixed'") && notes.contains("seed 77"))
        #expect(notes.contains("320x180 px") && notes.contains("30 fps") && notes.contains("150 frames"))
        #expect(notes.contains("lower-left"))
    }
}
