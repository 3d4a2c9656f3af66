import DifferencingAnalyzer
import Foundation
import LumaAnalysis
import LumaEngine
import LumaFormat
import Testing
import LumaTestSupport

/// A recording with a bright square moving right by 2 px a frame over a flat background.
func makeMovingSquare(frames: Int = 40, width: Int = 64, height: Int = 48) throws -> String {
    let path = Scratch.path("moving-square.luma")
    let writer = try RecordingWriter(path: path, header: RecordingHeader(width: width, height: height, timescale: 30, rateNumerator: 30))
    for i in 0..<frames {
        var p = [UInt8](repeating: 50, count: width * height)
        for y in 20..<26 { for x in (4 + 2 * i)..<(10 + 2 * i) where x < width { p[y * width + x] = 220 } }
        try writer.append(p, ticks: Int64(i))
    }
    try writer.close()
    return path
}

func logText(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

/// A second analyzer for tests: mean brightness of the region every frame, and a failure on demand.
struct BrightnessProbe: Analyzer {
    struct Configuration: AnalyzerConfiguration {
        var failAtFrame = -1
        init() {}
        static let options: [AnalyzerOption<Self>] = [
            AnalyzerOption("failAtFrame", \.failAtFrame, in: -1...Int.max, help: "the frame it fails at on purpose, -1 for none"),
        ]
    }
    static let name = "brightness"
    static let version = "1"
    struct Event: EventPayload {
        static let kind = "brightness"
        static let version = 1
        var mean: Double
    }
    struct Summary: EventPayload {
        static let kind = "summary"
        static let version = 1
        var frames: Int
    }
    static let eventTypes: [any EventPayload.Type] = [Event.self, Summary.self]
    let configuration: Configuration
    var frames = 0
    init(configuration: Configuration, context: AnalyzerContext) throws { self.configuration = configuration }
    mutating func analyze(_ frame: Frame, into events: inout EventSink) throws {
        if frame.index == configuration.failAtFrame { throw OptionError(option: "probe", .analyzerRule("deliberate failure")) }
        var sum = 0
        for p in frame.pixels { sum += Int(p) }
        frames += 1
        try events.emit(Event(mean: Double(sum) / Double(frame.pixels.count)))
    }
    mutating func finish(into events: inout EventSink) throws {
        try events.emit(Summary(frames: frames))
    }
}

let testRegistry = AnalyzerRegistry([AnalyzerDescriptor(DifferencingAnalyzer.self), AnalyzerDescriptor(BrightnessProbe.self)])

func replay(_ recording: String, _ setups: [AnalyzerSetup], jobs: Int = 1, frames: ClosedRange<Int>? = nil,
            formatVersion: Int = EventLogHeader.version) throws -> String {
    let out = recording + ".\(UUID().uuidString.prefix(6)).events.jsonl"
    var options = ReplayOptions(frames: frames, jobs: jobs)
    options.logFormatVersion = formatVersion
    _ = try Replay.run(RecordingReader(path: recording), setups: setups, registry: testRegistry, options: options, logPath: out)
    return out
}

func setup(_ name: String, _ overrides: [(key: String, value: String)] = []) throws -> AnalyzerSetup {
    try AnalyzerSetup.resolve(testRegistry.descriptor(named: name), overrides: overrides)
}

@Suite("Replay: deterministic logs in a fixed order")
struct ReplayTests {
    @Test("the same replay twice, and one thread vs four, gives byte-identical logs")
    func determinism() throws {
        let rec = try makeMovingSquare()
        let setups = [try setup("differencing"), try setup("brightness")]
        let a = try logText(replay(rec, setups, jobs: 1))
        let b = try logText(replay(rec, setups, jobs: 1))
        let c = try logText(replay(rec, setups, jobs: 4))
        #expect(a == b)
        #expect(a == c)
    }

    @Test("events are ordered by frame, then analyzer order; finish events follow the last frame's, carrying it")
    func order() throws {
        let rec = try makeMovingSquare(frames: 5)
        let log = try EventLog.read(replay(rec, [try setup("brightness"), try setup("differencing")]))
        #expect(log.isComplete)
        let keys = log.events.map { "\($0.frame):\($0.analyzer).\($0.kind)" }
        // Each frame's events are final once the frame is analyzed (a live log writes them then).
        #expect(keys == [
            "0:brightness.brightness",
            "1:brightness.brightness", "1:differencing.diff",
            "2:brightness.brightness", "2:differencing.diff",
            "3:brightness.brightness", "3:differencing.diff",
            "4:brightness.brightness", "4:differencing.diff", "4:brightness.summary",
        ])
        #expect(log.events.last?.time == "0.133333")
        // Version 1 held the last frame back, so finish events joined it in analyzer order.
        let v1 = try EventLog.read(replay(rec, [try setup("brightness"), try setup("differencing")], formatVersion: 1))
        #expect(v1.header.formatVersion == 1)
        #expect(v1.events.suffix(3).map { "\($0.frame):\($0.analyzer).\($0.kind)" }
                == ["4:brightness.brightness", "4:brightness.summary", "4:differencing.diff"])
        #expect(log.events[1].time == "0.033333")
    }

    @Test("frameAnalysisSpacing skips frames by recording time; --from/--to limit the frames")
    func spacingAndRange() throws {
        let rec = try makeMovingSquare(frames: 30)
        let spaced = try EventLog.read(replay(rec, [try setup("brightness", [("frameAnalysisSpacing", "0.1")])]))
        #expect(spaced.events.filter { $0.kind == "brightness" }.map(\.frame) == Array(stride(from: 0, to: 30, by: 3)))
        let ranged = try EventLog.read(replay(rec, [try setup("brightness")], frames: 10...12))
        #expect(ranged.events.map(\.frame) == [10, 11, 12, 12])
        #expect(ranged.header.firstFrame == 10 && ranged.header.lastFrame == 12)
    }

    @Test("an analyzer that throws stops the replay naming analyzer and frame; earlier events are kept")
    func failingAnalyzer() throws {
        let rec = try makeMovingSquare(frames: 10)
        let out = rec + ".fail.jsonl"
        let setups = [try setup("differencing"), try setup("brightness", [("failAtFrame", "6")])]
        var message = ""
        do {
            _ = try Replay.run(RecordingReader(path: rec), setups: setups, registry: testRegistry, options: ReplayOptions(), logPath: out)
        } catch { message = "\(error)" }
        #expect(message == "analyzer brightness failed at frame 6: option probe: deliberate failure (the log up to the failure is in \(out), marked incomplete)")
        let log = try EventLog.read(out)
        #expect(!log.isComplete)
        #expect(log.events.map(\.frame).max() == 5)
        #expect(log.end?.failure?.analyzer == "brightness")
    }

    @Test("the header holds the full resolved configuration and reads back")
    func header() throws {
        let rec = try makeMovingSquare(frames: 3)
        let log = try EventLog.read(replay(rec, [try setup("differencing", [("threshold", "40"), ("regionOfInterest", "0,0,0.5,1")])]))
        let d = log.header.analyzers[0]
        #expect(d.name == "differencing")
        #expect(d.configuration["threshold"] == .int(40))
        #expect(d.configuration["mode"] == .string("previous"))
        #expect(d.regionOfInterest == NormalizedRect(x: 0, y: 0, width: 0.5, height: 1))
        #expect(log.header.frameCount == 3)
    }
}

@Suite("Options are validated at start, naming the option and its range")
struct OptionTests {
    @Test func refusals() throws {
        let known = ["threshold", "mode", "learningRate", "minArea", "maxBlobs", "frameAnalysisSpacing", "regionOfInterest"]
        let cases: [([(key: String, value: String)], String, OptionProblem)] = [
            ([("threshold", "0")], "option differencing.threshold: 0 is outside the allowed range 1...254",
             .outOfRange(value: "0", allowed: "1...254")),
            ([("threshold", "abc")], "option differencing.threshold: 'abc' is not an integer", .notA(.integer, text: "abc")),
            ([("mode", "fancy")], "option differencing.mode: 'fancy' is not one of previous, background",
             .notAChoice(text: "fancy", choices: ["previous", "background"])),
            ([("nope", "1")], "option differencing.nope: unknown option; differencing has: " + known.joined(separator: ", "),
             .unknownOption(analyzer: "differencing", known: known)),
            ([("regionOfInterest", "0.5,0.5,0.6,0.2")], "option differencing.regionOfInterest: 0.500000,0.500000,0.600000,0.200000: the rectangle reaches past the frame (x + width and y + height must be ≤ 1)",
             .region([0.5, 0.5, 0.6, 0.2], .pastFrame)),
            ([("regionOfInterest", "0.5,0.5")], "option differencing.regionOfInterest: '0.5,0.5' is not x,y,width,height (normalized, lower-left origin), e.g. 0,0,0.5,1",
             .notA(.region, text: "0.5,0.5")),
            ([("frameAnalysisSpacing", "-1")], "option differencing.frameAnalysisSpacing: '-1' is not a time in seconds within 0...3600",
             .notA(.seconds(0...3600), text: "-1")),
            ([("learningRate", "1.5")], "option differencing.learningRate: 1.5 is outside the allowed range (0, 1]",
             .outOfRange(value: "1.5", allowed: "(0, 1]")),
        ]
        for (overrides, words, problem) in cases {
            let refusal = #expect(throws: OptionError.self) { try setup("differencing", overrides) }
            #expect(refusal?.problem == problem, "\(overrides)")
            #expect(refusal?.option == "differencing.\(overrides[0].key)")
            #expect(refusal?.description == words)
        }
        #expect(throws: OptionError(option: "analyzer", .unknownAnalyzer("trajectory2", known: ["differencing", "brightness"]))) {
            _ = try testRegistry.descriptor(named: "trajectory2")
        }
    }

    @Test("an instance name, an entry and the analyzers given are refused with what was found")
    func setupRefusals() throws {
        #expect(throws: OptionError(option: "analyzer engine=differencing", .notAnInstanceName("engine"))) {
            _ = try AnalyzerSetup.parseChoice("engine=differencing")
        }
        #expect(throws: OptionError(option: "pipeline.json", .entryWithoutName)) {
            _ = try AnalyzerSetup.parse(.object([]), registry: testRegistry, source: "pipeline.json")
        }
        #expect(throws: OptionError(option: "d.configuration", .entryMember(.object))) {
            _ = try AnalyzerSetup.parse(.object(["name": .string("d"), "analyzer": .string("differencing"), "configuration": .int(3)]),
                                        registry: testRegistry, source: "pipeline.json")
        }
        #expect(throws: OptionError(option: "differencing.frameAnalysisSpacing", .entryMember(.seconds))) {
            _ = try AnalyzerSetup.parse(.object(["name": .string("differencing"), "frameAnalysisSpacing": .string("soon")]),
                                        registry: testRegistry, source: "pipeline.json")
        }
        #expect(throws: OptionError(option: "differencing.threshold", .notDecodable(.mustBe(.wholeNumber, found: "a string")))) {
            _ = try AnalyzerSetup.parse(.object(["name": .string("differencing"), "configuration": .object(["threshold": .string("high")])]),
                                        registry: testRegistry, source: "pipeline.json")
        }
        let twice = AnalyzerSetup.givenTwice("d", analyzer: "differencing")
        #expect(twice == OptionError(option: "analyzer", .givenTwice(name: "d", analyzer: "differencing")))
        #expect(twice.message == "d is given twice; to run an analyzer more than once, give each its own name: d2=differencing")
    }

    @Test("option text of the wrong kind says what it is not, keeping the text")
    func optionTexts() throws {
        #expect(throws: OptionError(option: "", .notA(.trueOrFalse, text: "maybe"))) { _ = try Bool(optionText: "maybe") }
        #expect(throws: OptionError(option: "", .notA(.number, text: "inf"))) { _ = try Double(optionText: "inf") }
        let cut = try #require(throws: JSONParser.Failure.self) { _ = try JSONParser.parse("{\"a\":") }
        #expect(throws: OptionError(option: "", .notJSON(text: "{\"a\":", cut))) { _ = try JSONValue(optionText: "{\"a\":") }
        let word = try #require(throws: JSONParser.Failure.self) { _ = try JSONParser.parse("[1,x]") }
        #expect(throws: OptionError(option: "", .notJSON(text: "1,x", word))) { _ = try [Int](optionText: "1,x") }
        let kinds = #expect(throws: OptionError.self) { _ = try [Int](optionText: "1,\"x\"") }
        #expect(kinds?.problem == .notValid(text: "1,\"x\"", DecodingProblem(path: "[1]", .mustBe(.wholeNumber, found: "a string"))))
    }
}

@Suite("Event log reading: damaged logs are named by file and line")
struct EventLogReadingTests {
    @Test func damagedLogs() throws {
        let rec = try makeMovingSquare(frames: 4)
        let path = try replay(rec, [try setup("brightness")])
        let lines = try logText(path).split(separator: "\n").map(String.init)

        func check(_ text: String, _ expected: String) {
            do {
                _ = try EventLog.parse(Array(text.utf8), path: "x.jsonl")
                Issue.record("accepted: \(expected)")
            } catch { #expect("\(error)".hasPrefix(expected), "\(error)") }
        }
        check(lines.dropLast().joined(separator: "\n") + "\n" + lines.last!.prefix(10), "x.jsonl:7: last line is cut off")
        check(([lines[0], "not json"] + lines.dropFirst(2)).joined(separator: "\n") + "\n", "x.jsonl:2: not valid JSON")
        check(lines[0].replacingOccurrences(of: #""lumatrace.events","version":2"#, with: #""lumatrace.events","version":9"#) + "\n",
              "x.jsonl:1: event log format version 9 is not supported")
        check(([lines[0], lines[2], lines[1]] + lines.dropFirst(3)).joined(separator: "\n") + "\n", "x.jsonl:3: events are out of frame order")
        check(([lines[0]] + lines.dropFirst(2)).joined(separator: "\n") + "\n", "x.jsonl:6: footer digest does not match")
        // Found by fuzzing: a negative size trapped on its conversion to UInt64 (in version 1's
        // header; version 2 keeps the size in the footer).
        let bytes = try #require(lines.last!.range(of: #""bytes":[0-9]+"#, options: .regularExpression))
        check((lines.dropLast() + [lines.last!.replacingCharacters(in: bytes, with: "\"bytes\":-1")]).joined(separator: "\n") + "\n",
              "x.jsonl:7: footer has no valid recording facts")
        let v1 = try logText(replay(rec, [try setup("brightness")], formatVersion: 1)).split(separator: "\n").map(String.init)
        let v1Bytes = try #require(v1[0].range(of: #""bytes":[0-9]+"#, options: .regularExpression))
        check(v1[0].replacingCharacters(in: v1Bytes, with: "\"bytes\":-1") + "\n", "x.jsonl:1: header has recording.bytes -1, expected at least 0")
        check(lines.dropLast().joined(separator: "\n") + "\n" + lines.last!.replacingOccurrences(of: #""lastFrame":3"#, with: #""lastFrame":1"#) + "\n",
              "x.jsonl:7: footer's lastFrame 1 does not fit")
        let width = try #require(lines[0].range(of: #""width":[0-9]+"#, options: .regularExpression))
        check(lines[0].replacingCharacters(in: width, with: "\"width\":0") + "\n", "x.jsonl:1: header has recording.width 0, expected at least 1")
        // An empty file is refused before it is read (Foundation's reader leaks on an empty file).
        let empty = Scratch.path("empty.events.jsonl")
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        #expect(throws: EventLogError(path: empty, .empty)) { _ = try EventLog.read(empty) }
        #expect(EventLogError(path: empty, .empty).description == "\(empty): empty file: not an event log")
        // A log cut at a line boundary is valid but incomplete.
        let partial = try EventLog.parse(Array((lines.dropLast().joined(separator: "\n") + "\n").utf8), path: "x.jsonl")
        #expect(!partial.isComplete)
        #expect(partial.events.count == 5)
    }
}
