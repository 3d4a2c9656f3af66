import Foundation
import LumaAnalysis
import LumaBase
import LumaEngine
import LumaRegression
import LumaTruth
import Testing
import LumaTestSupport

/// Logs whose numbers no replay writes (edited by hand, or hostile): each is refused with its file
/// and line where the number enters, so `diff`, `score` and `report` never trap on it.
@Suite("Hostile values in event logs are refused where they enter")
struct HostileLogTests {
    /// The golden `balls-synth` log with the first trajectory's first point's `index`-th value
    /// replaced by `value`.
    static func withPointValue(_ value: Double, at index: Int) throws -> EventLog {
        try EditedLog.edited(try EditedLog.golden("balls-synth")) { events in
            let i = events.firstIndex { $0.kind == "trajectory.end" }!
            var points = events[i].data["points"]!.arrayValue!
            var p = points[0].arrayValue!
            p[index] = .double(value)
            points[0] = .array(p)
            events[i].data = EditedLog.setting(events[i].data, "points", .array(points))
        }
    }

    /// The line of the first `trajectory.end` event in the golden log (header is line 1).
    static var trajectoryLine: Int {
        get throws { try EditedLog.golden("balls-synth").events.firstIndex { $0.kind == "trajectory.end" }! + 2 }
    }

    @Test("a point frame of 1e300 or -1e300, or an x of 1e308, is refused by diff, score and the observations",
          arguments: [(1e300, 0, EventLogProblem.pointFrameOutside(point: 1, frame: 1e300, frameCount: 90),
                       "point 1 has frame 1e+300, not a frame of the recording (0...89)"),
                      (-1e300, 0, .pointFrameOutside(point: 1, frame: -1e300, frameCount: 90),
                       "point 1 has frame -1e+300, not a frame of the recording (0...89)"),
                      (1e308, 1, .observationValueOutOfRange(what: "point 1 value", value: 1e308, limit: 1e6),
                       "point 1 value 1e+308 is outside ±1000000: not an observation")])
    func hostilePoint(value: Double, index: Int, problem: EventLogProblem, reason: String) throws {
        let golden = try EditedLog.golden("balls-synth")
        let hostile = try Self.withPointValue(value, at: index)
        let expected = EventLogError(path: hostile.path, line: try Self.trajectoryLine, problem)
        #expect(expected.reason == reason)
        #expect(throws: expected) { _ = try LoggedObservations(hostile) }
        #expect(throws: expected) { _ = try LogDiff(old: golden, new: hostile) }
        let truth = try GroundTruth.read(EditedLog.recordings.appendingPathComponent("balls-synth.truth.json").path)
        #expect(throws: expected) { _ = try LogScore(log: hostile, truth: truth) }
    }

    @Test("a number past a Double's range (1e999) is not JSON this parser accepts")
    func overflowingNumber() {
        for (text, description) in [("[1e999]", "number 1e999 is out of range at character 2"), ("-1e999", "number -1e999 is out of range at character 1")] {
            do {
                _ = try JSONParser.parse(text)
                Issue.record("accepted \(text)")
            } catch { #expect(error.description == description) }
        }
        #expect((try? JSONParser.parse("1e300")) == .double(1e300))
    }

    @Test("numbers for tables print whatever their size, never trapping")
    func decimalText() {
        #expect(DecimalText.fixed(0.8504, 3) == "0.850")
        #expect(DecimalText.fixed(-3.25, 1) == "-3.3")
        #expect(DecimalText.fixed(.infinity) == "inf")
        #expect(DecimalText.fixed(-.infinity) == "-inf")
        #expect(DecimalText.fixed(.nan) == "nan")
        #expect(DecimalText.fixed(1e300) == "1e+300")
        #expect(DecimalText.fixed(-1e19, 1) == "-1e+19")
    }

    @Test("a header's replayed range and every event's frame must lie inside the recording")
    func frameRanges() throws {
        let text = try String(contentsOf: EditedLog.recordings.appendingPathComponent("balls-synth.events.jsonl"), encoding: .utf8)
        var lines = text.split(separator: "\n").map(String.init)
        lines.removeLast()  // no footer: no digest to keep right
        func check(_ lines: [String], _ expected: EventLogError) {
            #expect(throws: expected) { _ = try EventLog.parse(Array((lines.joined(separator: "\n") + "\n").utf8), path: "x.jsonl") }
        }
        var reversed = lines
        reversed[0] = reversed[0].replacingOccurrences(of: "\"from\":0", with: "\"from\":50").replacingOccurrences(of: "\"to\":89", with: "\"to\":3")
        check(reversed, EventLogError(path: "x.jsonl", line: 1, .headerFieldBelow("replay.to", value: 3, minimum: 50)))
        #expect(EventLogProblem.headerFieldBelow("replay.to", value: 3, minimum: 50).description == "header has replay.to 3, expected at least 50")
        var past = lines
        past[0] = past[0].replacingOccurrences(of: "\"to\":89", with: "\"to\":90")
        check(past, EventLogError(path: "x.jsonl", line: 1, .replayPastRecording(lastFrame: 90, frameCount: 90)))
        #expect(EventLogProblem.replayPastRecording(lastFrame: 90, frameCount: 90).description == "header has replay.to 90, past the recording's 90 frames")
        var huge = lines
        let last = huge.count - 1
        let frame = try #require(huge[last].range(of: #""frame":[0-9]+"#, options: .regularExpression))
        huge[last].replaceSubrange(frame, with: "\"frame\":9223372036854775807")
        let outside = EventLogError(path: "x.jsonl", line: last + 1, .outsideReplayedFrames(frame: .max, replayed: 0...89))
        check(huge, outside)
        #expect(outside.description == "x.jsonl:\(last + 1): event at frame 9223372036854775807, outside the replayed frames 0...89")
    }

    @Test("a line longer than the maximum is refused while it is read, and a device is not a log")
    func longLineAndDevice() throws {
        let path = Scratch.path("long.events.jsonl")
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(EventLog.maximumLineBytes + 1))  // sparse: one line of zeros, no newline
        try handle.close()
        let long = EventLogError(path: path, line: 1, .lineTooLong(limit: EventLog.maximumLineBytes))
        #expect(throws: long) { _ = try EventLog.read(path) }
        #expect(long.reason == "line is longer than 4 MiB: not an event log line")
        let device = EventLogError(path: "/dev/zero", .notAFile(found: "a character device"))
        #expect(throws: device) { _ = try EventLog.read("/dev/zero") }
        #expect(device.description == "/dev/zero: is a character device, not an event log")
        let truthDevice = TruthError(path: "/dev/zero", .notAFile(found: "a character device"))
        #expect(throws: truthDevice) { _ = try GroundTruth.read("/dev/zero") }
        #expect(truthDevice.description == "/dev/zero: is a character device, not a truth file")
        // A log read through the streaming reader is the same as one parsed whole.
        let golden = EditedLog.recordings.appendingPathComponent("balls-synth.events.jsonl").path
        let whole = try EventLog.parse(Array(try Data(contentsOf: URL(fileURLWithPath: golden))), path: golden)
        let streamed = try EventLog.read(golden)
        #expect(streamed.events == whole.events)
        #expect(streamed.header == whole.header)
        #expect(streamed.isComplete)
    }
}
