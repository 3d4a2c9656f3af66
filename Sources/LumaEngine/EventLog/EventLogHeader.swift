import LumaAnalysis
import LumaBase
/// The first line of an event log: everything needed to re-run the replay exactly.
public struct EventLogHeader: Equatable, Sendable {
    public static let format = "lumatrace.events"
    public static let version = 1

    /// The recording's file name (as given to `replay`), byte size and identity.
    public var recordingFile: String
    public var recordingBytes: UInt64
    /// SHA-256 of the frames (timestamps and pixels), hex. The recording's true identity.
    public var recordingDigest: String
    public var frameCount: Int
    public var width: Int
    public var height: Int
    public var timescale: Int64
    /// Version of the engine that wrote the log.
    public var engineVersion: String
    /// Frames replayed: `first...last` (inclusive).
    public var firstFrame: Int
    public var lastFrame: Int
    /// Whether damaged chunks were skipped (`replay --skip-damaged`).
    public var skipDamaged: Bool
    /// Analyzers, in the order their events appear within a frame.
    public var analyzers: [AnalyzerSetup]

    public init(recordingFile: String, recordingBytes: UInt64, recordingDigest: String, frameCount: Int, width: Int,
                height: Int, timescale: Int64, engineVersion: String, firstFrame: Int, lastFrame: Int,
                skipDamaged: Bool, analyzers: [AnalyzerSetup]) {
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
        self.skipDamaged = skipDamaged
        self.analyzers = analyzers
    }

    public var json: JSONValue {
        .object([
            .init("format", .string(EventLogHeader.format)),
            .init("version", .int(Int64(EventLogHeader.version))),
            .init("recording", .object([
                .init("file", .string(recordingFile)),
                .init("bytes", .int(Int64(recordingBytes))),
                .init("sha256", .string(recordingDigest)),
                .init("frames", .int(Int64(frameCount))),
                .init("width", .int(Int64(width))),
                .init("height", .int(Int64(height))),
                .init("timescale", .int(timescale)),
            ])),
            .init("engine", .object([.init("name", .string("lumatrace")), .init("version", .string(engineVersion))])),
            .init("replay", .object([
                .init("from", .int(Int64(firstFrame))),
                .init("to", .int(Int64(lastFrame))),
                .init("skipDamaged", .bool(skipDamaged)),
            ])),
            .init("analyzers", .array(analyzers.map(\.json))),
        ])
    }

    /// Reads a header line back. Analyzer setups stay as JSON here; resolve them against a
    /// registry with ``AnalyzerSetup/parse(_:registry:source:)`` to re-run them.
    public init(json: JSONValue, source: String) throws(EventLogError) {
        func need<T>(_ v: T?, _ what: String) throws(EventLogError) -> T {
            guard let v else { throw EventLogError(path: source, line: 1, reason: "header has no valid \(what)") }
            return v
        }
        /// An integer field that no recording can have below `minimum` (a size, a count).
        func need(_ v: Int?, _ what: String, atLeast minimum: Int) throws(EventLogError) -> Int {
            let v = try need(v, what)
            guard v >= minimum else { throw EventLogError(path: source, line: 1, reason: "header has \(what) \(v), expected at least \(minimum)") }
            return v
        }
        guard json["format"]?.stringValue == EventLogHeader.format else {
            throw EventLogError(path: source, line: 1, reason: "not a Lumatrace event log (the first line has no \"format\":\"\(EventLogHeader.format)\")")
        }
        let version = try need(json["version"]?.intValue, "version")
        guard version == EventLogHeader.version else {
            throw EventLogError(path: source, line: 1, reason: "event log format version \(version) is not supported (this build reads version \(EventLogHeader.version))")
        }
        let rec = try need(json["recording"], "recording")
        recordingFile = try need(rec["file"]?.stringValue, "recording.file")
        recordingBytes = UInt64(try need(rec["bytes"]?.intValue, "recording.bytes", atLeast: 0))
        recordingDigest = try need(rec["sha256"]?.stringValue, "recording.sha256")
        frameCount = try need(rec["frames"]?.intValue, "recording.frames", atLeast: 0)
        width = try need(rec["width"]?.intValue, "recording.width", atLeast: 1)
        height = try need(rec["height"]?.intValue, "recording.height", atLeast: 1)
        timescale = Int64(try need(rec["timescale"]?.intValue, "recording.timescale", atLeast: 1))
        engineVersion = try need(json["engine"]?["version"]?.stringValue, "engine.version")
        let replay = try need(json["replay"], "replay")
        firstFrame = try need(replay["from"]?.intValue, "replay.from", atLeast: 0)
        lastFrame = try need(replay["to"]?.intValue, "replay.to", atLeast: firstFrame)
        guard lastFrame < frameCount else {
            throw EventLogError(path: source, line: 1, reason: "header has replay.to \(lastFrame), past the recording's \(frameCount) frames")
        }
        skipDamaged = try need(replay["skipDamaged"]?.boolValue, "replay.skipDamaged")
        let list = try need(json["analyzers"]?.arrayValue, "analyzers")
        analyzers = []
        for a in list {
            let name = try need(a["name"]?.stringValue, "analyzer name")
            let roi = try need(a["regionOfInterest"]?.arrayValue?.compactMap(\.doubleValue), "\(name).regionOfInterest")
            guard roi.count == 4 else { throw EventLogError(path: source, line: 1, reason: "header has an invalid \(name).regionOfInterest") }
            var analyzer = name
            if a["analyzer"] != nil { analyzer = try need(a["analyzer"]?.stringValue, "\(name).analyzer") }
            analyzers.append(AnalyzerSetup(name: name, analyzer: analyzer, version: try need(a["version"]?.stringValue, "\(name).version"),
                                           frameAnalysisSpacing: try need(a["frameAnalysisSpacing"]?.doubleValue, "\(name).frameAnalysisSpacing"),
                                           regionOfInterest: NormalizedRect(x: roi[0], y: roi[1], width: roi[2], height: roi[3]),
                                           configuration: try need(a["configuration"], "\(name).configuration")))
            for entry in a["events"]?.arrayValue ?? [] {
                guard let schema = EventSchema(json: entry) else {
                    throw EventLogError(path: source, line: 1, reason: "header has an invalid \(name).events entry \(entry.serialized.prefix(200)): expected {\"kind\":…,\"version\":…,\"shape\":…}")
                }
                analyzers[analyzers.count - 1].events.append(schema)
            }
            for file in a["programFiles"]?.arrayValue ?? [] {
                analyzers[analyzers.count - 1].programFiles.append(ProgramFile(
                    path: try need(file["path"]?.stringValue, "\(name).programFiles path"),
                    sha256: try need(file["sha256"]?.stringValue, "\(name).programFiles sha256")))
            }
        }
    }
}

/// A problem reading an event log, naming the file and line.
public typealias EventLogError = FileProblem<EventLogFile>

/// What an ``EventLogError`` is about: an event log.
public enum EventLogFile {}
