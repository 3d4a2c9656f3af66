import Foundation
import LumaAnalysis
import LumaEngine
import LumaFormat

/// The replay a golden log's header describes, ready to run again (`verify`, `regress`).
struct GoldenReplay {
    let golden: EventLog
    let recordingPath: String
    let reader: RecordingReader
    /// The analyzers and options of the header, with any `--set` overrides applied.
    let setups: [AnalyzerSetup]
    /// Analyzers whose version differs from the one that wrote the golden log.
    let versionNotes: [String]

    /// Finds the recording (`recording`, or the header's file name next to the log), checks that
    /// its frames are the ones the log was made from, and resolves the header's analyzers.
    /// A header that starts a program (an `external` analyzer's command) is refused unless
    /// `allowPrograms` (`--allow-external`). `missingRecordingHint` ends the message when the
    /// recording is not found: what the calling command offers (verify has `--recording`).
    init(golden: EventLog, recording: String? = nil, overrides: OptionOverrides = OptionOverrides(),
         registry: AnalyzerRegistry, allowPrograms: Bool,
         missingRecordingHint: String = "pass --recording PATH to name it") throws {
        self.golden = golden
        let header = golden.header
        let path = recording ?? URL(fileURLWithPath: golden.path).deletingLastPathComponent().appendingPathComponent(header.recordingFile).path
        guard access(SystemPath.bytes(path), F_OK) == 0 else {
            throw CLIError("\(golden.path): its recording \(header.recordingFile) is not next to it (looked for \(path)); \(missingRecordingHint)")
        }
        recordingPath = path
        reader = try RecordingReader(path: path)
        let digest = try reader.framesDigest().hexString
        guard digest == header.recordingDigest else {
            throw CLIError("\(path) is not the recording \(golden.path) was made from (frames digest \(digest.prefix(12))…, the log says \(header.recordingDigest.prefix(12))…)")
        }
        var setups: [AnalyzerSetup] = []
        var notes: [String] = []
        for a in header.analyzers {
            guard let descriptor = try? registry.descriptor(named: a.analyzer) else {
                throw CLIError("\(golden.path) was written with analyzer '\(a.analyzer)', which this lumatrace does not have "
                    + "(it has \(registry.names.joined(separator: ", "))); use the lumatrace built with that analyzer, e.g. for a "
                    + "package made by `lumatrace new-analyzer`: swift run --package-path PACKAGE lumatrace verify \(golden.path)")
            }
            if descriptor.version != a.version {
                notes.append("analyzer \(a.name == a.analyzer ? a.name : "\(a.name) (\(a.analyzer))") is version \(descriptor.version), \(golden.path) was written by version \(a.version); differences are expected")
            }
            var s = a
            s.version = descriptor.version
            try s.validate(with: descriptor)
            setups.append(s)
        }
        try ProgramPermission.require(setups, from: golden.path, registry: registry, allowed: allowPrograms)
        try overrides.apply(to: &setups, registry: registry)
        self.setups = setups
        versionNotes = notes
    }

    /// Replays into `logPath`. A golden log that itself records an analyzer failure must fail the
    /// same way (the caller's comparison checks how); any other failure is an error.
    func run(to logPath: String, jobs: Int, registry: AnalyzerRegistry, progress: ProgressBar? = nil) throws {
        let header = golden.header
        var options = ReplayOptions(frames: header.firstFrame...header.lastFrame, skipDamaged: header.skipDamaged,
                                    jobs: jobs, recordingName: header.recordingFile, progress: { progress?.update($0, $1) })
        // Paths in the header (a plugin's folder) are relative to the golden log's folder, wherever it is run from.
        options.configurationFolder = URL(fileURLWithPath: golden.path).deletingLastPathComponent().path
        defer { progress?.finish() }
        do {
            _ = try LumaEngine.Replay.run(reader, setups: setups, registry: registry, options: options, logPath: logPath)
        } catch {
            guard case .analyzerFailed = error, golden.footer?["end"]?["failure"] != nil else { throw error }
        }
    }
}
