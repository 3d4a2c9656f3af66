import Dispatch
import Foundation
import LumaAnalysis
import LumaBase
import LumaFormat
import LumaOutput

/// How to run a replay (everything that does not change the events, plus the frame range).
public struct ReplayOptions: Sendable {
    /// Frames to replay, inclusive; `nil` replays all.
    public var frames: ClosedRange<Int>?
    /// Replay around damaged chunks, logging each gap as an `engine` `gap` event, instead of stopping.
    public var skipDamaged = false
    /// Threads: > 1 decodes ahead on a background thread and runs analyzers of a frame concurrently.
    /// The log is byte-identical for any value.
    public var jobs = 1
    /// Where analyzers may write debug images (`--dump`).
    public var debugOutputDirectory: String?
    /// Called after each frame with (frames done, frames total), for a progress bar.
    public var progress: (@Sendable (Int, Int) -> Void)?
    /// Told what the replay went around (damaged frames skipped), as it happens; the log records
    /// it too. The engine prints nothing itself.
    public var warning: (@Sendable (String) -> Void)?
    /// The file name recorded in the log header (defaults to the recording's last path component).
    public var recordingName: String?
    /// An existing log at the destination may be replaced (by a complete log only): `--force`.
    public var replaceExistingLog = false
    /// Files besides the recording that the replay reads (a pipeline file): never the destination.
    public var otherInputs: [String] = []
    /// The folder relative paths in the analyzers' configurations are relative to: the folder of
    /// the log whose header holds them (see `AnalyzerContext/configurationFolder`); `nil`: the
    /// current folder.
    public var configurationFolder: String?
    /// The event log format version to write (``EventLogHeader/version`` unless re-running a
    /// version-1 golden log, which must come out byte for byte).
    public var logFormatVersion = EventLogHeader.version
    /// When set, each analyzer instance's own analysis time is added to it (wall-clock readings,
    /// never in the log; see ``InstanceClock``).
    public var instanceClock: InstanceClock?
    /// When set, a replay whose analyzer instances would need more memory than this (``ReplayMemory``)
    /// is refused before anything runs.
    public var memoryBudget: MemoryBudget?

    public init(frames: ClosedRange<Int>? = nil, skipDamaged: Bool = false, jobs: Int = 1,
                debugOutputDirectory: String? = nil, recordingName: String? = nil,
                progress: (@Sendable (Int, Int) -> Void)? = nil) {
        self.frames = frames
        self.skipDamaged = skipDamaged
        self.jobs = jobs
        self.debugOutputDirectory = debugOutputDirectory
        self.recordingName = recordingName
        self.progress = progress
    }
}

/// Replays a recording through analyzers and writes the event log.
///
/// Events are written in (frame, analyzer order, sequence) order; events an analyzer emits from
/// `finish` are stamped with the last replayed frame. Analyzers of one frame may run concurrently;
/// their events are merged in analyzer order, so the log never depends on scheduling.
public enum Replay {
    public static func run(_ reader: RecordingReader, setups: [AnalyzerSetup], registry: AnalyzerRegistry,
                           options: ReplayOptions, logPath: String) throws(ReplayError) -> EventLogFooter {
        try run(reader, setups: setups, registry: registry, options: options, inMemory: false) { header, inputs throws(OutputError) in
            try EventLogWriter(path: logPath, header: header, replacingExisting: options.replaceExistingLog, inputs: inputs)
        }.footer
    }

    /// The replay, its log written by the writer `openLog` makes from the header and the replay's
    /// inputs (a file at a path, or memory: `inMemory`, whose failure leaves no file).
    static func run(_ reader: RecordingReader, setups: [AnalyzerSetup], registry: AnalyzerRegistry, options: ReplayOptions, inMemory: Bool,
                    openLog: (EventLogHeader, [String]) throws(OutputError) -> EventLogWriter) throws(ReplayError) -> (footer: EventLogFooter, log: EventLogWriter) {
        let total = reader.frameCount
        guard total > 0 else { throw .recording(.noFrames(path: reader.path)) }
        let range = options.frames ?? 0...(total - 1)
        guard range.lowerBound >= 0, range.upperBound < total else {
            throw .option(OptionError(option: "frames", .framesOutside(range, lastFrame: total - 1)))
        }
        guard EventLogHeader.readableVersions.contains(options.logFormatVersion) else {
            throw .option(OptionError(option: "log format version", .logFormatVersion(options.logFormatVersion, readable: EventLogHeader.readableVersions)))
        }

        if let budget = options.memoryBudget {
            do throws(MemoryNeed) { try ReplayMemory(reader).check(setups, registry: registry, budget: budget) } catch {
                throw .memory(recording: options.recordingName ?? reader.fileName, error)
            }
        }
        let digest: String
        do throws(LumaFormatError) { digest = try reader.framesDigest().hexString } catch { throw .recording(error) }
        let v1 = options.logFormatVersion == 1
        let feed = ChunkFeed(reader, chunks: reader.chunks.filter { $0.frames.overlaps(range.lowerBound..<(range.upperBound + 1)) },
                             ahead: options.jobs > 1)
        // Instantiate every analyzer before writing anything: bad settings fail fast.
        let start = try StreamStart(setups: setups, registry: registry, recording: reader.header, file: options.recordingName ?? reader.fileName,
                                    identity: v1 ? digest : try streamIdentity(reader, feed: feed, skipDamaged: options.skipDamaged, framesDigest: digest),
                                    span: .replay(frames: range, frameCount: total, bytes: reader.fileSize, framesDigest: digest,
                                                  skipDamaged: options.skipDamaged, formatVersion: options.logFormatVersion),
                                    concurrent: options.jobs > 1,
                                    debugImages: options.debugOutputDirectory.map { DebugImages.pgmFiles(in: $0) },
                                    configurationFolder: options.configurationFolder)
        let (analysis, header) = (start.analysis, start.logHeader)
        analysis.clock = options.instanceClock
        let ending = header.ending
        let log: EventLogWriter
        do throws(OutputError) {
            log = try openLog(header, [reader.path] + options.otherInputs)
        } catch { throw .output(error) }
        analysis.start(writingTo: log)

        var state = LoopState(reader: reader, feed: feed, analysis: analysis, range: range, options: options)
        do {
            try state.run()
        } catch let failure as AnalyzerFailure {
            do throws(OutputError) { _ = try log.finish(framesReplayed: state.framesDone, failure: failure, ending: ending) } catch { throw .output(error) }
            throw .analyzerFailed(analyzer: failure.analyzer, frame: failure.frame, cause: failure.cause,
                                  incompleteLog: inMemory ? nil : log.failedLogKeptAt.map { .keptAside($0, existing: log.path) } ?? .placed(log.path))
        } catch let e as ReplayError {
            log.abandon()
            throw e
        } catch let e as OutputError {
            log.abandon()
            throw .output(e)
        } catch {
            log.abandon()
            throw .log(EventLogError(path: log.path, .writingStopped("\(error)")))
        }
        do throws(OutputError) { return (try log.finish(framesReplayed: state.framesDone, ending: ending), log) } catch { throw .output(error) }
    }

    /// ``StreamIdentity`` of the recording's first frame, taken from the chunk the replay walks
    /// first when that is the recording's first (decoded once for both). When the first chunk is
    /// damaged or missing, a replay around damage names the stream by its frames digest instead
    /// (a live analysis never saw such a recording).
    static func streamIdentity(_ reader: RecordingReader, feed: ChunkFeed, skipDamaged: Bool, framesDigest: String) throws(ReplayError) -> String {
        let decoded: Result<DecodedChunk, LumaFormatError>
        if let walked = feed.chunks.first, walked.firstFrame == 0, let first = feed.peekFirst() {
            decoded = first
        } else if let first = reader.chunks.first, first.firstFrame == 0 {
            let decoder = reader.makeDecoder()
            do throws(LumaFormatError) { decoded = .success(try decoder.decode(first)) } catch { decoded = .failure(error) }
        } else {
            decoded = .failure(.missingFrames(path: reader.path, frames: 0...0, cause: .inDamagedChunk))
        }
        switch decoded {
        case .success(let chunk): return chunk.withFrame(0, of: reader.header) { StreamIdentity.ofFirstFrame($0) }
        case .failure(let failure):
            guard skipDamaged else { throw .damaged(failure) }
            return "damaged:" + framesDigest
        }
    }
}

/// The replay's walk over the recording's chunks, handing each frame to the ``FrameAnalysis``.
private struct LoopState {
    let reader: RecordingReader
    let feed: ChunkFeed
    let analysis: FrameAnalysis
    let range: ClosedRange<Int>
    let options: ReplayOptions
    var framesDone = 0

    init(reader: RecordingReader, feed: ChunkFeed, analysis: FrameAnalysis, range: ClosedRange<Int>, options: ReplayOptions) {
        self.reader = reader
        self.feed = feed
        self.analysis = analysis
        self.range = range
        self.options = options
    }

    mutating func run() throws {
        var expected = range.lowerBound
        for (i, entry) in feed.chunks.enumerated() {
            let decoded = feed.take(i)
            if entry.firstFrame > expected {
                // A hole in a closed file's index is frames `recover` removed with their damaged
                // chunk: the file is whole without them, and the gap is logged whatever the
                // options. A hole found by scanning an unclosed file is damage.
                try gap(expected..<entry.firstFrame, ticks: entry.firstTicks, because: .missing(.betweenChunks), removed: reader.hasIndex)
            }
            let chunk: DecodedChunk
            switch decoded {
            case .success(let c): chunk = c
            case .failure(let e):
                let lost = max(entry.firstFrame, range.lowerBound)..<min(entry.firstFrame + entry.frameCount, range.upperBound + 1)
                guard options.skipDamaged else { throw ReplayError.damaged(e) }
                try gap(lost, ticks: entry.firstTicks, because: .damaged(e))
                expected = lost.upperBound
                continue
            }
            for k in 0..<chunk.count {
                let index = entry.firstFrame + k
                guard range.contains(index) else { continue }
                try chunk.withFrame(k, of: reader.header) { try analysis.analyze($0) }
                framesDone += 1
                expected = index + 1
                options.progress?(framesDone, range.count)
            }
            feed.recycle(chunk)
        }
        if expected <= range.upperBound {
            try gap(expected..<(range.upperBound + 1), ticks: reader.chunks.last?.lastTicks ?? 0, because: .missing(.pastTheEnd))
        }
        try analysis.finish(lastFrame: range.upperBound)
    }

    /// What is wrong with a chunk, in words that do not depend on how the recording's path was
    /// typed (`./clip.luma` and `clip.luma` must give the same log).
    static func damageReason(_ error: LumaFormatError) -> String {
        switch error {
        case .damagedChunk(_, let chunk, let frames, let damage):
            return "chunk \(chunk) (frames \(frames.lowerBound)...\(frames.upperBound)) is damaged: \(damage)"
        case .io(_, let failure): return failure.description
        default:
            let text = error.description
            guard let colon = text.range(of: ": ") else { return text }
            return String(text[colon.upperBound...])
        }
    }

    /// Why frames are logged as a gap: missing from the recording, or in a chunk that failed.
    enum GapCause {
        case missing(MissingFramesCause)
        case damaged(LumaFormatError)

        /// The gap's reason in the log.
        var reason: String {
            switch self {
            case .missing(let cause): return cause.description
            case .damaged(let error): return LoopState.damageReason(error)
            }
        }
    }

    /// Logs frames that cannot be replayed (when replaying around damage), stamped with the time
    /// of the nearest known frame.
    /// Frames `removed` by `recover` are logged without asking for `skipDamaged`.
    mutating func gap(_ frames: Range<Int>, ticks: Int64, because cause: GapCause, removed: Bool = false) throws {
        guard !frames.isEmpty else { return }
        guard options.skipDamaged || removed else {
            switch cause {
            case .missing(let missing):
                throw ReplayError.damaged(.missingFrames(path: reader.path, frames: frames.lowerBound...(frames.upperBound - 1), cause: missing))
            case .damaged(let error):
                throw ReplayError.damaged(error)
            }
        }
        let reason = cause.reason
        try analysis.gap(frames, ticks: ticks, reason: reason)
        let what = removed ? "frames \(frames.lowerBound)...\(frames.upperBound - 1) were removed from the recording by recover (logged as a gap)"
                           : "skipping damaged frames \(frames.lowerBound)...\(frames.upperBound - 1): \(reason)"
        options.warning?(what)
    }
}
