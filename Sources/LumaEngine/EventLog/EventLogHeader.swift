import LumaAnalysis
import LumaBase
/// The first line of an event log: everything needed to re-run the replay exactly.
///
/// Format version 2 (written by default) holds only what is known before the first frame is
/// analyzed: the recording's name and frame size, the engine, where the replay starts (and where it
/// stops, when that is before the recording's end) and the analyzers. What is known only at the end
/// (the recording's size, frames digest and frame count, the last frame replayed) is in the footer,
/// so a log analyzed live as its recording is made is, at every moment, a prefix of the log a later
/// replay writes. ``EventLog`` fills those fields in from the footer when it reads a complete log.
/// Version 1 kept them in the header; such logs stay readable, and a golden replay of one writes
/// version 1 again, so old goldens verify byte for byte.
public struct EventLogHeader: Equatable, Sendable {
    public static let format = "lumatrace.events"
    /// The most frames a log may say a recording has (and the largest frame index it may name):
    /// 2^40, a thousand frames a second for 34 years.
    public static let maximumFrames = 1 << 40
    /// The format version written by default.
    public static let version = 2
    /// The format versions this build reads (and writes).
    public static let readableVersions = 1...2

    /// The format version of this log.
    public var formatVersion: Int
    /// The recording's file name (as given to `replay`), byte size and identity.
    public var recordingFile: String
    /// Size of the recording (version 2: from the footer; 0 while the log is incomplete).
    public var recordingBytes: UInt64
    /// SHA-256 of the frames (timestamps and pixels), hex. The recording's true identity (version 2:
    /// from the footer; empty while the log is incomplete).
    public var recordingDigest: String
    /// Frames in the recording (version 2: from the footer; while incomplete, the frames seen).
    public var frameCount: Int
    public var width: Int
    public var height: Int
    public var timescale: Int64
    /// Version of the engine that wrote the log.
    public var engineVersion: String
    /// Frames replayed: `first...last` (inclusive).
    public var firstFrame: Int
    public var lastFrame: Int
    /// Whether the replay runs to the recording's last frame (version 2 then writes no `to`: a live
    /// analysis does not know where that is).
    public var replaysToEnd: Bool
    /// Whether damaged chunks were skipped (`replay --skip-damaged`).
    public var skipDamaged: Bool
    /// Analyzers, in the order their events appear within a frame.
    public var analyzers: [AnalyzerSetup]

    public init(recordingFile: String, recordingBytes: UInt64, recordingDigest: String, frameCount: Int, width: Int,
                height: Int, timescale: Int64, engineVersion: String, firstFrame: Int, lastFrame: Int,
                skipDamaged: Bool, analyzers: [AnalyzerSetup], formatVersion: Int = EventLogHeader.version, replaysToEnd: Bool? = nil) {
        self.formatVersion = formatVersion
        self.recordingFile = recordingFile
        self.recordingBytes = recordingBytes
        self.recordingDigest = recordingDigest
        self.frameCount = frameCount
        self.width = width
        self.height = height
        self.timescale = timescale
        self.engineVersion = engineVersion
        self.firstFrame = firstFrame
        self.lastFrame = lastFrame
        self.replaysToEnd = replaysToEnd ?? (lastFrame == frameCount - 1)
        self.skipDamaged = skipDamaged
        self.analyzers = analyzers
    }

    public var json: JSONValue {
        var recording: [JSONValue.Member] = [.init("file", .string(recordingFile))]
        if formatVersion == 1 {
            recording += [.init("bytes", .int(Int64(recordingBytes))), .init("sha256", .string(recordingDigest)),
                          .init("frames", .int(Int64(frameCount)))]
        }
        recording += [.init("width", .int(Int64(width))), .init("height", .int(Int64(height))), .init("timescale", .int(timescale))]
        var replay: [JSONValue.Member] = [.init("from", .int(Int64(firstFrame)))]
        if formatVersion == 1 || !replaysToEnd { replay.append(.init("to", .int(Int64(lastFrame)))) }
        replay.append(.init("skipDamaged", .bool(skipDamaged)))
        return .object([
            .init("format", .string(EventLogHeader.format)),
            .init("version", .int(Int64(formatVersion))),
            .init("recording", .object(recording)),
            .init("engine", .object([.init("name", .string("lumatrace")), .init("version", .string(engineVersion))])),
            .init("replay", .object(replay)),
            .init("analyzers", .array(analyzers.map(\.json))),
        ])
    }

    /// What the footer of a version-2 log says about the recording and the replay's end.
    public struct Ending: Equatable, Sendable {
        public var recordingBytes: UInt64
        public var recordingDigest: String
        public var frameCount: Int
        public var lastFrame: Int

        public init(recordingBytes: UInt64, recordingDigest: String, frameCount: Int, lastFrame: Int) {
            (self.recordingBytes, self.recordingDigest, self.frameCount, self.lastFrame) = (recordingBytes, recordingDigest, frameCount, lastFrame)
        }

        /// The members the footer's `end` object gains.
        var members: [JSONValue.Member] {
            [.init("recording", .object([.init("bytes", .int(Int64(recordingBytes))), .init("sha256", .string(recordingDigest)),
                                         .init("frames", .int(Int64(frameCount)))])),
             .init("lastFrame", .int(Int64(lastFrame)))]
        }

        /// Read from a footer's `end` object; `nil` when they are not there.
        init?(end: JSONValue) {
            guard let r = end["recording"], let bytes = r["bytes"]?.intValue, bytes >= 0, let digest = r["sha256"]?.stringValue,
                  let frames = r["frames"]?.intValue, (0...EventLogHeader.maximumFrames).contains(frames),
                  let last = end["lastFrame"]?.intValue, (0...EventLogHeader.maximumFrames).contains(last)
            else { return nil }
            self.init(recordingBytes: UInt64(bytes), recordingDigest: digest, frameCount: frames, lastFrame: last)
        }
    }

    /// Whether the recording's facts (size, frames digest, frame count) are known: always in
    /// version 1, and in version 2 once the footer is there. A live log cut short by a kill does not
    /// know them (its ``frameCount`` is then only the frames it has events for).
    public var knowsRecording: Bool { formatVersion == 1 || !recordingDigest.isEmpty }

    /// The end facts of a complete log (as its footer, or a version-1 header, gives them).
    public var ending: Ending {
        Ending(recordingBytes: recordingBytes, recordingDigest: recordingDigest, frameCount: frameCount, lastFrame: lastFrame)
    }

    /// The header with what the footer says (version 2).
    mutating func complete(with ending: Ending) {
        recordingBytes = ending.recordingBytes
        recordingDigest = ending.recordingDigest
        frameCount = ending.frameCount
        if replaysToEnd { lastFrame = ending.lastFrame }
    }

    /// Reads a header line back. Analyzer setups stay as JSON here; resolve them against a
    /// registry with `AnalyzerSetup/parse(_:registry:source:)` to re-run them.
    public init(json: JSONValue, source: String) throws(EventLogError) {
        let fields = HeaderFields(source: source)
        guard json["format"]?.stringValue == EventLogHeader.format else { throw fields.refusal(.notAnEventLog) }
        let version = try fields.need(json["version"]?.intValue, "version")
        guard EventLogHeader.readableVersions.contains(version) else {
            throw fields.refusal(.unsupportedVersion(version, readable: EventLogHeader.readableVersions))
        }
        formatVersion = version
        let recording = try Self.recording(try fields.need(json["recording"], "recording"), version: version, fields)
        (recordingFile, recordingBytes, recordingDigest, frameCount) = (recording.file, recording.bytes, recording.digest, recording.frameCount)
        (width, height, timescale) = (recording.width, recording.height, recording.timescale)
        engineVersion = try fields.need(json["engine"]?["version"]?.stringValue, "engine.version")
        let span = try Self.span(try fields.need(json["replay"], "replay"), version: version, frameCount: frameCount, fields)
        (firstFrame, lastFrame, replaysToEnd, skipDamaged) = (span.first, span.last, span.toEnd, span.skipDamaged)
        analyzers = []
        for entry in try fields.need(json["analyzers"]?.arrayValue, "analyzers") {
            analyzers.append(try Self.analyzer(entry, fields))
        }
    }

    /// The `recording` object: its file name (a name, never a path), and for version 1 its size,
    /// digest and frame count (later versions keep those in the footer).
    private static func recording(_ rec: JSONValue, version: Int, _ fields: HeaderFields) throws(EventLogError)
        -> (file: String, bytes: UInt64, digest: String, frameCount: Int, width: Int, height: Int, timescale: Int64) {
        let file = try fields.need(rec["file"]?.stringValue, "recording.file")
        // The rule for every command: the recording a log names is a file beside the log (or the
        // one the user names), so a name is a file name, never a path that leads elsewhere.
        guard !file.isEmpty, !file.contains("/"), file != ".", file != "..", !file.utf8.contains(0) else {
            throw fields.refusal(.recordingFileNotAName(file))
        }
        var (bytes, digest, frameCount): (UInt64, String, Int) = (0, "", 0)
        if version == 1 {
            bytes = UInt64(try fields.need(rec["bytes"]?.intValue, "recording.bytes", atLeast: 0, atMost: .max))
            digest = try fields.need(rec["sha256"]?.stringValue, "recording.sha256")
            frameCount = try fields.need(rec["frames"]?.intValue, "recording.frames", atLeast: 0)
        }
        return (file, bytes, digest, frameCount,
                try fields.need(rec["width"]?.intValue, "recording.width", atLeast: 1, atMost: 65536),
                try fields.need(rec["height"]?.intValue, "recording.height", atLeast: 1, atMost: 65536),
                Int64(try fields.need(rec["timescale"]?.intValue, "recording.timescale", atLeast: 1, atMost: .max)))
    }

    /// The `replay` object: the frames replayed. A version 1 log names its last frame, which must
    /// lie in the recording; later logs leave it out when the replay ran to the end.
    private static func span(_ replay: JSONValue, version: Int, frameCount: Int, _ fields: HeaderFields) throws(EventLogError)
        -> (first: Int, last: Int, toEnd: Bool, skipDamaged: Bool) {
        let first = try fields.need(replay["from"]?.intValue, "replay.from", atLeast: 0)
        var last = Int.max
        if version == 1 || replay["to"] != nil {
            last = try fields.need(replay["to"]?.intValue, "replay.to", atLeast: first)
        }
        var toEnd = replay["to"] == nil
        if version == 1 {
            guard last < frameCount else { throw fields.refusal(.replayPastRecording(lastFrame: last, frameCount: frameCount)) }
            toEnd = last == frameCount - 1
        }
        return (first, last, toEnd, try fields.need(replay["skipDamaged"]?.boolValue, "replay.skipDamaged"))
    }

    /// One entry of `analyzers`: the setup as it ran, with the event kinds and program files it declared.
    private static func analyzer(_ a: JSONValue, _ fields: HeaderFields) throws(EventLogError) -> AnalyzerSetup {
        let name = try fields.need(a["name"]?.stringValue, "analyzer name")
        let roi = try fields.need(a["regionOfInterest"]?.arrayValue?.compactMap(\.doubleValue), "\(name).regionOfInterest")
        guard roi.count == 4 else { throw fields.refusal(.invalidRegionOfInterest(analyzer: name)) }
        var analyzer = name
        if a["analyzer"] != nil { analyzer = try fields.need(a["analyzer"]?.stringValue, "\(name).analyzer") }
        var setup = AnalyzerSetup(name: name, analyzer: analyzer, version: try fields.need(a["version"]?.stringValue, "\(name).version"),
                                  frameAnalysisSpacing: try fields.need(a["frameAnalysisSpacing"]?.doubleValue, "\(name).frameAnalysisSpacing"),
                                  regionOfInterest: NormalizedRect(x: roi[0], y: roi[1], width: roi[2], height: roi[3]),
                                  configuration: try fields.need(a["configuration"], "\(name).configuration"))
        for entry in a["events"]?.arrayValue ?? [] {
            guard let schema = EventSchema(json: entry) else {
                throw fields.refusal(.invalidEventsEntry(analyzer: name, entry: String(entry.serialized.prefix(200))))
            }
            setup.events.append(schema)
        }
        for file in a["programFiles"]?.arrayValue ?? [] {
            setup.programFiles.append(ProgramFile(path: try fields.need(file["path"]?.stringValue, "\(name).programFiles path"),
                                                  sha256: try fields.need(file["sha256"]?.stringValue, "\(name).programFiles sha256")))
        }
        return setup
    }
}

/// The header line's fields as they are read: each one there and in its range, or a refusal
/// naming it (always on line 1 of `source`).
private struct HeaderFields {
    let source: String

    func refusal(_ problem: EventLogProblem) -> EventLogError { EventLogError(path: source, line: 1, problem) }

    func need<T>(_ v: T?, _ what: String) throws(EventLogError) -> T {
        guard let v else { throw refusal(.headerFieldMissing(what)) }
        return v
    }

    /// An integer field that no recording can have below `minimum` (a size, a count), and none
    /// above `maximum` (frame indices and counts: ``EventLogHeader/maximumFrames``), so sums and
    /// spans of them never overflow.
    func need(_ v: Int?, _ what: String, atLeast minimum: Int, atMost maximum: Int = EventLogHeader.maximumFrames) throws(EventLogError) -> Int {
        let v = try need(v, what)
        guard v >= minimum else { throw refusal(.headerFieldBelow(what, value: v, minimum: minimum)) }
        guard v <= maximum else { throw refusal(.headerFieldAbove(what, value: v, maximum: maximum)) }
        return v
    }
}
