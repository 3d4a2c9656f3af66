import Foundation
import LumaAnalysis
import LumaEngine
import LumaRender
import Testing
import LumaTestSupport

/// Events are typed: each analyzer declares its kinds with a schema version and a shape, the log
/// header records them, and the stock commands read shaped events of analyzers they were not
/// built with.
@Suite("Typed events: declared kinds and shapes, read by the stock commands")
struct TypedEventTests {
    static let tracking = PackageLayout.root.appendingPathComponent("Recordings/tracking-synth.luma").path
    static let trackingTruth = PackageLayout.root.appendingPathComponent("Recordings/tracking-synth.truth.json").path
    static let trackingLog = PackageLayout.root.appendingPathComponent("Recordings/tracking-synth.events.jsonl").path

    /// A plugin made by `new-analyzer` whose `spot` event is a `box`: it replays the boxes it is
    /// given (here a truth object's), shifted right by `shift`.
    static let spotAnalyzer = """
        import LumaAnalysis

        public struct SpotAnalyzer: Analyzer {
            public static let name = "spot"
            public static let version = "1"

            public struct Configuration: AnalyzerConfiguration {
                /// `[[frame, x, y, w, h], …]`.
                public var boxes: [[Double]] = []
                public var shift = 0.0
                public init() {}
                public static let options: [AnalyzerOption<Self>] = [
                    AnalyzerOption("boxes", \\.boxes, help: "the boxes it reports, [[frame, x, y, w, h], …]"),
                    AnalyzerOption("shift", \\.shift, help: "how far right each box is moved"),
                ]
            }

            public struct Spot: EventPayload {
                public static let kind = "spot"
                public static let version = 1
                public static let shape: EventShape? = .box
                public var id: String
                public var label: String
                public var boundingBox: [Double]
                public var confidence: Double
            }

            public static let eventTypes: [any EventPayload.Type] = [Spot.self]

            private let byFrame: [Int: [Double]]
            private let shift: Double

            public init(configuration: Configuration, context: AnalyzerContext) throws {
                byFrame = Dictionary(configuration.boxes.map { (Int($0[0]), Array($0[1...])) }, uniquingKeysWith: { a, _ in a })
                shift = configuration.shift
            }

            public mutating func analyze(_ frame: Frame, into events: inout EventSink) throws {
                guard var box = byFrame[frame.index] else { return }
                box[0] += shift
                try events.emit(Spot(id: "spot-1", label: "object1", boundingBox: box, confidence: 0.9))
            }
        }

        """

    @Test("a new-analyzer plugin whose event is a box is drawn, scored against truth and diffed by the stock lumatrace")
    func scaffoldedBoxPlugin() throws {
        let swift = try ExternalTool.swift.require()
        try withScratchFolder("cli") { dir in
            #expect(try CLI.run(["new-analyzer", "Spot", "--lumatrace", PackageLayout.root.path], cwd: dir).status == 0)
            try Self.spotAnalyzer.write(toFile: "\(dir)/Spot/Sources/Spot/SpotAnalyzer.swift", atomically: true, encoding: .utf8)
            // The plugin's own lumatrace is the package in Tool/.
            let build = try ProgramRun.run(swift, ["build", "--package-path", "Tool", "--product", "lumatrace-spot"], cwd: "\(dir)/Spot",
                                           patience: ProgramRun.buildPatience)
            #expect(build.status == 0, "\(build.stdout.suffix(3000))\(build.stderr.suffix(3000))")
            let bin = try ProgramRun.run(swift, ["build", "--package-path", "Tool", "--show-bin-path"], cwd: "\(dir)/Spot").stdout
                .trimmingCharacters(in: .whitespacesAndNewlines)

            // The truth's object1, as the boxes the plugin reports.
            let truth = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: Self.trackingTruth))))
            let object1 = try #require(truth["objectTracks"]?.arrayValue?.first { $0["id"]?.stringValue == "object1" }?["points"])
            try object1.serialized.write(toFile: "\(dir)/boxes.json", atomically: true, encoding: .utf8)
            for (name, shift) in [("spot", "0"), ("shifted", "0.05")] {
                let replay = try ProgramRun.run("\(bin)/lumatrace-spot", ["replay", Self.tracking, "--analyzer", "spot", "--set", "spot.boxes=@\(dir)/boxes.json",
                                                                      "--set", "spot.shift=\(shift)", "-o", "\(dir)/\(name).events.jsonl"])
                #expect(replay.status == 0, "\(replay.stderr)")
            }
            let header = try EventLog.read("\(dir)/spot.events.jsonl").header.analyzers[0]
            #expect(header.events == [EventSchema(kind: "spot", version: 1, shape: .box)])

            // Scored by the stock lumatrace, which was not built with spot: paired with object1 by its label.
            let score = try CLI.run(["score", "\(dir)/spot.events.jsonl", "--truth", Self.trackingTruth, "--json"])
            #expect(score.status == 0, "\(score.stderr)")
            let objects = try JSONParser.parse(score.stdout)["tracking"]?["objects"]?.arrayValue ?? []
            let scored = try #require(objects.first { $0["id"]?.stringValue == "object1" })
            #expect(scored["track"]?.stringValue == "spot-1")
            #expect((scored["successAUC"]?.doubleValue ?? 0) > 0.9, "\(scored.serialized)")

            // Diffed: the shifted boxes are the same track, drifting.
            let diff = try CLI.run(["diff", "\(dir)/spot.events.jsonl", "\(dir)/shifted.events.jsonl", "--json"])
            #expect(diff.status == 1)
            let changes = try JSONParser.parse(diff.stdout)["changes"]?.arrayValue ?? []
            #expect(changes.count == 1, "\(diff.stdout)")
            #expect(changes.first?["change"]?.stringValue == "changed" && changes.first?["what"]?.stringValue == "spot", "\(diff.stdout)")
            #expect(changes.first?["details"]?.arrayValue?.first?.stringValue?.hasPrefix("box drifts in 90 frames") == true, "\(diff.stdout)")

            // Drawn: the box's left edge in the track's colour.
            let render = try CLI.run(["render", Self.tracking, "--events", "\(dir)/spot.events.jsonl", "-o", "\(dir)/frames/", "--from", "0", "--to", "0"])
            #expect(render.status == 0, "\(render.stderr)")
            let image = try PNGFile.read("\(dir)/frames/frame-000000.png")
            let first = object1.arrayValue?.first?.arrayValue?.compactMap { $0.doubleValue } ?? []
            try #require(first.count == 5)
            let (x, y) = (Int(first[1] * Double(image.width)), Int((1 - first[2] - first[4] / 2) * Double(image.height)))
            #expect((-1...1).contains { image[x + $0, y] == RGBImage.Color.tracks[0] }, "no track-coloured edge at (\(x), \(y))")
        }
    }

    @Test("a shaped event missing a field of its shape is refused by score, diff and render, naming the line")
    func unreadableShapedEvent() throws {
        try withScratchFolder("cli") { dir in
            // Without its footer, so the edit needs no new digest.
            var lines = try String(contentsOfFile: Self.trackingLog, encoding: .utf8).split(separator: "\n").map(String.init).dropLast()
            let k = try #require(lines.indices.dropFirst().first { lines[$0].contains("\"kind\":\"track\"") })
            lines[k] = lines[k].replacingOccurrences(of: "\"boundingBox\":", with: "\"box\":")
            let broken = "\(dir)/broken.events.jsonl"
            try (lines.joined(separator: "\n") + "\n").write(toFile: broken, atomically: true, encoding: .utf8)
            for arguments in [["score", broken, "--truth", Self.trackingTruth], ["diff", Self.trackingLog, broken],
                              ["render", Self.tracking, "--events", broken, "-o", "\(dir)/sheet.png"]] {
                let r = try CLI.run(arguments)
                #expect(r.status == 2, "\(arguments[0]): \(r.stdout)")
                #expect(r.stderr.contains("broken.events.jsonl:\(k + 1): tracking's 'track' event is not a Box"), "\(arguments[0]): \(r.stderr)")
            }
        }
    }

    @Test("an external program declares its kinds in its ready line: recorded in the header; an undeclared kind stops the replay")
    func externalDeclaresKinds() throws {
        try withScratchFolder("cli") { dir in
            let program = "\(dir)/spots.py"
            try """
                import json, struct, sys
                def send(o): sys.stdout.write(json.dumps(o) + "\\n"); sys.stdout.flush()
                json.loads(sys.stdin.readline())
                send({"ready": True, "events": [{"kind": "spot", "version": 2, "shape": "box"}]})
                while True:
                    magic, w, h, _, index, _, _ = struct.unpack("<4sIIIqqq", sys.stdin.buffer.read(40))
                    if magic == b"LTEN": send({"done": "end"}); break
                    sys.stdin.buffer.read(w * h)
                    kind = "spot" if index < 5 else "surprise"
                    send({"kind": kind, "data": {"id": "s", "boundingBox": [0.1, 0.1, 0.2, 0.2], "confidence": 1}})
                    send({"done": index})
                """.write(toFile: program, atomically: true, encoding: .utf8)
            let r = try CLI.run(["replay", Self.tracking, "--analyzer", "external", "--set", "external.command=python3 \(program)",
                                 "-o", "\(dir)/spots.events.jsonl"])
            #expect(r.status == 2)
            #expect(r.stderr.contains("frame 5") && r.stderr.contains("emitted a 'surprise' event, which it does not declare (its events: spot)"), "\(r.stderr)")
            // The failed replay's log is kept aside; its header holds the declaration.
            let kept = try FileManager.default.contentsOfDirectory(atPath: dir).first { $0.hasSuffix(".jsonl") }
            let log = try EventLog.read("\(dir)/\(try #require(kept))")
            #expect(log.header.analyzers[0].events == [EventSchema(kind: "spot", version: 2, shape: .box)])
            #expect(log.events.filter { $0.kind == "spot" }.count == 5)
        }
    }

    @Test("a log whose header declares no kinds (written before kinds were declared) is read with this build's kinds: the same score and no difference")
    func logWithoutDeclarations() throws {
        try withScratchFolder("undeclared") { dir in
            let bytes = try #require(FileManager.default.contents(atPath: Self.trackingLog))
            var lines = bytes.split(separator: 10, omittingEmptySubsequences: false).map { Array($0) }
            guard case .object(var header) = try JSONParser.parse(lines[0]),
                  let i = header.firstIndex(where: { $0.key == "analyzers" }), case .array(let analyzers) = header[i].value else {
                Issue.record("the tracking golden's header has no analyzers")
                return
            }
            header[i].value = .array(analyzers.map { analyzer in
                guard case .object(let fields) = analyzer else { return analyzer }
                return .object(fields.filter { $0.key != "events" })
            })
            lines[0] = Array(JSONValue.object(header).serialized.utf8)
            let stripped = "\(dir)/tracking-synth.events.jsonl"
            try Data(lines.joined(separator: [10])).write(to: URL(fileURLWithPath: stripped))
            #expect(try EventLog.read(stripped).header.analyzers.allSatisfy { $0.events.isEmpty })

            let golden = try CLI.run(["score", Self.trackingLog, "--truth", Self.trackingTruth, "--json"])
            let old = try CLI.run(["score", stripped, "--truth", Self.trackingTruth, "--json"])
            #expect(golden.status == 0 && old.status == 0, "\(old.stderr)")
            let objects = try JSONParser.parse(old.stdout)["tracking"]?["objects"]?.arrayValue ?? []
            #expect(!objects.isEmpty, "the tracks of the old log are scored as tracks, not kept as JSON")
            // The same figures; only the log's own path differs.
            let withoutPath = { (text: String) throws -> String in
                guard case .object(let fields) = try JSONParser.parse(text) else { return text }
                return JSONValue.object(fields.filter { $0.key != "log" }).serialized
            }
            #expect(try withoutPath(old.stdout) == withoutPath(golden.stdout))
            let diff = try CLI.run(["diff", Self.trackingLog, stripped])
            #expect(diff.status == 0, "\(diff.stdout)\(diff.stderr)")
        }
    }
}
