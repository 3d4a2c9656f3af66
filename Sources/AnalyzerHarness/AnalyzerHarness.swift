import Foundation
import LumaAnalysis
import LumaBase
import LumaEngine
import LumaFormat

/// Runs one analyzer through the real replay engine on frames held in memory or on a recording,
/// and hands back its events: the test bench for plugin authors.
///
///     let harness = AnalyzerHarness(BrightnessAnalyzer.self)
///     let events = try harness.run(frames: (0..<30).map { HarnessFrame.filled(64, 48, value: UInt8($0 * 8)) })
///     #expect(events.filter { $0.kind == "brightness" }.count == 30)
///     try harness.checkConformance()          // the rules every analyzer must keep, in one line
///
/// Frames in memory go straight through the engine's frame analysis, the log kept in memory
/// (``Route/inMemory``, the default): the analyzer sees what a replay gives it, the same
/// timestamps (frame i at i / `framesPerSecond` s), stream identity, frame spacing, region of
/// interest, event encoding and order, and nothing is written to disk. ``Route/throughRecording``
/// writes them to a temporary `.luma` recording and replays that instead, as `lumatrace replay`
/// would; a test checks that both give the same events for every built-in analyzer.
public struct AnalyzerHarness<A: Analyzer>: Sendable where A.Configuration: Sendable {
    /// How frames given in memory reach the analyzer.
    public enum Route: Sendable {
        /// Through the engine's frame analysis, the log in memory: no file (the default).
        case inMemory
        /// Through a temporary `.luma` recording and a replay of it, as `lumatrace replay`.
        case throughRecording
    }

    /// The analyzer's options (defaults unless given).
    public var configuration: A.Configuration
    /// Engine settings, as `--set NAME.regionOfInterest` and `NAME.frameAnalysisSpacing` give them.
    public var regionOfInterest: NormalizedRect
    public var frameAnalysisSpacing: Double
    /// Frames per second of recordings made from in-memory frames.
    public var framesPerSecond: Int
    /// How frames given in memory reach the analyzer (``Route/inMemory`` unless set).
    public var route: Route = .inMemory

    public init(_ type: A.Type, configuration: A.Configuration = A.Configuration(), regionOfInterest: NormalizedRect = .full,
                frameAnalysisSpacing: Double = 0, framesPerSecond: Int = 30) {
        self.configuration = configuration
        self.regionOfInterest = regionOfInterest
        self.frameAnalysisSpacing = frameAnalysisSpacing
        self.framesPerSecond = framesPerSecond
    }

    /// Replays `frames` (all the same size) and returns the events, in log order.
    public func run(frames: [HarnessFrame], jobs: Int = 1) throws -> [HarnessEvent] {
        guard route == .inMemory else { return try withRecording(of: frames) { path in try run(recording: path, jobs: jobs) } }
        let width = try Self.commonWidth(of: frames)
        return try run(width: width, height: frames[0].height, frameCount: frames.count, jobs: jobs) { i, pixels in
            _ = pixels.initialize(from: frames[i].pixels)
        }
    }

    /// Replays `frameCount` frames of `width × height` that `draw` paints on demand (frame index,
    /// pixels top row first), so a long scene never has to be held in memory, and returns the events.
    ///
    ///     let events = try harness.run(width: 320, height: 180, frameCount: 900) { index, pixels in
    ///         scene.render(frame: index, into: pixels)
    ///     }
    public func run(width: Int, height: Int, frameCount: Int, jobs: Int = 1,
                    draw: (Int, UnsafeMutableBufferPointer<UInt8>) throws -> Void) throws -> [HarnessEvent] {
        guard route == .inMemory else {
            return try withRecording(width: width, height: height, frameCount: frameCount, draw: draw) { path in try run(recording: path, jobs: jobs) }
        }
        return try log(width: width, height: height, frameCount: frameCount, jobs: jobs, draw: draw).events.map(HarnessEvent.init)
    }

    /// Analyzes `frameCount` frames that `draw` paints (each once, in order), in memory, into a
    /// full event log (header, events, footer) as a replay of their recording would write it, but
    /// for the recording's file name and size (`(memory)`, 0).
    public func log(width: Int, height: Int, frameCount: Int, jobs: Int = 1,
                    draw: (Int, UnsafeMutableBufferPointer<UInt8>) throws -> Void) throws -> EventLog {
        try Self.checkFrames(width: width, height: height, count: frameCount)
        let (registry, setup) = try prepared()
        let timescale = Int64(framesPerSecond)
        func header(digest: String, analyzers: [AnalyzerSetup]) -> EventLogHeader {
            EventLogHeader(recordingFile: "(memory)", recordingBytes: 0, recordingDigest: digest, frameCount: frameCount,
                           width: width, height: height, timescale: timescale, engineVersion: LumatraceVersion.engine,
                           firstFrame: 0, lastFrame: frameCount - 1, skipDamaged: false, analyzers: analyzers,
                           formatVersion: EventLogHeader.version)
        }
        var pixels = [UInt8](repeating: 0, count: width * height)
        var digest = FramesDigest()
        var run: (analysis: FrameAnalysis, writer: EventLogWriter)?
        do {
            for i in 0..<frameCount {
                try pixels.withUnsafeMutableBufferPointer { try draw(i, $0) }
                try pixels.withUnsafeBufferPointer { pixels in
                    let frame = Frame(index: i, timestamp: Timestamp(ticks: Int64(i), timescale: timescale), width: width, height: height,
                                      pixels: pixels)
                    digest.add(ticks: Int64(i), pixels: pixels)
                    if run == nil {
                        // The stream is named by its first frame, as a replay names it.
                        let stream = StreamInfo(width: width, height: height, timescale: timescale, nominalFrameRate: Double(framesPerSecond),
                                                identity: StreamIdentity.ofFirstFrame(frame))
                        let analysis = try FrameAnalysis(setups: [setup], registry: registry, stream: stream, concurrent: jobs > 1)
                        let writer = EventLogWriter(inMemoryWith: header(digest: "", analyzers: analysis.setups))
                        analysis.start(writingTo: writer)
                        run = (analysis, writer)
                    }
                    try run!.analysis.analyze(frame)
                }
            }
            try run!.analysis.finish(lastFrame: frameCount - 1)
        } catch let failure as AnalyzerFailure {
            throw ReplayError.analyzerFailed(analyzer: failure.analyzer, frame: failure.frame, cause: failure.cause, incompleteLog: nil)
        }
        let (analysis, writer) = run!
        let final = header(digest: digest.finalize().hexString, analyzers: analysis.setups)
        try writer.finish(framesReplayed: frameCount, ending: final.ending)
        // The frames digest is known only after the last frame: the header line is written again
        // with it (the footer's events digest covers the event lines only).
        let written = writer.memoryBytes
        let body = written[(written.firstIndex(of: 10).map { $0 + 1 } ?? written.endIndex)...]
        return try EventLog.parse(Array(final.json.serialized.utf8) + [10] + body, path: "(memory)")
    }

    /// Refuses `count` frames of `width`×`height` when there are none or they hold no pixels.
    static func checkFrames(width: Int, height: Int, count: Int) throws(HarnessFailure) {
        guard count > 0 else { throw .noFrames }
        guard width > 0, height > 0 else { throw .emptyFrame(width: width, height: height) }
    }

    /// The width all `frames` share (they must have one size).
    static func commonWidth(of frames: [HarnessFrame]) throws -> Int {
        guard let first = frames.first else { throw HarnessFailure.noFrames }
        for (i, frame) in frames.enumerated() where frame.width != first.width || frame.height != first.height {
            throw HarnessFailure.frameSizesDiffer(frame: i, width: frame.width, height: frame.height, firstWidth: first.width, firstHeight: first.height)
        }
        return first.width
    }

    /// Replays a recording (optionally only `frames`) and returns the events, in log order.
    public func run(recording path: String, frames: ClosedRange<Int>? = nil, jobs: Int = 1) throws -> [HarnessEvent] {
        try log(recording: path, frames: frames, jobs: jobs).events.map(HarnessEvent.init)
    }

    /// Replays a recording into a full event log (header, events, footer), as `lumatrace replay` writes it.
    public func log(recording path: String, frames: ClosedRange<Int>? = nil, jobs: Int = 1) throws -> EventLog {
        try log(recording: path, frames: frames, jobs: jobs, probedAs: nil)
    }

    /// With `probedAs`, the analyzer runs inside a ``CallProbe`` that counts the engine's calls,
    /// as an instance of that name (the ``CallLedger`` entry it counts into).
    func log(recording path: String, frames: ClosedRange<Int>? = nil, jobs: Int = 1, probedAs run: String?) throws -> EventLog {
        let logPath = Self.temporaryPath("events.jsonl")
        defer { try? FileManager.default.removeItem(atPath: logPath) }
        let (registry, setup) = try prepared(probedAs: run)
        let reader = try RecordingReader(path: path)
        _ = try Replay.run(reader, setups: [setup], registry: registry,
                           options: ReplayOptions(frames: frames, jobs: jobs), logPath: logPath)
        return try EventLog.read(logPath)
    }

    /// The registry holding this analyzer (inside a ``CallProbe`` running as instance `run` when
    /// probed) and its setup, validated as `--set` would be.
    func prepared(probedAs run: String? = nil) throws -> (AnalyzerRegistry, AnalyzerSetup) {
        let registry = AnalyzerRegistry([run == nil ? AnalyzerDescriptor(A.self) : AnalyzerDescriptor(CallProbe<A>.self)])
        let descriptor = try registry.descriptor(named: A.name)
        var setup = AnalyzerSetup(name: run ?? A.name, analyzer: A.name, version: A.version, frameAnalysisSpacing: frameAnalysisSpacing,
                                  regionOfInterest: regionOfInterest, configuration: try JSONValueEncoder.encode(configuration))
        try setup.validate(with: descriptor)
        return (registry, setup)
    }

    /// Writes `frames` to a temporary recording, calls `body` with its path, then removes it.
    public func withRecording<R>(of frames: [HarnessFrame], _ body: (String) throws -> R) throws -> R {
        let width = try Self.commonWidth(of: frames)
        return try withRecording(width: width, height: frames[0].height, frameCount: frames.count,
                                 draw: { i, pixels in _ = pixels.initialize(from: frames[i].pixels) }, body)
    }

    /// Writes `frameCount` frames that `draw` paints to a temporary recording (frame i at
    /// i / `framesPerSecond` seconds), calls `body` with its path, then removes it.
    public func withRecording<R>(width: Int, height: Int, frameCount: Int,
                                 draw: (Int, UnsafeMutableBufferPointer<UInt8>) throws -> Void,
                                 _ body: (String) throws -> R) throws -> R {
        try Self.checkFrames(width: width, height: height, count: frameCount)
        let path = Self.temporaryPath("luma")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try RecordingWriter(path: path, header: RecordingHeader(width: width, height: height,
                                                                             timescale: Int64(framesPerSecond), rateNumerator: framesPerSecond))
        var pixels = [UInt8](repeating: 0, count: width * height)
        for i in 0..<frameCount {
            try pixels.withUnsafeMutableBufferPointer { try draw(i, $0) }
            try writer.append(pixels, ticks: Int64(i))
        }
        try writer.close()
        return try body(path)
    }

    static func temporaryPath(_ suffix: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("lumatrace-harness-\(getpid())-\(UUID().uuidString.prefix(8)).\(suffix)").path
    }
}

/// One frame for the harness: `width × height` luma bytes, top row first.
public struct HarnessFrame: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height, "a frame holds width × height bytes")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A frame of one grey level.
    public static func filled(_ width: Int, _ height: Int, value: UInt8) -> HarnessFrame {
        HarnessFrame(width: width, height: height, pixels: [UInt8](repeating: value, count: width * height))
    }

    /// A grey frame with a bright square of `size` pixels whose top-left corner is at (`x`, `y`).
    public static func square(_ width: Int, _ height: Int, x: Int, y: Int, size: Int, background: UInt8 = 40, value: UInt8 = 220) -> HarnessFrame {
        var f = filled(width, height, value: background)
        for row in max(0, y)..<min(height, y + size) { for col in max(0, x)..<min(width, x + size) { f.pixels[row * width + col] = value } }
        return f
    }
}

/// An event as the log holds it: frame, kind and payload.
public struct HarnessEvent: Sendable, Equatable {
    public var frame: Int
    public var kind: String
    public var payload: JSONValue

    init(_ event: LoggedEvent) {
        frame = event.frame
        kind = event.kind
        payload = event.data
    }

    /// The payload as the analyzer's own event type.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T { try payload.decode(T.self) }
}
