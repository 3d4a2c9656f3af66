import Foundation
import LumaAnalysis

/// Options of the ``ExternalAnalyzer``: which program to run, what to tell it, and how long and how
/// much it may answer.
public struct ExternalConfiguration: AnalyzerConfiguration {
    /// The program, run with `/bin/sh -c` in ``folder``, e.g.
    /// `.venv/bin/python Plugins/BrightnessHistogram/brightness_histogram.py`.
    public var command = ""
    /// The folder the program runs in, relative to the folder of the file this configuration is
    /// written in (see ``AnalyzerContext/configurationFolder``): on the command line the current
    /// folder. `replay` writes it into the log relative to the log's folder, so a golden log finds
    /// its plugin from wherever `verify` or `regress` runs, and the two can move together.
    public var folder = "."
    /// Options handed to the program in its hello line, as a JSON object (e.g. `{"every":10}`).
    public var options = JSONValue.object([])
    /// Seconds the program may take to answer one frame before it is stopped and the replay fails
    /// naming the frame.
    public var timeout = 30.0
    /// Seconds the program may take to start (answer its hello) and to finish (answer the end and
    /// exit); never less than ``timeout``. Generous by default: interpreters can be slow to start.
    public var startTimeout = 10.0
    /// The longest line the program may write, in bytes: a bound on the memory one event takes.
    public var maximumLineBytes = 1 << 20
    /// The most events the program may write for one frame (or at the end). With
    /// ``maximumLineBytes`` it bounds the memory a frame's events take: by default at most
    /// 1000 × 1 MiB of JSON text, and 1 MiB for any one event.
    public var maximumEventsPerFrame = 1000

    static let timeoutRange = 0.1...3600.0
    static let lineBytesRange = 1024...(256 << 20)
    static let eventsPerFrameRange = 1...1_000_000

    public init() {}

    public static var optionHelp: KeyValuePairs<String, String> {
        [
            "command": "the program to run with /bin/sh -c (required), e.g. \"python3 my_analyzer.py\"",
            "folder": "the folder it runs in, relative to the log's (or pipeline file's) folder; replay sets it to the current folder (default .)",
            "options": "a JSON object passed to the program in its hello line (default {})",
            "timeout": "seconds allowed per frame, 0.1...3600 (default 30)",
            "startTimeout": "seconds allowed to start (answer the hello) and to finish (answer the end and exit), at least timeout, 0.1...3600 (default 10)",
            "maximumLineBytes": "longest line the program may write, bytes, 1024...268435456 (default 1048576)",
            "maximumEventsPerFrame": "most events the program may write for one frame, 1...1000000 (default 1000)",
        ]
    }

    public func validate() throws(OptionError) {
        guard !command.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw OptionError(option: "command", message: "is empty: give the program to run, e.g. external.command=\"python3 my_analyzer.py\"")
        }
        guard !folder.isEmpty, !folder.utf8.contains(0) else {
            throw OptionError(option: "folder", message: "is empty: give a folder, e.g. . for the log's own folder")
        }
        guard case .object = options else {
            throw OptionError(option: "options", message: "must be a JSON object, e.g. {\"every\":10}")
        }
        guard timeout.isFinite, Self.timeoutRange.contains(timeout) else { throw .outOfRange("timeout", timeout, allowed: "0.1...3600") }
        guard startTimeout.isFinite, Self.timeoutRange.contains(startTimeout) else {
            throw .outOfRange("startTimeout", startTimeout, allowed: "0.1...3600")
        }
        guard Self.lineBytesRange.contains(maximumLineBytes) else {
            throw .outOfRange("maximumLineBytes", maximumLineBytes, allowed: "1024...268435456")
        }
        guard Self.eventsPerFrameRange.contains(maximumEventsPerFrame) else {
            throw .outOfRange("maximumEventsPerFrame", maximumEventsPerFrame, allowed: "1...1000000")
        }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        command = try c.decode(String.self, forKey: .command)
        folder = try c.decode(String.self, forKey: .folder)
        timeout = try c.decode(Double.self, forKey: .timeout)
        options = try c.decode(JSONValue.self, forKey: .options)
        startTimeout = try c.decode(Double.self, forKey: .startTimeout)
        maximumLineBytes = try c.decode(Int.self, forKey: .maximumLineBytes)
        maximumEventsPerFrame = try c.decode(Int.self, forKey: .maximumEventsPerFrame)
    }
}
