import Foundation
import LumaTruth
import Testing
import LumaTestSupport

/// A text file of the clip corpus (``ClipCorpus``).
func sharedText(_ path: String) throws -> String {
    try String(contentsOf: ClipCorpus.require().appendingPathComponent(path), encoding: .utf8)
}

/// Rounded to the truth file's 6 decimals.
func round6(_ v: Double) -> Double { (v * 1e6).rounded() / 1e6 }

@Suite("Importing other datasets' labels as ground truth")
struct TruthImportTests {
    @Test("OTB otb-crossing (commas, CRLF): one 1-based box per frame becomes a normalized lower-left box", .clipCorpus)
    func otbCrossing() throws {
        let text = try sharedText("otb-crossing/groundtruth_rect.txt")
        let lines = text.split(whereSeparator: \.isNewline).count
        let truth = try GroundTruth.imported(.otb, from: text, path: "groundtruth_rect.txt", geometry: .init(width: 360, height: 240))
        #expect(truth.frames == lines)
        let track = try #require(truth.objectTracks.first)
        #expect(truth.objectTracks.count == 1 && track.points.count == lines)
        // First line 205,151,17,50: left 204 px, top 150 px, so bottom 200 px → y = 1 − 200/240.
        let (w, h) = (360.0, 240.0)
        let expected = [0, 204 / w, 1 - 200 / h, 17 / w, 50 / h].map(round6)
        #expect(track.points[0] == expected)
        try truth.validate(path: "imported")
    }

    @Test("VOT vot2015-ball1: each polygon becomes its axis-aligned bounding box", .clipCorpus)
    func votBall1() throws {
        let text = try sharedText("vot2015-ball1/groundtruth.txt")
        let truth = try GroundTruth.imported(.vot, from: text, path: "groundtruth.txt", geometry: .init(width: 1280, height: 720))
        let points = try #require(truth.objectTracks.first?.points)
        #expect(points.count == text.split(whereSeparator: \.isNewline).count)
        // First polygon 492,463 539,463 539,417 492,417: box x 492…539, y 417…463.
        let (w, h) = (1280.0, 720.0)
        let expected = [0, 492 / w, 1 - 463 / h, 47 / w, 46 / h].map(round6)
        #expect(points[0] == expected)
    }

    @Test("tabs, spaces and CRLF are all separators; absent-target lines leave their frame out")
    func separatorsAndAbsentFrames() throws {
        let text = "1\t1\t10\t20\r\n0,0,0,0\r\n  3 3 10 20 \r\nNaN,NaN,NaN,NaN\r\n"
        let truth = try GroundTruth.imported(.otb, from: text, path: "labels.txt", geometry: .init(width: 100, height: 100))
        #expect(truth.frames == 4)
        #expect(truth.objectTracks[0].points == [[0, 0, 0.8, 0.1, 0.2], [2, 0.02, 0.78, 0.1, 0.2]])
        #expect(truth.notes.contains("2 frames without the target"))
    }

    @Test("TrackNet CSV: visible runs become ball segments, split at gaps longer than the maximum")
    func trackNet() throws {
        let text = """
            Frame,Visibility,X,Y
            0,1,10,90
            1,1,20,80
            2,0,0,0
            3,1,40,60
            4,0,0,0
            5,0,0,0
            6,0,0,0
            7,1,70,30
            """
        var geometry = TruthImport.Geometry(width: 100, height: 100, frames: 10)
        geometry.ballRadius = 4
        geometry.maximumGap = 2
        let truth = try GroundTruth.imported(.tracknet, from: text, path: "Label.csv", geometry: geometry)
        #expect(truth.frames == 10)
        #expect(truth.ballSegments.map(\.id) == ["ball1.1", "ball1.2"])
        #expect(truth.ballSegments[0].points == [[0, 0.1, 0.1, 0.04], [1, 0.2, 0.2, 0.04], [3, 0.4, 0.4, 0.04]])
        #expect(truth.ballSegments[1].points == [[7, 0.7, 0.7, 0.04]])
    }

    @Test("a wrong number of values is refused naming the file and line")
    func wrongValueCount() {
        #expect {
            try GroundTruth.imported(.otb, from: "1,1,10,20\n1,1,10\n", path: "labels.txt", geometry: .init(width: 100, height: 100))
        } throws: { "\($0)" == "labels.txt:2: 3 values, expected 4 values (x,y,w,h)" }
        #expect {
            try GroundTruth.imported(.vot, from: "1,1,10,20\nfoo,1,2,3\n", path: "g.txt", geometry: .init(width: 100, height: 100))
        } throws: { "\($0)" == "g.txt:2: 'foo' is not a number" }
    }

    @Test("a label file's problem is a value: the line, and what was found where what was expected")
    func typedProblems() {
        #expect(throws: TruthError(path: "labels.txt", line: 2, .rowValueCount(found: 3, expected: "4 values (x,y,w,h)"))) {
            try GroundTruth.imported(.otb, from: "1,1,10,20\n1,1,10\n", path: "labels.txt", geometry: .init(width: 100, height: 100))
        }
        #expect(throws: TruthError(path: "g.txt", line: 2, .notANumber("foo"))) {
            try GroundTruth.imported(.vot, from: "1,1,10,20\nfoo,1,2,3\n", path: "g.txt", geometry: .init(width: 100, height: 100))
        }
        #expect(throws: TruthError(path: "labels.txt", line: 3, .rowPastRecording(frame: 2, lastFrame: 1))) {
            try GroundTruth.imported(.otb, from: "1,1,10,20\n1,1,10,20\n1,1,10,20\n", path: "labels.txt",
                                     geometry: .init(width: 100, height: 100, frames: 2))
        }
        let truth = GroundTruth(width: 100, height: 100, frames: 50, notes: "",
                                objectTracks: [ObjectTrack(id: "object1", points: [[0, 0, 0, 0.1, 0.1], [40, 0, 0, 0.1, 0.1]])])
        #expect(throws: TruthError(path: "t.truth.json", .pointPastRecording(owner: "object track object1", frame: 40, lastFrame: 29))) {
            try truth.check(againstFrames: 30, width: 100, height: 100, path: "t.truth.json")
        }
        #expect(throws: TruthError(path: "t.truth.json", .aspectRatio(truthWidth: 100, truthHeight: 100, width: 160, height: 90))) {
            try truth.check(againstFrames: 50, width: 160, height: 90, path: "t.truth.json")
        }
    }

    @Test("labels past the recording's last frame are refused with the frame named")
    func pastTheEnd() {
        #expect {
            try GroundTruth.imported(.otb, from: "1,1,10,20\n1,1,10,20\n1,1,10,20\n", path: "labels.txt",
                                     geometry: .init(width: 100, height: 100, frames: 2))
        } throws: { "\($0)" == "labels.txt:3: labels frame 2, past the recording's last frame 1" }
        let truth = GroundTruth(width: 100, height: 100, frames: 50, notes: "",
                                objectTracks: [ObjectTrack(id: "object1", points: [[0, 0, 0, 0.1, 0.1], [40, 0, 0, 0.1, 0.1]])])
        #expect {
            try truth.check(againstFrames: 30, width: 100, height: 100, path: "t.truth.json")
        } throws: { "\($0)" == "t.truth.json: object track object1 has a point at frame 40, past the recording's last frame 29" }
        // Sizes from a file whose products overflow are compared, not trapped on.
        let huge = GroundTruth(width: Int.max, height: 3, frames: 50, notes: "")
        #expect {
            try huge.check(againstFrames: 50, width: 100, height: 100, path: "t.truth.json")
        } throws: { "\($0)".contains("a different aspect ratio") }
    }

    @Test("truth files: canonical JSON reads back equal; broken ones are refused with a reason")
    func readingTruthFiles() throws {
        try withScratchFolder("truth") { path in
            let folder = URL(fileURLWithPath: path)
            let truth = try GroundTruth.imported(.otb, from: "1,1,10,20\n5,5,10,20\n", path: "x", geometry: .init(width: 100, height: 100))
            let good = folder.appendingPathComponent("good.truth.json").path
            try truth.canonicalJSON().write(toFile: good, atomically: true, encoding: .utf8)
            #expect(try GroundTruth.read(good) == truth)

            let cases: [(String, String)] = [
                ("{\"format\": \"lumatrace-truth\"", "not valid JSON"),
                ("", "empty file (0 bytes): not a truth file"),
                ("{\"hello\": 1}", "not a Lumatrace truth file"),
                (truth.canonicalJSON().replacingOccurrences(of: "\"version\": 1", with: "\"version\": 7"), "version 7 is not supported"),
                (truth.canonicalJSON().replacingOccurrences(of: "[1, 0.04", with: "[0, 0.04"), "frame 0 comes after frame 0"),
                (truth.canonicalJSON().replacingOccurrences(of: "[1, 0.04, 0.76, 0.1, 0.2]", with: "[1, 0.04, 0.76]"), "is not [frame, x, y, w, h]"),
                // Found by fuzzing: a frame number past Int's range trapped on its conversion.
                (truth.canonicalJSON().replacingOccurrences(of: "[1, 0.04", with: "[1e300, 0.04"), "point 2 has frame 1e+300, not a frame index"),
                // Read by key from the project's JSON parser: a problem names the member where it is.
                (truth.canonicalJSON().replacingOccurrences(of: "\"width\": 100,\n", with: ""), "not a Lumatrace truth file (width is missing)"),
                (truth.canonicalJSON().replacingOccurrences(of: "[1, 0.04", with: "[\"one\", 0.04"), "(objectTracks.[0].points.[1] must be an array of numbers)"),
                (truth.canonicalJSON().replacingOccurrences(of: "\"id\": \"object1\"", with: "\"id\": 1"), "(objectTracks.[0].id must be a string)"),
                ("{\"format\": \"lumatrace-truth\"} x", "not valid JSON: "),
            ]
            for (text, reason) in cases {
                let path = folder.appendingPathComponent("bad.truth.json").path
                try text.write(toFile: path, atomically: true, encoding: .utf8)
                #expect { try GroundTruth.read(path) } throws: { "\($0)".hasPrefix(path + ": ") && "\($0)".contains(reason) }
            }
        }
    }
}
