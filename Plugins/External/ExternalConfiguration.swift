import Foundation
import LumaAnalysis

/// Options of the ``ExternalAnalyzer``: which program to run, what to tell it, and how long and how
/// much it may answer.
public struct ExternalConfiguration: AnalyzerConfiguration {
    /// The program, run with `/bin/sh -c` in ``folder``, e.g.
    /// `.venv/bin/python Plugins/BrightnessHistogram/brightness_histogram.py`.
    public var command = ""
    /// The folder the program runs in, relative to the folder of the file this configuration is
    /// written in (see `AnalyzerContext/configurationFolder`): on the command line the current
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
    /// The most events the program may write for one frame (or at the end).
    public var maximumEventsPerFrame = 1000
    /// The most bytes the program may write on stdout for one frame (or at the end), every line and
    /// newline counted: the bound on the memory a frame's events take, 16 MiB by default. The two
    /// limits above alone would allow 1000 × 1 MiB, a gigabyte held for one frame; this one stops
    /// such a program as soon as its output passes the limit, before more of it is held.
    public var maximumBytesPerFrame = 16 << 20

    /// The seconds ``timeout`` and ``startTimeout`` allow.
    static let timeoutRange = 0.1...3600.0
    /// The bytes ``maximumLineBytes`` allows.
    static let lineBytesRange = 1024...(256 << 20)
    /// The events ``maximumEventsPerFrame`` allows.
    static let eventsPerFrameRange = 1...1_000_000
    /// The bytes ``maximumBytesPerFrame`` allows.
    static let bytesPerFrameRange = 1024...(1 << 30)

    public init() {}

    public static let options: [AnalyzerOption<Self>] = [
        AnalyzerOption("command", \.command, help: "the program to run with /bin/sh -c (required), e.g. \"python3 my_analyzer.py\"") {
            $0.trimmingCharacters(in: .whitespaces).isEmpty ? "is empty: give the program to run, e.g. external.command=\"python3 my_analyzer.py\"" : nil
        },
        AnalyzerOption("folder", \.folder,
                       help: "the folder it runs in, relative to the log's (or pipeline file's) folder; replay sets it to the current folder") {
            $0.isEmpty || $0.utf8.contains(0) ? "is empty: give a folder, e.g. . for the log's own folder" : nil
        },
        AnalyzerOption("options", \.options, help: "a JSON object passed to the program in its hello line") {
            if case .object = $0 { nil } else { "must be a JSON object, e.g. {\"every\":10}" }
        },
        AnalyzerOption("timeout", \.timeout, in: timeoutRange, help: "seconds allowed per frame"),
        AnalyzerOption("startTimeout", \.startTimeout, in: timeoutRange,
                       help: "seconds allowed to start (answer the hello) and to finish (answer the end and exit), never less than timeout"),
        AnalyzerOption("maximumLineBytes", \.maximumLineBytes, in: lineBytesRange, help: "longest line the program may write, bytes"),
        AnalyzerOption("maximumEventsPerFrame", \.maximumEventsPerFrame, in: eventsPerFrameRange,
                       help: "most events the program may write for one frame"),
        AnalyzerOption("maximumBytesPerFrame", \.maximumBytesPerFrame, in: bytesPerFrameRange,
                       help: "most bytes the program may write on stdout for one frame, newlines included"),
    ]
}
