import Foundation
import LumaAnalysis
import LumaBase
import LumaEngine
import LumaFormat

/// The replay a golden log's header describes, ready to run again (`verify`, `regress`).
public struct GoldenReplay {
    public let golden: EventLog
    /// Where the recording was found (shown without a URL's password and query).
    public let recording: RecordingLocation
    public let reader: RecordingReader
    /// The analyzers and options of the header; settings to try (``SettingOverrides``) are
    /// applied to them before `run(to:jobs:registry:progress:)`.
    public var setups: [AnalyzerSetup]
    /// Analyzers whose version differs from the one that wrote the golden log.
    public let versionNotes: [String]

    /// Finds the recording (`recording`, a path or an http(s) URL, or the header's file name next to
    /// the log), checks that
    /// its frames are the ones the log was made from, and resolves the header's analyzers.
    /// A header that starts a program (an `external` analyzer's command) is refused unless
    /// `allowPrograms`. `overrides` (`--set`) change the header's settings before each setup is
    /// validated, so each is decoded and validated once.
    public init(golden: EventLog, recording: RecordingLocation? = nil, registry: AnalyzerRegistry, allowPrograms: Bool,
                overrides: SettingOverrides = SettingOverrides()) throws {
        self.golden = golden
        let header = golden.header
        try AnalyzerSetup.checkInstanceCount(header.analyzers.count, in: golden.path)
        let location = recording ?? RecordingLocation(URL(fileURLWithPath: golden.path).deletingLastPathComponent().appendingPathComponent(header.recordingFile).path)
        // A URL is checked by asking for it (a 404 names it); a path first by whether it is there.
        guard location.isURL || (try? SystemPath.status(of: location.openableText)) != nil else {
            throw RegressionError.recordingMissing(log: golden.path, recordingFile: header.recordingFile, lookedFor: location.description)
        }
        self.recording = location
        reader = try RecordingReader(location: location)
        let digest = try reader.framesDigest().hexString
        guard digest == header.recordingDigest else {
            // An unclosed file's digest is that of the frames a scan finds (none at all when the
            // recorder died before its first chunk): say why, not only that they differ.
            if !reader.hasIndex { throw RegressionError.recordingNotClosed(path: location.description, log: golden.path) }
            throw RegressionError.wrongRecording(path: location.description, log: golden.path, digest: digest, expected: header.recordingDigest)
        }
        var setups: [AnalyzerSetup] = []
        var notes: [String] = []
        for a in header.analyzers {
            guard let descriptor = try? registry.descriptor(named: a.analyzer) else {
                throw RegressionError.unknownAnalyzer(log: golden.path, analyzer: a.analyzer, known: registry.names)
            }
            if descriptor.version != a.version {
                notes.append("analyzer \(a.name == a.analyzer ? a.name : "\(a.name) (\(a.analyzer))") is version \(descriptor.version), \(golden.path) was written by version \(a.version); differences are expected")
            }
            var s = a
            s.version = descriptor.version
            let settings = overrides.settings(for: a.name)
            if settings.isEmpty { try s.validate(with: descriptor) } else { try s.apply(settings, with: descriptor) }
            setups.append(s)
        }
        try ProgramPermission.require(setups, from: golden.path, registry: registry, allowed: allowPrograms)
        self.setups = setups
        versionNotes = notes
    }

    /// Replays into `logPath`. A golden log that itself records an analyzer failure must fail the
    /// same way (the caller's comparison checks how); any other failure is an error.
    ///
    /// With a `memory` pool, the replay first holds the bytes it plans to use (``ReplayMemory``),
    /// waiting for replays running beside it to give theirs back; one that needs more than the
    /// whole budget is refused, naming the recording.
    public func run(to logPath: String, jobs: Int, registry: AnalyzerRegistry, memory: MemoryPool? = nil,
                    progress: (@Sendable (Int, Int) -> Void)? = nil, warning: (@Sendable (String) -> Void)? = nil) throws {
        guard let memory else { return try replay(to: logPath, jobs: jobs, registry: registry, progress: progress, warning: warning) }
        let plan = ReplayMemory(reader)
        let bytes = plan.neededBytes(setups, registry: registry)
        do throws(MemoryNeed) { try memory.hold(bytes, plan: plan, instances: setups.count) } catch {
            throw ReplayError.memory(recording: golden.header.recordingFile, error)
        }
        defer { memory.release(bytes) }
        try replay(to: logPath, jobs: jobs, registry: registry, progress: progress, warning: warning)
    }

    private func replay(to logPath: String, jobs: Int, registry: AnalyzerRegistry, progress: (@Sendable (Int, Int) -> Void)?,
                        warning: (@Sendable (String) -> Void)?) throws {
        let header = golden.header
        var options = ReplayOptions(frames: header.firstFrame...header.lastFrame, skipDamaged: header.skipDamaged,
                                    jobs: jobs, recordingName: header.recordingFile, progress: progress)
        // Paths in the header (a plugin's folder) are relative to the golden log's folder, wherever it is run from.
        options.configurationFolder = URL(fileURLWithPath: golden.path).deletingLastPathComponent().path
        options.warning = warning
        // A golden of an older log format is re-run in its own format, so it can still match byte for byte.
        options.logFormatVersion = header.formatVersion
        do {
            _ = try LumaEngine.Replay.run(reader, setups: setups, registry: registry, options: options, logPath: logPath)
        } catch {
            guard case .analyzerFailed = error, golden.end?.failure != nil else { throw error }
        }
    }
}
