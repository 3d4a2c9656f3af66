import ArgumentParser
import Foundation

/// `--jobs`: how many threads a command runs at once (`replay` decodes ahead and runs analyzers
/// side by side, `record` runs analyzers beside the recorder, `regress` replays recordings at
/// once). One range and one default for every command, and one help text; no output depends on it.
struct JobsOption: ParsableArguments {
    /// The threads a command may ask for.
    static let range = 1...256

    /// The default when `--jobs` is not given: the machine's cores, at most 8 (past 8 a replay
    /// waits on its decoder and a regress run on the disk more than on the cores).
    static var defaultCount: Int { min(ProcessInfo.processInfo.activeProcessorCount, 8) }

    @Option(name: .customLong("jobs"),
            help: ArgumentHelp("Threads to run at once, 1...256 (default: the machine's cores, at most 8). No output depends on it.",
                               valueName: "n"))
    var requested: Int?

    /// The threads to use: the ones asked for, or the default.
    var count: Int { requested ?? Self.defaultCount }

    func validate() throws {
        if let requested, !Self.range.contains(requested) {
            throw ValidationError("--jobs \(requested) is outside \(Self.range.lowerBound)...\(Self.range.upperBound)")
        }
    }
}
