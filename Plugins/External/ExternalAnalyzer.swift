import Foundation
import LumaAnalysis

/// Runs an analyzer written in any language as a subprocess, speaking ``ExternalProtocol`` over
/// its stdin and stdout: Lumatrace sends a hello with the stream and options, then every analyzed
/// frame; the program answers each frame with its events and a done line.
///
///     lumatrace replay clip.luma --analyzer external \
///       --set external.command=".venv/bin/python Plugins/BrightnessHistogram/brightness_histogram.py" \
///       --set external.options='{"every":10}'
///
/// The program's events go into the log like any analyzer's, in the same order. The program must
/// be deterministic itself (no clocks or unseeded randomness in what it emits). A program that
/// crashes, hangs past `timeout` (reading its answer included), writes anything but protocol
/// lines, or writes more than `maximumLineBytes` in a line, `maximumEventsPerFrame` events or
/// `maximumBytesPerFrame` bytes for a frame stops the replay with an error naming the frame; the
/// program and every process it started are ended (see `ExternalProcess`), and the log written
/// so far stays valid.
public struct ExternalAnalyzer: Analyzer {
    public static let name = "external"
    public static let version = "1"
    public static let summary = "runs an analyzer program in any language over stdin/stdout (see ExternalProtocol)"

    private let program: ExternalProcess
    private let timeout: Double
    private let startTimeout: Double
    private let maximumEventsPerFrame: Int
    private let maximumBytesPerFrame: Int
    private let timescale: Int64
    /// The files the command names, hashed as the program starts: the log header keeps them.
    public let programFiles: [ProgramFile]
    /// The event kinds the program declared in its ready line (none: any kind, read as JSON).
    public private(set) var eventSchemas: [EventSchema] = []

    /// The frame on its way to the program (the program's own memory is its process's, not counted here).
    public static func memoryPerPixel(in configuration: ExternalConfiguration) -> Double { 2 }

    public init(configuration: ExternalConfiguration, context: AnalyzerContext) throws {
        let folder = Self.workingFolder(configuration, context: context)
        let ranIn = ExternalFolder(path: folder, configured: configuration.folder, relativeTo: context.configurationFolder ?? "the current folder")
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw ExternalAnalyzerError(command: configuration.command, .folderMissing(ranIn))
        }
        programFiles = ProgramFile.named(in: configuration.command, folder: folder)
        program = try ExternalProcess(command: configuration.command, folder: folder, maximumLineBytes: configuration.maximumLineBytes)
        timeout = configuration.timeout
        startTimeout = max(configuration.timeout, configuration.startTimeout)
        maximumEventsPerFrame = configuration.maximumEventsPerFrame
        maximumBytesPerFrame = configuration.maximumBytesPerFrame
        timescale = context.stream.timescale
        let deadline = Deadline(seconds: startTimeout, setBy: "external.startTimeout")
        do {
            eventSchemas = try startProtocol(configuration, context: context, deadline: deadline)
        } catch var e as ExternalAnalyzerError where folder != FileManager.default.currentDirectoryPath {
            // A relative path in the command is relative to this folder: say which it was.
            e.folder = ranIn
            throw e
        }
    }

    /// Sends the hello and waits for the program to say it is ready; returns the event kinds it
    /// declares there.
    private func startProtocol(_ configuration: ExternalConfiguration, context: AnalyzerContext, deadline: Deadline) throws -> [EventSchema] {
        try endingTheProgramOnError {
            try ExternalProtocol.hello(context, options: configuration.options).withUnsafeBytes {
                try program.write($0, deadline: deadline, during: .hello)
            }
            let line = try program.readLine(deadline: deadline, during: .hello)
            let answer = try parse(line, during: .hello)
            if let message = answer["error"]?.stringValue { throw fail(.refusedToStart(message: message)) }
            guard answer["ready"]?.boolValue == true else { throw fail(.notReady(found: Self.excerpt(line))) }
            return try (answer["events"]?.arrayValue ?? []).map { entry in
                guard let schema = EventSchema(json: entry), Self.isValidKind(schema.kind) else {
                    throw fail(.invalidEventDeclaration(found: Self.excerpt(Array(entry.serialized.utf8))))
                }
                return schema
            }
        }
    }

    public mutating func analyze(_ frame: Frame, into events: inout EventSink) throws {
        let deadline = Deadline(seconds: timeout, setBy: "external.timeout")
        let step = ExternalStep.frame(frame.index)
        try endingTheProgramOnError {
            try ExternalProtocol.header(magic: ExternalProtocol.frameMagic, width: frame.width, height: frame.height, index: frame.index,
                                        ticks: frame.timestamp.ticks, timescale: timescale).withUnsafeBytes {
                try program.write($0, deadline: deadline, during: step)
            }
            try program.write(UnsafeRawBufferPointer(frame.pixels), deadline: deadline, during: step)
            try collectEvents(until: .int(Int64(frame.index)), deadline: deadline, during: step, into: &events)
        }
    }

    public mutating func finish(into events: inout EventSink) throws {
        let deadline = Deadline(seconds: startTimeout, setBy: "external.startTimeout")
        try endingTheProgramOnError {
            try ExternalProtocol.header(magic: ExternalProtocol.endMagic, width: 0, height: 0, index: 0, ticks: 0, timescale: 0).withUnsafeBytes {
                try program.write($0, deadline: deadline, during: .end)
            }
            try collectEvents(until: .string("end"), deadline: deadline, during: .end, into: &events)
            try program.finish(deadline: deadline)
        }
    }

    /// Runs `body`; if it throws, ends the program's process group before passing the error on, so
    /// nothing of a failed program outlives the step that failed.
    private func endingTheProgramOnError<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch {
            program.terminate()
            throw error
        }
    }

    /// Reads event lines until `{"done": done}`, holding at most ``ExternalConfiguration/maximumBytesPerFrame``
    /// of them: each line is counted as it arrives, before it is parsed or kept.
    private func collectEvents(until done: JSONValue, deadline: Deadline, during step: ExternalStep, into events: inout EventSink) throws {
        var count = 0
        var bytes = 0
        while true {
            let line = try program.readLine(deadline: deadline, during: step)
            bytes += line.count + 1
            guard bytes <= maximumBytesPerFrame else { throw fail(.tooManyBytes(limit: maximumBytesPerFrame), step) }
            let answer = try parse(line, during: step)
            if let d = answer["done"] {
                guard d == done || (d.intValue != nil && d.intValue == done.intValue) else {
                    throw fail(.wrongDone(found: d.serialized, expected: done.serialized), step)
                }
                return
            }
            if let message = answer["error"]?.stringValue { throw fail(.reportedError(message: message)) }
            guard let kind = answer["kind"]?.stringValue, Self.isValidKind(kind), let data = answer["data"] else {
                throw fail(.notAnEvent(found: Self.excerpt(line)), step)
            }
            count += 1
            guard count <= maximumEventsPerFrame else { throw fail(.tooManyEvents(limit: maximumEventsPerFrame), step) }
            events.emit(kind, json: data)
        }
    }

    private func parse(_ line: [UInt8], during step: ExternalStep) throws(ExternalAnalyzerError) -> JSONValue {
        guard let value = try? JSONParser.parse(line), case .object = value else { throw fail(.notJSONObject(found: Self.excerpt(line)), step) }
        return value
    }

    /// The error of `problem` in this program's `step`.
    private func fail(_ problem: ExternalAnalyzerProblem, _ step: ExternalStep? = nil) -> ExternalAnalyzerError {
        ExternalAnalyzerError(command: program.command, step: step, problem)
    }

    static func isValidKind(_ kind: String) -> Bool {
        (1...64).contains(kind.utf8.count) && kind.utf8.allSatisfy { c in
            (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == 46 || c == 95 || c == 45
        }
    }

    static func excerpt(_ line: [UInt8]) -> String {
        let text = String(decoding: line.prefix(80), as: UTF8.self)
        return "'" + text + (line.count > 80 ? "…" : "") + "'"
    }
}
