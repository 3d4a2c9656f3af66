import Foundation
import LumaFormat
import LumaTestSupport
import Testing

/// The conformance corpus (`Tests/Conformance/recordings`, written by
/// `scripts/make-conformance-corpus`): every case is a `.luma` file and what a reader must make of
/// it — the header's values and, chunk by chunk, the digest of its frames or the error naming it;
/// or, for a file that must not open, the error. The Python reader walks the same corpus
/// (`python/tests/test_conformance.py`), so the two readers cannot drift apart.
@Suite("Conformance corpus: this reader makes of every case what the case says")
struct ConformanceCorpusTests {
    struct Expected: Decodable {
        struct Chunk: Decodable {
            var number: Int
            var frames: [Int]
            var framesDigest: String?
            var error: String?
        }
        enum Opening: Decodable, Equatable {
            case ok
            case error(String)
            init(from decoder: any Decoder) throws {
                if let s = try? decoder.singleValueContainer().decode(String.self), s == "ok" { self = .ok; return }
                struct Failure: Decodable { var error: String }
                self = .error(try Failure(from: decoder).error)
            }
        }
        var about: String
        var open: Opening
        var formatVersion: Int?
        var width: Int?
        var height: Int?
        var timescale: Int64?
        var frameCount: Int?
        var hasIndex: Bool?
        var chunks: [Chunk]?
        var readableFramesDigest: String?
    }

    static let corpus = ConformanceFolder("recordings")
    static let cases = corpus.cases

    /// The error case's name as the corpus spells it.
    static func name(of error: LumaFormatError) -> String {
        switch error {
        case .notARecording: return "notARecording"
        case .unsupportedVersion: return "unsupportedVersion"
        case .invalidHeader: return "invalidHeader"
        case .damagedChunk: return "damagedChunk"
        default: return "\(error)"
        }
    }

    @Test("the corpus is committed and holds every kind of case")
    func corpusIsThere() {
        #expect(Self.cases.count >= 30, "found \(Self.cases.count) cases in \(Self.corpus)")
    }

    @Test("each case", arguments: cases)
    func conforms(_ name: String) throws {
        let expected = try Self.corpus.expected(Expected.self, of: name)
        let path = Self.corpus.path(of: name, ".luma")
        if case .error(let error) = expected.open {
            let thrown = formatError { _ = try RecordingReader(path: path) }
            #expect(thrown.map(Self.name) == error, "\(expected.about)")
            #expect(thrown?.description.contains(path) == true, "the error names the file")
            return
        }
        let reader = try RecordingReader(path: path)
        #expect(reader.formatVersion == expected.formatVersion)
        #expect(reader.header.width == expected.width && reader.header.height == expected.height)
        #expect(reader.header.timescale == expected.timescale)
        #expect(reader.frameCount == expected.frameCount)
        #expect(reader.hasIndex == expected.hasIndex)
        let chunks = expected.chunks ?? []
        #expect(reader.chunks.map { [$0.number, $0.firstFrame, $0.firstFrame + $0.frameCount] } == chunks.map { [$0.number] + $0.frames })
        let decoder = reader.makeDecoder()
        var readable = FramesDigest()
        for (entry, want) in zip(reader.chunks, chunks) {
            do {
                let frames = try decoder.decode(entry)
                var digest = FramesDigest()
                for k in 0..<frames.count {
                    frames.withFrame(k) {
                        digest.add(ticks: frames.timestamps[k], pixels: $0)
                        readable.add(ticks: frames.timestamps[k], pixels: $0)
                    }
                }
                #expect(want.error == nil, "chunk \(entry.number) decoded, the case says \(want.error ?? "")")
                #expect(digest.finalize().hexString == want.framesDigest, "chunk \(entry.number)")
            } catch {
                #expect(want.error == Self.name(of: error), "chunk \(entry.number): \(error)")
                if case .damagedChunk(_, let chunk, _, _) = error { #expect(chunk == entry.number) }
            }
        }
        #expect(readable.finalize().hexString == expected.readableFramesDigest)
    }
}
