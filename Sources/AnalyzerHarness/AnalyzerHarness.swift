import Foundation
import LumaAnalysis
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
/// Frames in memory are written to a temporary `.luma` recording first, so the analyzer sees
/// exactly what a replay gives it: the same timestamps, frame spacing, region of interest, event
/// encoding and order.
public struct AnalyzerHarness<A: Analyzer>: Sendable where A.Configuration: Sendable {
    /// The analyzer's options (defaults unless given).
    public var configuration: A.Configuration
    /// Engine settings, as `--set NAME.regionOfInterest` and `NAME.frameAnalysisSpacing` give them.
    public var regionOfInterest: NormalizedRect
    public var frameAnalysisSpacing: Double
    /// Frames per second of recordings made from in-memory frames.
    public var framesPerSecond: Int

    public init(_ type: A.Type, configuration: A.Configuration = A.Configuration(), regionOfInterest: NormalizedRect = .full,
                frameAnalysisSpacing: Double = 0, framesPerSecond: Int = 30) {
        self.configuration = configuration
        self.regionOfInterest = regionOfInterest
        self.frameAnalysisSpacing = frameAnalysisSpacing
        self.framesPerSecond = framesPerSecond
    }

    /// Replays `frames` (all the same size) and returns the events, in log order.
    public func run(frames: [HarnessFrame], jobs: Int = 1) throws -> [HarnessEvent] {
        try withRecording(of: frames) { path in try run(recording: path, jobs: jobs) }
    }

    /// Replays `frameCount` frames of `width × height` that `draw` paints on demand (frame index,
    /// pixels top row first), so a long scene never has to be held in memory, and returns the events.
    ///
    ///     let events = try harness.run(width: 320, height: 180, frameCount: 900) { index, pixels in
    ///         scene.render(frame: index, into: pixels)
    ///     }
    public func run(width: Int, height: Int, frameCount: Int, jobs: Int = 1,
                    draw: (Int, UnsafeMutableBufferPointer<UInt8>) throws -> Void) throws -> [HarnessEvent] {
        try withRecording(width: width, height: height, frameCount: frameCount, draw: draw) { path in try run(recording: path, jobs: jobs) }
    }

    /// Replays a recording (optionally only `frames`) and returns the events, in log order.
    public func run(recording path: String, frames: ClosedRange<Int>? = nil, jobs: Int = 1) throws -> [HarnessEvent] {
        try log(recording: path, frames: frames, jobs: jobs).events.map(HarnessEvent.init)
    }

    /// Replays a recording into a full event log (header, events, footer), as `lumatrace replay` writes it.
    public func log(recording path: String, frames: ClosedRange<Int>? = nil, jobs: Int = 1) throws -> EventLog {
        try log(recording: path, frames: frames, jobs: jobs, probed: false)
    }

    /// With `probed`, the analyzer runs inside a ``CallProbe`` that counts the engine's calls.
    func log(recording path: String, frames: ClosedRange<Int>? = nil, jobs: Int = 1, probed: Bool) throws -> EventLog {
        let logPath = Self.temporaryPath("events.jsonl")
        defer { try? FileManager.default.removeItem(atPath: logPath) }
        let registry = AnalyzerRegistry([probed ? AnalyzerDescriptor(CallProbe<A>.self) : AnalyzerDescriptor(A.self)])
        let descriptor = try registry.descriptor(named: A.name)
        var setup = AnalyzerSetup(name: A.name, version: A.version, frameAnalysisSpacing: frameAnalysisSpacing,
                                  regionOfInterest: regionOfInterest, configuration: try JSONValueEncoder.encode(configuration))
        try setup.validate(with: descriptor)
        let reader = try RecordingReader(path: path)
        _ = try Replay.run(reader, setups: [setup], registry: registry,
                           options: ReplayOptions(frames: frames, jobs: jobs), logPath: logPath)
        return try EventLog.read(logPath)
    }

    /// Writes `frames` to a temporary recording, calls `body` with its path, then removes it.
    public func withRecording<R>(of frames: [HarnessFrame], _ body: (String) throws -> R) throws -> R {
        guard let first = frames.first else { throw HarnessFailure("no frames to replay") }
        for (i, frame) in frames.enumerated() where frame.width != first.width || frame.height != first.height {
            throw HarnessFailure("frame \(i) is \(frame.width)x\(frame.height), the first is \(first.width)x\(first.height)")
        }
        return try withRecording(width: first.width, height: first.height, frameCount: frames.count,
                                 draw: { i, pixels in _ = pixels.initialize(from: frames[i].pixels) }, body)
    }

    /// Writes `frameCount` frames that `draw` paints to a temporary recording (frame i at
    /// i / `framesPerSecond` seconds), calls `body` with its path, then removes it.
    public func withRecording<R>(width: Int, height: Int, frameCount: Int,
                                 draw: (Int, UnsafeMutableBufferPointer<UInt8>) throws -> Void,
                                 _ body: (String) throws -> R) throws -> R {
        guard frameCount > 0 else { throw HarnessFailure("no frames to replay") }
        guard width > 0, height > 0 else { throw HarnessFailure("a frame of \(width)x\(height) holds no pixels") }
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

/// A harness run or conformance check that failed, with the reason.
public struct HarnessFailure: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
