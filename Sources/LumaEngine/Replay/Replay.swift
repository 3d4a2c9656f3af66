import Dispatch
import Foundation
import LumaAnalysis
import LumaBase
import LumaFormat

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
    /// the log whose header holds them (see ``AnalyzerContext/configurationFolder``); `nil`: the
    /// current folder.
    public var configurationFolder: String?

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
        let total = reader.frameCount
        guard total > 0 else { throw .recording(.noFrames(path: reader.path)) }
        let range = options.frames ?? 0...(total - 1)
        guard range.lowerBound >= 0, range.upperBound < total else {
            throw .option(OptionError(option: "frames", message: "frames \(range.lowerBound)...\(range.upperBound) are outside the recording's 0...\(total - 1)"))
        }
        guard !setups.isEmpty else { throw .option(OptionError(option: "analyzer", message: "no analyzer given; known analyzers: \(registry.names.joined(separator: ", "))")) }
        var seen = Set<String>()
        for s in setups where !seen.insert(s.name).inserted {
            throw .option(OptionError(option: "analyzer", message: """
                \(s.name) is given twice; to run an analyzer more than once, give each its own name: \
                --analyzer \(s.name)2=\(s.analyzer)
                """))
        }

        let digest: String
        do throws(LumaFormatError) { digest = try reader.framesDigest().hexString } catch { throw .recording(error) }
        let h = reader.header
        let stream = StreamInfo(width: h.width, height: h.height, timescale: h.timescale, nominalFrameRate: h.nominalFrameRate,
                                frameCount: total, recordingDigest: digest)

        // Instantiate every analyzer before writing anything: bad settings fail fast.
        var runners: [Runner] = []
        var setups = setups
        for (i, setup) in setups.enumerated() {
            let descriptor: AnalyzerDescriptor
            do throws(OptionError) { descriptor = try registry.descriptor(named: setup.analyzer) } catch { throw .option(error) }
            let context = AnalyzerContext(stream: stream, regionOfInterest: setup.regionOfInterest,
                                          frameAnalysisSpacing: setup.frameAnalysisSpacing,
                                          debugImages: options.debugOutputDirectory.map { DebugImages.pgmFiles(in: $0) },
                                          instanceName: setup.name == setup.analyzer ? nil : setup.name,
                                          configurationFolder: options.configurationFolder)
            do {
                let instance = try descriptor.instantiate(setup.configuration, context)
                setups[i].programFiles = instance.programFiles
                setups[i].events = instance.eventSchemas
                runners.append(Runner(name: setup.name, instance: instance, schemas: instance.eventSchemas,
                                      spacingTicks: Int64.ticks(forSeconds: setup.frameAnalysisSpacing, timescale: h.timescale)))
            } catch let e as OptionError {
                throw .option(e)
            } catch {
                throw .analyzerFailed(analyzer: setup.name, frame: nil, message: "\(error)", incompleteLog: nil)
            }
        }

        let header = EventLogHeader(recordingFile: options.recordingName ?? URL(fileURLWithPath: reader.path).lastPathComponent,
                                    recordingBytes: reader.fileSize, recordingDigest: digest, frameCount: total,
                                    width: h.width, height: h.height, timescale: h.timescale,
                                    engineVersion: LumatraceVersion.engine, firstFrame: range.lowerBound,
                                    lastFrame: range.upperBound, skipDamaged: options.skipDamaged, analyzers: setups)
        let log: EventLogWriter
        do throws(OutputError) {
            log = try EventLogWriter(path: logPath, header: header, replacingExisting: options.replaceExistingLog,
                                     inputs: [reader.path] + options.otherInputs)
        } catch { throw .output(error) }

        var state = LoopState(reader: reader, runners: runners, log: log, range: range, options: options)
        do {
            try state.run()
        } catch let failure as AnalyzerFailure {
            let failureJSON = JSONValue.object([
                .init("analyzer", .string(failure.analyzer)),
                .init("frame", .int(Int64(failure.frame))),
                .init("message", .string(failure.message)),
            ])
            do throws(OutputError) { _ = try log.finish(framesReplayed: state.framesDone, failure: failureJSON) } catch { throw .output(error) }
            throw .analyzerFailed(analyzer: failure.analyzer, frame: failure.frame, message: failure.message,
                                  incompleteLog: log.failedLogKeptAt.map { .keptAside($0, existing: logPath) } ?? .placed(logPath))
        } catch let e as ReplayError {
            log.abandon()
            throw e
        } catch let e as OutputError {
            log.abandon()
            throw .output(e)
        } catch {
            log.abandon()
            throw .log(EventLogError(path: logPath, line: nil, reason: "\(error)"))
        }
        do throws(OutputError) { return try log.finish(framesReplayed: state.framesDone) } catch { throw .output(error) }
    }
}

struct AnalyzerFailure: Error {
    var analyzer: String
    var frame: Int
    var message: String
}

/// One analyzer in the replay loop, with its spacing state and the events of its current frame.
final class Runner: @unchecked Sendable {
    let name: String
    let instance: AnalyzerInstance
    let spacingTicks: Int64
    var lastAnalyzedTicks: Int64?
    var sink = EventSink()
    var error: (any Error)?
    /// The kinds it declares, by kind; empty when it declares none (then any kind goes).
    let schemas: [String: EventSchema]

    init(name: String, instance: AnalyzerInstance, schemas: [EventSchema], spacingTicks: Int64) {
        self.name = name
        self.instance = instance
        self.schemas = Dictionary(schemas.map { ($0.kind, $0) }, uniquingKeysWith: { a, _ in a })
        self.spacingTicks = spacingTicks
    }

    /// Why an emitted event breaks what the analyzer declared, or `nil`: a kind it does not
    /// declare, or a payload without the fields of the kind's shape.
    func problem(with event: EventSink.Emitted) -> String? {
        guard !schemas.isEmpty else { return nil }
        guard let schema = schemas[event.kind] else {
            return "emitted a '\(event.kind)' event, which it does not declare (its events: \(schemas.keys.sorted().joined(separator: ", ")))"
        }
        guard let shape = schema.shape else { return nil }
        do {
            _ = try event.payload.decode(shape.viewType)
        } catch {
            return "its '\(event.kind)' event does not have the fields of shape \(shape.rawValue): \(error)"
        }
        return nil
    }

    func wants(_ ticks: Int64) -> Bool {
        guard let last = lastAnalyzedTicks else { return true }
        // Readers bound timestamps to ±2^61, but spacing comes from settings: never let it trap.
        let (elapsed, overflow) = ticks.subtractingReportingOverflow(last)
        return overflow ? ticks > last : elapsed >= spacingTicks
    }
}

private struct LoopState {
    let reader: RecordingReader
    let runners: [Runner]
    let log: EventLogWriter
    let range: ClosedRange<Int>
    let options: ReplayOptions
    var framesDone = 0
    /// Frame whose events are held back until the next frame starts (or `finish` adds to them).
    var pendingFrame: (index: Int, time: String)?

    init(reader: RecordingReader, runners: [Runner], log: EventLogWriter, range: ClosedRange<Int>, options: ReplayOptions) {
        self.reader = reader
        self.runners = runners
        self.log = log
        self.range = range
        self.options = options
    }

    mutating func run() throws {
        let h = reader.header
        let chunks = reader.chunks.filter { $0.frames.overlaps(range.lowerBound..<(range.upperBound + 1)) }
        let prefetcher = options.jobs > 1 ? ChunkPrefetcher(reader: reader, chunks: chunks) : nil
        defer { prefetcher?.cancel() }
        let decoder = reader.makeDecoder()
        var expected = range.lowerBound
        let concurrent = options.jobs > 1 && runners.count > 1

        for (i, entry) in chunks.enumerated() {
            let decoded: Result<DecodedChunk, LumaFormatError>
            if let prefetcher { decoded = prefetcher.take(i) } else {
                do throws(LumaFormatError) { decoded = .success(try decoder.decode(entry)) } catch { decoded = .failure(error) }
            }
            if entry.firstFrame > expected {
                try gap(expected..<entry.firstFrame, ticks: entry.firstTicks, reason: "frames missing from the recording (damaged or removed chunk)")
            }
            let chunk: DecodedChunk
            switch decoded {
            case .success(let c): chunk = c
            case .failure(let e):
                let lost = max(entry.firstFrame, range.lowerBound)..<min(entry.firstFrame + entry.frameCount, range.upperBound + 1)
                guard options.skipDamaged else { throw ReplayError.damaged(e) }
                try gap(lost, ticks: entry.firstTicks, reason: Self.damageReason(e))
                expected = lost.upperBound
                continue
            }
            for k in 0..<chunk.count {
                let index = entry.firstFrame + k
                guard range.contains(index) else { continue }
                let ticks = chunk.timestamps[k]
                let timestamp = Timestamp(ticks: ticks, timescale: h.timescale)
                try flushPending()
                pendingFrame = (index, timestamp.fixedDecimalSeconds(6))
                try chunk.withFrame(k) { pixels in
                    let frame = Frame(index: index, timestamp: timestamp, width: h.width, height: h.height, pixels: pixels)
                    let active = runners.filter { $0.wants(ticks) }
                    for r in active { r.lastAnalyzedTicks = ticks }
                    if concurrent && active.count > 1 {
                        DispatchQueue.concurrentPerform(iterations: active.count) { j in
                            let r = active[j]
                            do { try r.instance.analyze(frame, into: &r.sink) } catch { r.error = error }
                        }
                    } else {
                        for r in active {
                            do { try r.instance.analyze(frame, into: &r.sink) } catch { r.error = error; break }
                        }
                    }
                    // The first failure in analyzer order wins, whatever the thread timing.
                    if let failed = active.first(where: { $0.error != nil }) {
                        throw AnalyzerFailure(analyzer: failed.name, frame: index, message: "\(failed.error!)")
                    }
                }
                framesDone += 1
                expected = index + 1
                options.progress?(framesDone, range.count)
            }
            if let prefetcher { prefetcher.recycle(chunk) } else { decoder.recycle(chunk) }
        }
        if expected <= range.upperBound {
            try gap(expected..<(range.upperBound + 1), ticks: reader.chunks.last?.lastTicks ?? 0, reason: "frames missing at the end of the recording")
        }
        let lastFrame = pendingFrame ?? (range.upperBound, Timestamp(ticks: 0, timescale: h.timescale).fixedDecimalSeconds(6))
        pendingFrame = lastFrame
        for r in runners {
            do { try r.instance.finish(into: &r.sink) } catch {
                throw AnalyzerFailure(analyzer: r.name, frame: lastFrame.index, message: "in finish: \(error)")
            }
        }
        try flushPending()
    }

    /// Writes the held-back frame's events, analyzer by analyzer.
    mutating func flushPending() throws {
        guard let p = pendingFrame else { return }
        for r in runners {
            for e in r.sink.drain() {
                if let problem = r.problem(with: e) { throw AnalyzerFailure(analyzer: r.name, frame: p.index, message: problem) }
                try log.write(LoggedEvent(frame: p.index, time: p.time, analyzer: r.name, kind: e.kind, data: e.payload))
            }
        }
        pendingFrame = nil
    }

    /// Logs frames that cannot be replayed, stamped with the time of the nearest known frame.
    /// What is wrong with a chunk, in words that do not depend on how the recording's path was
    /// typed (`./clip.luma` and `clip.luma` must give the same log).
    static func damageReason(_ error: LumaFormatError) -> String {
        switch error {
        case .damagedChunk(_, let chunk, let frames, let reason): return "chunk \(chunk) (frames \(frames)) is damaged: \(reason)"
        case .io(_, let reason): return reason
        default:
            let text = error.description
            guard let colon = text.range(of: ": ") else { return text }
            return String(text[colon.upperBound...])
        }
    }

    mutating func gap(_ frames: Range<Int>, ticks: Int64, reason: String) throws {
        guard !frames.isEmpty else { return }
        guard options.skipDamaged else {
            throw ReplayError.damaged(.damagedChunk(path: reader.path, chunk: -1, frames: "\(frames.lowerBound)...\(frames.upperBound - 1)", reason: reason))
        }
        try flushPending()
        let data = JSONValue.object([
            .init("frames", .array([.int(Int64(frames.lowerBound)), .int(Int64(frames.upperBound - 1))])),
            .init("reason", .string(reason)),
        ])
        try log.write(LoggedEvent(frame: frames.lowerBound, time: Timestamp(ticks: ticks, timescale: reader.header.timescale).fixedDecimalSeconds(6), analyzer: "engine", kind: "gap", data: data))
        options.warning?("skipping damaged frames \(frames.lowerBound)...\(frames.upperBound - 1): \(reason)")
    }
}
