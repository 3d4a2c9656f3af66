import ArgumentParser
import Foundation
import DifferencingAnalyzer
import LumaAnalysis
import LumaEngine
import TrajectoryAnalyzer
import TrackingAnalyzer
import RectanglesAnalyzer
import ExternalAnalyzer
import LumaFormat
import LumaBase

/// The `lumatrace` command. Out-of-tree plugin packages build their own `lumatrace` with
/// `Lumatrace.main(analyzers: Lumatrace.builtinAnalyzers + [AnalyzerDescriptor(MyAnalyzer.self)])`.
public struct Lumatrace: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "lumatrace",
        abstract: "Record fixed-camera video once, replay it through analyzers, get a deterministic event log.",
        discussion: """
            A typical session:
              lumatrace record clip.mp4 -o clip.luma              # video → compressed luma frames (needs ffmpeg)
              lumatrace info clip.luma                            # size, frames, timing, compression, damage
              lumatrace replay clip.luma --analyzer differencing -o clip.events.jsonl
              lumatrace verify clip.events.jsonl                  # re-run from the log header, byte-compare

            Regression testing of a detector change:
              lumatrace diff golden.events.jsonl new.events.jsonl # what was added, lost or changed
              lumatrace score clip.events.jsonl --truth clip.truth.json
              lumatrace regress Recordings/                       # re-run, diff and score every golden log

            Analyzers: run `lumatrace analyzers` to list them and their options.

            Exit status, the same for every command:
              0   done: the result is written, the logs are the same, the replay verified
              1   done, and the answer is a difference: logs differ (diff), a replay does not
                  match its log or the log is incomplete (verify), a log changed or a score
                  dropped (regress), frames are lost to damage (info)
              2   error: an input could not be read, an output was refused, a tool is
                  missing, an analyzer failed; the message on stderr says which and why
              64  usage: an unknown option, a missing argument, a value out of range
            Errors are one line on stderr starting `lumatrace: error:`.
            """,
        version: LumatraceVersion.engine,
        subcommands: [Record.self, Synth.self, Info.self, Replay.self, Play.self, Export.self, Recover.self, Verify.self, Diff.self, Score.self,
                      Regress.self, SweepCommand.self, Truth.self, Render.self, Report.self, NewAnalyzer.self, Analyzers.self]
    )

    public init() {}

    /// The analyzers built into this executable, in registry order.
    public static let builtinAnalyzers: [AnalyzerDescriptor] = [
        AnalyzerDescriptor(DifferencingAnalyzer.self),
        AnalyzerDescriptor(TrajectoryAnalyzer.self),
        AnalyzerDescriptor(TrackingAnalyzer.self),
        AnalyzerDescriptor(RectanglesAnalyzer.self),
        AnalyzerDescriptor(ExternalAnalyzer.self),
    ]

    nonisolated(unsafe) static var registry = AnalyzerRegistry(builtinAnalyzers)

    /// Runs the command line with the given analyzers registered (built-ins by default).
    public static func main(analyzers: [AnalyzerDescriptor]) {
        registry = AnalyzerRegistry(analyzers)
        StandardOutput.checkAtExit()
        run(rawArguments())
    }

    /// Exit statuses (the table in `lumatrace --help`).
    enum Status {
        /// Done, and the answer is a difference (logs differ, a replay does not verify, damage).
        static let difference: Int32 = 1
        /// An error: the command could not do what was asked.
        static let failure: Int32 = 2
        /// A wrong command line: an unknown option, a missing argument, a value out of range.
        static let usage: Int32 = 64
    }

    /// Parses and runs a command line, printing every error in the one style (`lumatrace: error:`,
    /// one line, then the usage hint for a wrong command line) and exiting with the table's status.
    static func run(_ arguments: [String]) -> Never {
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
            Glibc.exit(0)
        } catch {
            let status = exitCode(for: error).rawValue
            let text = fullMessage(for: error)
            if status == 0 {
                if !text.isEmpty { print(text) }
            } else if !text.isEmpty {
                FileHandle.standardError.write(Data((oneLineError(text) + "\n").utf8))
            }
            Glibc.exit(status)
        }
    }

    /// An error as the one line every command prints. ArgumentParser's own errors start "Error: "
    /// and go on with the usage and a "See 'lumatrace X --help'" line: the message is kept and the
    /// help hint folded into it, so a wrong command line is one line too.
    static func oneLineError(_ text: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        var message = lines.first ?? ""
        if message.hasPrefix("Error: ") { message.removeFirst("Error: ".count) }
        var line = "lumatrace: error: " + oneLine(SystemPath.display(message))
        if let see = lines.dropFirst().first(where: { $0.hasPrefix("  See '") || $0.hasPrefix("See '") }),
           let open = see.firstIndex(of: "'"), let close = see[see.index(after: open)...].firstIndex(of: "'") {
            line += " (see `\(see[see.index(after: open)..<close])`)"
        }
        return line
    }

    /// The arguments as the system passed them, with names that are not UTF-8 kept byte for byte
    /// (``SystemPath``); `CommandLine.arguments` would replace their bytes with U+FFFD.
    static func rawArguments() -> [String] {
        (1..<Int(CommandLine.argc)).compactMap { i in CommandLine.unsafeArgv[i].map { SystemPath.string(fromBytes: UnsafePointer($0)) } }
    }
}
