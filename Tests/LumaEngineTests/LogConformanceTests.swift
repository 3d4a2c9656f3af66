import Foundation
import LumaEngine
import LumaTestSupport
import Testing

/// The event logs of the conformance corpus (`Tests/Conformance/logs`, written by
/// `scripts/make-conformance-corpus`): each says whether a reader must read the log — and then its
/// events per analyzer and kind and whether it is complete — or refuse it at a given line. The
/// Python reader walks the same cases (`python/tests/test_conformance.py`, which also checks the
/// rows of its per-shape tables).
@Suite("Conformance corpus: this reader makes of every log what the case says")
struct LogConformanceTests {
    struct Expected: Decodable {
        enum Reading: Decodable, Equatable {
            case ok
            case refused(line: Int)
            init(from decoder: any Decoder) throws {
                if let s = try? decoder.singleValueContainer().decode(String.self), s == "ok" { self = .ok; return }
                struct Failure: Decodable { var line: Int }
                self = .refused(line: try Failure(from: decoder).line)
            }
        }
        var about: String
        var read: Reading
        var formatVersion: Int?
        var events: Int?
        var complete: Bool?
        var counts: [String: [String: Int]]?
    }

    static let corpus = ConformanceFolder("logs")
    static let cases = corpus.cases

    @Test("the corpus holds logs of both versions, a plugin's own kinds and damaged logs")
    func corpusIsThere() {
        #expect(Self.cases.count >= 8, "found \(Self.cases.count) log cases in \(Self.corpus)")
    }

    @Test("each log", arguments: cases)
    func conforms(_ name: String) throws {
        let expected = try Self.corpus.expected(Expected.self, of: name)
        let path = Self.corpus.path(of: name, ".events.jsonl")
        if case .refused(let line) = expected.read {
            do {
                _ = try EventLog.read(path)
                Issue.record("read \(name), the case says it is refused at line \(line): \(expected.about)")
            } catch {
                #expect(error.line == line, "\(error)")
                #expect(error.description.contains(path))
            }
            return
        }
        let log = try EventLog.read(path)
        #expect(log.header.formatVersion == expected.formatVersion)
        #expect(log.events.count == expected.events)
        #expect(log.isComplete == expected.complete)
        var counts: [String: [String: Int]] = [:]
        for event in log.events { counts[event.analyzer, default: [:]][event.kind, default: 0] += 1 }
        #expect(counts == expected.counts)
    }
}
