import Foundation
import LumaAnalysis
import LumaEngine
import LumaRegression
import Testing
import LumaTestSupport

/// `diff` and `regress` on data a well-behaved analyzer never writes: an id placed twice in one
/// frame, boxes with no area (issue 56, M1 and M2).
@Suite("lumatrace diff on odd data: repeated ids are refused, empty boxes equal themselves")
struct LogDiffOddDataTests {
    /// The first `track` event of the tracking golden, and its line in the log.
    static func firstTrack(_ log: EventLog) throws -> (index: Int, id: String) {
        let i = try #require(log.events.firstIndex { $0.kind == "track" })
        return (i, try #require(log.events[i].data["id"]?.stringValue))
    }

    @Test("a log that places one track id twice in one frame is refused, naming the line, analyzer, kind, id and frame")
    func repeatedIdRefused() throws {
        let old = try EditedLog.golden("tracking-synth")
        let (i, id) = try Self.firstTrack(old)
        let new = try EditedLog.edited(old) { events in
            var copy = events[i]
            var box = copy.data["boundingBox"]!.arrayValue!.map { $0.doubleValue! }
            box[0] += 0.2  // elsewhere in the frame: a second object under the same id
            copy.data = EditedLog.setting(copy.data, "boundingBox", .array(box.map(JSONValue.double)))
            events.insert(copy, at: i + 1)
        }
        let frame = old.events[i].frame
        let expected = EventLogError(path: new.path, line: i + 3, .repeatedId(analyzer: old.events[i].analyzer, kind: "track", id: id, frame: frame))
        #expect(throws: expected) { try LogDiff(old: old, new: new) }
        #expect(throws: expected) { try LogDiff(old: new, new: old) }
        #expect(expected.reason == "tracking's 'track' events place the id \"\(id)\" twice in frame \(frame): one id names one object, so a comparison could not tell the two apart")
    }

    @Test("the same id in one frame under another kind, or in the next frame, is no repetition")
    func sameIdElsewhereIsFine() throws {
        let old = try EditedLog.golden("tracking-synth")
        let (i, _) = try Self.firstTrack(old)
        #expect(old.events[i + 1].frame == old.events[i].frame || old.events[i + 1].frame > old.events[i].frame)
        let new = try EditedLog.edited(old) { events in
            var copy = events[i]
            copy.kind = "track.echo"
            events.insert(copy, at: i + 1)
        }
        // Undeclared kinds have no shape: compared as JSON, one change of that kind.
        let diff = try LogDiff(old: old, new: new)
        #expect(diff.changes.map(\.subject) == ["tracking.track.echo"], "\(diff.lines())")
    }

    /// A log of the toss recording with one `box` event in each of the first `boxes.count` frames,
    /// written by the log writer.
    static func boxLog(_ boxes: [[Double]], kind: String = "obj") throws -> EventLog {
        var header = try EditedLog.golden("toss-real").header
        var setup = header.analyzers[0]
        setup.name = "boxes"
        setup.events = [EventSchema(kind: kind, version: 1, shape: .box)]
        header.analyzers = [setup]
        let path = Scratch.path("boxes.events.jsonl")
        let writer = try EventLogWriter(path: path, header: header)
        for (frame, box) in boxes.enumerated() {
            try writer.write(LoggedEvent(frame: frame, time: "0.000000", analyzer: "boxes", kind: kind,
                                         data: .object([.init("id", .string("obj-0")), .init("boundingBox", .array(box.map(JSONValue.double))),
                                                        .init("confidence", .double(0.9))])))
        }
        try writer.finish(framesReplayed: header.lastFrame - header.firstFrame + 1, ending: header.ending)
        return try EventLog.read(path)
    }

    @Test("boxes of no area (zero, negative or subnormal size) equal themselves: a log of them compared with itself has no differences",
          arguments: [[0.5, 0.5, 0, 0], [0.5, 0.5, -0.4, -0.4], [0.5, 0.5, 5e-324, 5e-324], [0.5, 0.5, 0.2, 0], [0, 0, -1, 0.3]])
    func emptyBoxesEqualThemselves(box: [Double]) throws {
        let log = try Self.boxLog(Array(repeating: box, count: 20))
        let diff = try LogDiff(old: log, new: log)
        #expect(diff.isSame, "\(diff.lines())")
        #expect(intersectionOverUnion(box, box) == 1)
    }

    @Test("the rule for boxes of no area: IoU 1 with the very same box, 0 with any other, empty or not")
    func emptyBoxRule() {
        #expect(intersectionOverUnion([0.5, 0.5, 0, 0], [0.5, 0.5, 0, 0]) == 1)
        #expect(intersectionOverUnion([0.5, 0.5, 0, 0], [0.5, 0.5, 0, 1e-9]) == 0)
        #expect(intersectionOverUnion([0.5, 0.5, 0, 0], [0.4, 0.4, 0.2, 0.2]) == 0)
        #expect(intersectionOverUnion([0.4, 0.4, 0.2, 0.2], [0.5, 0.5, -0.1, -0.1]) == 0)
        #expect(intersectionOverUnion([0.1, 0.1, 0.2, 0.2], [0.1, 0.1, 0.2, 0.2]) == 1)
        #expect(abs(intersectionOverUnion([0, 0, 0.2, 0.2], [0.1, 0, 0.2, 0.2]) - 1.0 / 3) < 1e-12)
    }

    @Test("an empty box that becomes a real one is a change, not sameness")
    func emptyBoxThatGrows() throws {
        let old = try Self.boxLog(Array(repeating: [0.5, 0.5, 0, 0], count: 20))
        let new = try Self.boxLog(Array(repeating: [0.5, 0.5, 0, 0], count: 10) + Array(repeating: [0.5, 0.5, 0.1, 0.1], count: 10))
        let diff = try LogDiff(old: old, new: new)
        #expect(diff.changes.map(\.kind) == [.changed], "\(diff.lines())")
        #expect(diff.changes.first?.details.first?.hasPrefix("box drifts in 10 frames from frame 10") == true, "\(diff.lines())")
    }
}
