import Foundation
import LumaAnalysis
import LumaEngine
import LumaTestSupport
import Testing

/// A log's footer is written and read by one type, ``EventLogFooter``: what the writer puts in it
/// is what every reader gets back.
@Suite("The event log footer: one type writes it and reads it")
struct EventLogFooterTests {
    @Test("each bundled golden's footer reads back as the value that writes the same line", arguments: ["balls-synth", "toss-real", "tracking-synth"])
    func roundTrip(_ name: String) throws {
        let log = try EventLog.read(PackageLayout.recordings.appendingPathComponent("\(name).events.jsonl").path)
        let end = try #require(log.end)
        #expect(end.json == log.footer)
        #expect(EventLogFooter(json: end.json) == end)
        #expect(end.complete && log.isComplete && end.eventCount == log.events.count)
        var counts: [String: Int] = [:]
        for e in log.events { counts["\(e.analyzer)/\(e.kind)", default: 0] += 1 }
        #expect(Dictionary(uniqueKeysWithValues: end.counts.map { ("\($0.analyzer)/\($0.kind)", $0.count) }) == counts)
    }

    /// A footer as a replay stopped by a failing analyzer writes it.
    static let failedFooter = #"{"end":{"complete":false,"frames":4,"events":2,"counts":{"brightness":{"mean":2}},"sha256":"ab","#
        + #""failure":{"analyzer":"brightness","frame":3,"message":"in finish: boom"}}}"#

    @Test("a footer's failure reads back as the analyzer, frame and message, and writes the same bytes")
    func failureRoundTrip() throws {
        let end = try #require(EventLogFooter(json: try JSONParser.parse(Self.failedFooter)))
        #expect(end.failure == AnalyzerFailure(analyzer: "brightness", frame: 3, .threwInFinish("boom")))
        #expect(!end.complete)
        #expect(end.json.serialized == Self.failedFooter)
    }

    @Test("each cause of a failure is written as the footer's message and read back as the same cause",
          arguments: [AnalyzerFailure.Cause.threw("division by zero"), .threw("in the middle: in finish: no"), .threwInFinish("boom"),
                      .threwInFinish(""), .undeclaredKind("surprise", declared: ["spot"]), .undeclaredKind("x", declared: ["a", "b"]),
                      .undeclaredKind("x", declared: []), .notItsShape(kind: "spot", shape: "box", problem: "box is missing"),
                      .notItsShape(kind: "a: b", shape: "box", problem: "points.[0] must be an array: of numbers"),
                      .repeatedId(kind: "obj", id: "\"a\""), .repeatedId(kind: "a: b", id: "\"x in one frame\"")])
    func causeRoundTrip(cause: AnalyzerFailure.Cause) throws {
        let failure = AnalyzerFailure(analyzer: "probe", frame: 7, cause)
        let read = try #require(AnalyzerFailure(json: try JSONParser.parse(failure.json.serialized)))
        #expect(read == failure)
        #expect(read.json.serialized == failure.json.serialized)
    }

    @Test("a message no cause writes is what the analyzer threw, word for word")
    func unknownMessage() throws {
        let json = try JSONParser.parse(#"{"analyzer":"a","frame":1,"message":"emitted a 'k' event without a closing"}"#)
        #expect(AnalyzerFailure(json: json)?.cause == .threw("emitted a 'k' event without a closing"))
        #expect(AnalyzerFailure.Cause.undeclaredKind("surprise", declared: ["spot"]).description
            == "emitted a 'surprise' event, which it does not declare (its events: spot)")
    }

    @Test("a footer whose failure lacks the analyzer, the frame or the message is not a footer", arguments: ["analyzer", "frame", "message"])
    func failureLackingAField(_ key: String) throws {
        let renamed = Self.failedFooter.replacingOccurrences(of: "\"\(key)\":", with: "\"other\":")
        #expect(renamed != Self.failedFooter)
        #expect(EventLogFooter(json: try JSONParser.parse(renamed)) == nil)
    }

    @Test("a footer that lacks a footer's fields is refused at its line")
    func incompleteFooter() throws {
        let path = PackageLayout.recordings.appendingPathComponent("toss-real.events.jsonl").path
        var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.removeLast()  // the empty string after the last newline
        let footer = lines.removeLast()
        let withoutCounts = footer.replacingOccurrences(of: "\"counts\":", with: "\"tallies\":")
        #expect(withoutCounts != footer)
        let copy = Scratch.path("no-counts.events.jsonl")
        try (lines + [withoutCounts, ""]).joined(separator: "\n").write(toFile: copy, atomically: true, encoding: .utf8)
        do {
            _ = try EventLog.read(copy)
            Issue.record("a footer without counts was read")
        } catch {
            #expect(error.line == lines.count + 1)
            #expect(error.reason.contains("footer lacks"))
        }
    }
}
