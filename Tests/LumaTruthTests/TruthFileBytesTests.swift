import Foundation
import LumaTruth
import Testing
import LumaTestSupport

@Suite("Truth files read with the project's JSON parser and written back give the same bytes")
struct TruthFileBytesTests {
    static let recordings = PackageLayout.root.appendingPathComponent("Recordings")
    static let truthFiles = ["balls-synth.truth.json", "toss-real.truth.json", "tracking-synth.truth.json"]

    @Test("Each bundled truth file reads, and its canonical JSON is the file", arguments: truthFiles)
    func bundledTruthRoundTrips(name: String) throws {
        let path = Self.recordings.appendingPathComponent(name).path
        let truth = try GroundTruth.read(path)
        #expect(!truth.ballSegments.isEmpty || !truth.objectTracks.isEmpty, "the file holds truth")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(Array(truth.canonicalJSON().utf8) == Array(bytes))
    }

    @Test("Occlusion lists, empty lists and escaped text survive a write and a read")
    func everyMemberRoundTrips() throws {
        let truth = GroundTruth(
            width: 64, height: 48, frames: 10, notes: "a \"quoted\" note\nwith a line break",
            ballSegments: [BallSegment(id: "ball1.1", ball: "ball1", end: "exit", points: [[0, 0.5, 0.25, 0.031250], [1, 0.123457, 1, 0.03]])],
            objectTracks: [ObjectTrack(id: "object1", points: [[2, 0, 0, 0.5, 0.5]], occluded: [2]), ObjectTrack(id: "object2", points: [])])
        try withScratchFolder("truth") { folder in
            let path = "\(folder)/all.truth.json"
            try truth.canonicalJSON().write(toFile: path, atomically: true, encoding: .utf8)
            let read = try GroundTruth.read(path)
            #expect(read == truth)
            #expect(read.canonicalJSON() == truth.canonicalJSON())
        }
    }
}
