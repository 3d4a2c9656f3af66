import ArgumentParser
import DifferencingAnalyzer
import LumaEngine
import TrajectoryAnalyzer
import TrackingAnalyzer
import RectanglesAnalyzer
import ExternalAnalyzer
import LumaFormat

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
            """,
        version: LumatraceVersion.engine,
        subcommands: [Record.self, Synth.self, Info.self, Replay.self, Export.self, Recover.self, Verify.self, Diff.self, Score.self,
                      Regress.self, Truth.self, Render.self, Report.self, NewAnalyzer.self, Analyzers.self]
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
        main(rawArguments())
    }

    /// The arguments as the system passed them, with names that are not UTF-8 kept byte for byte
    /// (``SystemPath``); `CommandLine.arguments` would replace their bytes with U+FFFD.
    static func rawArguments() -> [String] {
        (1..<Int(CommandLine.argc)).compactMap { i in CommandLine.unsafeArgv[i].map { SystemPath.string(fromBytes: UnsafePointer($0)) } }
    }
}
