import ArgumentParser
import Foundation
import LumaFormat

/// The options every measuring subcommand takes: how many runs, and whether to print only JSON.
struct RunOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Repeat every measurement N times and report the median.", valueName: "n"))
    var runs = 5

    @Flag(help: """
        Print only the JSON lines on standard output, one per input (progress still goes to \
        standard error): what `lumatrace-bench tables` reads.
        """)
    var json = false

    func validate() throws {
        guard runs >= 1 else { throw ValidationError("--runs needs a whole number ≥ 1 (the median of N runs), got \(runs)") }
    }
}

/// `--data DIR`: where the real clips are.
struct DataOptions: ParsableArguments {
    @Option(name: .customLong("data"), help: ArgumentHelp("The shared data folder holding the real clips.", valueName: "dir"))
    var directory = BenchSettings.defaultDataDirectory

    /// Refuses a data folder that does not exist, for a run that needs one.
    func validate(needed: Bool) throws {
        var isFolder: ObjCBool = false
        guard !needed || (FileManager.default.fileExists(atPath: directory, isDirectory: &isFolder) && isFolder.boolValue) else {
            throw ValidationError("--data \(directory): no such folder; pass the shared data folder that holds the clips "
                                  + "(by default ../shared/data next to the package)")
        }
    }
}

/// How the benchmark's `.luma` recordings are written: `--level` and `--chunk-seconds`.
struct WriterOptions: ParsableArguments {
    @Option(help: ArgumentHelp("zstd level of the recordings (by default the writer's, as `lumatrace record` uses).", valueName: "n"))
    var level = RecordingWriterOptions().compressionLevel

    @Option(help: ArgumentHelp("""
        Chunks of S seconds of recording time, without the writer's byte minimum \
        (RecordingWriterOptions.fixedDuration(S); default: the writer's defaults, as `lumatrace record`).
        """, valueName: "s"))
    var chunkSeconds: Double?

    /// Checks the options with the writer itself, on a tiny recording, before minutes of preparation.
    func validate() throws {
        if let chunkSeconds {
            guard chunkSeconds > 0, chunkSeconds.isFinite else {
                throw ValidationError("--chunk-seconds needs a number of seconds > 0, got \(chunkSeconds)")
            }
        }
        let path = (NSTemporaryDirectory() as NSString).appendingPathComponent("lumatrace-bench-options-\(getpid()).luma")
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let writer = try RecordingWriter(path: path, header: RecordingHeader(width: 16, height: 16, timescale: 90_000, rateNumerator: 30),
                                             options: BenchSettings.writerOptions(level: level, chunkSeconds: chunkSeconds))
            try writer.append([UInt8](repeating: 0, count: 256), ticks: 0)
            try writer.close()
        } catch {
            let flags = "--level \(level)" + (chunkSeconds.map { " --chunk-seconds \($0)" } ?? "")
            let reason = if case LumaFormatError.invalidHeader(_, let reason) = error { "\(reason)" } else { "\(error)" }
            throw ValidationError("\(flags): the writer refuses these options: \(reason)")
        }
    }
}

/// A comma-separated `--only` value: each name must be one of `Choice`'s.
func parseSelection<Choice: RawRepresentable & CaseIterable>(_ argument: String) throws -> [Choice] where Choice.RawValue == String {
    try argument.split(separator: ",").map { name in
        guard let choice = Choice(rawValue: String(name)) else {
            throw ValidationError("'\(name)' is not one of \(Choice.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return choice
    }
}

extension BenchSettings {
    /// The settings every measuring subcommand starts from: its area's targets (the file is read,
    /// and refused with what to fix, before anything is measured), runs and `--json`.
    static func start(_ area: BenchArea, _ run: RunOptions, writer: WriterOptions? = nil) throws -> BenchSettings {
        var settings = BenchSettings(targets: try TargetFile.load().targets(for: area))
        settings.runs = run.runs
        settings.jsonOnly = run.json
        if let writer {
            settings.level = writer.level
            settings.chunkSeconds = writer.chunkSeconds
        }
        return settings
    }
}
