import Dispatch
import Foundation
import LumaAnalysis
import LumaBase
import LumaEngine
import LumaFormat
import LumaProcess
import LumaOutput

/// Analysis of a recording while it is made (`record … --analyzer … --events LOG`): every frame
/// the recorder writes is analyzed on a thread of its own, and its events reach the log as soon as
/// it is analyzed.
///
/// It is the computation a replay runs (`FrameAnalysis`), fed from the recorder instead of the
/// file, with what a replay would know (`StreamInfo` from the first frame on), so that once the
/// recording is closed the log is byte-identical to `lumatrace replay REC --pipeline LOG`, and at
/// every moment before that a prefix of it. An analyzer that fails stops the analysis (the log ends
/// with the failure, as a replay's would) while recording goes on.
///
/// The recorder never waits for the analysis. It hands each frame over in a bounded queue of
/// copies; when the queue is full (the analysis is `queueFrames` behind) the frame is recorded
/// without a copy, and the analysis reads it back from the recording once its chunk is written.
/// So memory stays bounded however slow the analyzers are (the queue and one decoded chunk), and
/// the analysis catches up by itself when it can; the recording is complete regardless.
public final class LiveAnalysis: @unchecked Sendable {
    public struct Options: Sendable {
        /// Frames the recorder may be ahead of the analysis before frames are read back from the
        /// recording instead (each holds a copy of a frame).
        public var queueFrames = 16
        /// Threads for analyzers of one frame (the log does not depend on it).
        public var jobs = 1
        /// An existing log may be replaced (by a complete one only): `--force`.
        public var replaceExistingLog = false
        /// What relative paths in the analyzers' settings are relative to.
        public var configurationFolder: String?
        /// Files besides the recording that are read (a pipeline file): never the log.
        public var otherInputs: [String] = []
        /// When set, an analysis that would need more memory than this (its analyzer instances,
        /// the queue of frame copies and a read-back, ``ReplayMemory/init(liveWidth:height:queueFrames:)``)
        /// stops at the first frame, before it holds anything; the recording goes on.
        public var memoryBudget: MemoryBudget?

        public init() {}
    }

    /// What the analysis did, once the recording has ended.
    public struct Summary: Sendable {
        public var framesAnalyzed: Int
        /// The most frames the analysis was behind the recorder.
        public var largestLag: Int
        /// Frames the analysis read back from the recording because the queue was full when they
        /// were recorded.
        public var framesReadBack: Int
        /// The analyzer failure that stopped the analysis, if any.
        public var failure: AnalyzerFailure?
        /// The analysis was stopped before the end (``stopNow()``): the log is a prefix, without
        /// its footer.
        public var stoppedEarly: Bool
        public var eventCount: Int
    }

    /// Told, on the analysis thread, when frame `index`'s events are in the log, with how long the
    /// analyzers took on it (nanoseconds): what the live latency benchmark measures.
    public var frameLogged: (@Sendable (_ index: Int, _ analysisNanoseconds: UInt64) -> Void)?
    /// Told, on the analysis thread, when the analysis has fallen a whole queue behind and starts
    /// reading frames back from the recording: the frame it reads first and how far behind it is.
    /// Told again only when the lag has doubled since, so a long slow stretch says it a few times.
    public var fellBehind: (@Sendable (_ frame: Int, _ lag: Int) -> Void)?

    private let setups: [AnalyzerSetup]
    private let registry: AnalyzerRegistry
    private let logPath: String
    private let recordingPath: String
    private let options: Options

    /// What the recorder and the analysis thread share, under `condition`.
    private let condition = NSCondition()
    private var shared: Shared
    /// Room for `queueFrames` frames, allocated at the first frame.
    private var storage = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)
    private var frameSize = 0
    private var header: RecordingHeader?
    private var worker: WorkerThread?

    // Owned by the analysis thread until it is joined.
    private var analysis: FrameAnalysis?
    private var log: EventLogWriter?
    private var framesAnalyzed = 0
    private var failure: AnalyzerFailure?
    private var error: (any Error)?
    /// The recording as far as it was written when last opened, to read frames back from.
    private var readBack: (reader: RecordingReader, decoder: ChunkDecoder)?

    private struct Item { var index: Int; var ticks: Int64; var slot: Int }
    private struct Shared {
        /// Copies of recorded frames, in frame order, not yet analyzed.
        var queued: [Item] = []
        var freeSlots: [Int]
        /// Frames recorded so far.
        var recorded = 0
        /// Frames in complete chunks of `file`: readable by the analysis.
        var written = 0
        /// The file being written (a temporary name while an existing recording is replaced).
        var file: String
        /// The recording is closed: every recorded frame is written, under its final name.
        var ended = false
        /// A file that was renamed while it was being read back: wait for the recorder to name the new one.
        var renamedAway: String?
        /// Stop analyzing now (a second interrupt, a recording abandoned).
        var stopping = false
        /// Frames the analysis has finished.
        var analyzed = 0
        var largestLag = 0
        var framesReadBack = 0
    }

    /// Checks the log's destination and the analyzers' settings before anything is recorded.
    public init(setups: [AnalyzerSetup], registry: AnalyzerRegistry, logPath: String, recordingPath: String, options: Options) throws {
        guard !setups.isEmpty else {
            throw ReplayError.option(OptionError(option: "analyzer", .noAnalyzer(known: registry.names)))
        }
        var setups = setups
        for i in setups.indices { try setups[i].validatedConfiguration(with: registry.descriptor(named: setups[i].analyzer)) }
        if logPath != "-" {
            try OutputFile.check(logPath, replacingExisting: options.replaceExistingLog, inputs: [recordingPath] + options.otherInputs, kind: .eventLog,
                                 streamsAllowed: true)
        }
        (self.setups, self.registry, self.logPath, self.recordingPath, self.options) = (setups, registry, logPath, recordingPath, options)
        shared = Shared(freeSlots: Array((0..<max(1, options.queueFrames)).reversed()), file: recordingPath)
    }

    deinit {
        stopNow()
        waitForWorker()
        storage.deallocate()
    }

    private func locked<R>(_ body: (inout Shared) -> R) -> R {
        condition.lock()
        defer { condition.unlock() }
        let result = body(&shared)
        condition.signal()
        return result
    }

    private func slot(_ index: Int) -> UnsafeMutableBufferPointer<UInt8> {
        UnsafeMutableBufferPointer(rebasing: storage[(index * frameSize)..<((index + 1) * frameSize)])
    }

    /// Frame `index` is being recorded: the analysis gets a copy if the queue has room, and reads
    /// it back from the recording later otherwise. Never waits for the analysis.
    public func frameRecorded(index: Int, ticks: Int64, pixels: UnsafeBufferPointer<UInt8>, header: RecordingHeader) {
        if self.header == nil { start(header) }
        let free = locked { s -> Int? in
            s.recorded = index + 1
            s.largestLag = max(s.largestLag, s.recorded - s.analyzed)
            return s.stopping ? nil : s.freeSlots.popLast()
        }
        guard let free else { return }
        _ = slot(free).initialize(from: pixels)
        locked { $0.queued.append(Item(index: index, ticks: ticks, slot: free)) }
    }

    /// The recording's complete chunks in `file` now hold frames `0..<frames`: those the analysis
    /// read back are there.
    public func framesWritten(_ frames: Int, in file: String) {
        locked { s in (s.written, s.file) = (frames, file) }
    }

    /// Waits for the analysis to catch up with the closed recording (at its final name), then ends
    /// the log: the analyzers' `finish`, and the footer with the recording's facts (or the failure
    /// that stopped the analysis). After ``stopNow()``, the log is left as the prefix it is.
    public func recordingEnded(_ summary: RecordingSummary) throws -> Summary {
        locked { s in (s.written, s.file, s.ended) = (summary.frameCount, recordingPath, true) }
        waitForWorker()
        let (lag, readBack, stopped) = locked { ($0.largestLag, $0.framesReadBack, $0.stopping) }
        if let error {
            releaseLog()
            throw LiveAnalysisError.failed(error, framesAnalyzed: framesAnalyzed, recording: recordingPath)
        }
        guard let log, let analysis else {
            return Summary(framesAnalyzed: 0, largestLag: lag, framesReadBack: readBack, failure: failure, stoppedEarly: stopped, eventCount: 0)
        }
        if stopped && failure == nil {
            releaseLog()
            return Summary(framesAnalyzed: framesAnalyzed, largestLag: lag, framesReadBack: readBack, failure: nil, stoppedEarly: true,
                           eventCount: log.eventCount)
        }
        let last = summary.frameCount - 1
        if failure == nil {
            do { try analysis.finish(lastFrame: last) } catch let f as AnalyzerFailure { failure = f }
        }
        let ending = EventLogHeader.Ending(recordingBytes: summary.fileSize, recordingDigest: summary.framesDigest.hexString,
                                           frameCount: summary.frameCount, lastFrame: last)
        do {
            try log.finish(framesReplayed: framesAnalyzed, failure: failure, ending: ending)
        } catch {
            releaseLog()
            throw LiveAnalysisError.failed(error, framesAnalyzed: framesAnalyzed, recording: recordingPath)
        }
        return Summary(framesAnalyzed: framesAnalyzed, largestLag: lag, framesReadBack: readBack, failure: failure, stoppedEarly: false,
                       eventCount: log.eventCount)
    }

    /// Lets go of an unfinished log: it stays under its name as the prefix it is, unlocked.
    private func releaseLog() {
        (analysis, log) = (nil, nil)
    }

    /// Stops the analysis after the frame it is on (a second interrupt): its log stays the valid
    /// prefix it is, without a footer. Safe from any thread.
    public func stopNow() {
        locked { $0.stopping = true }
    }

    /// The recording stopped without closing: stops the analysis and leaves the log as it is, a
    /// valid prefix without its footer.
    public func recordingAbandoned() {
        stopNow()
        waitForWorker()
    }

    private func waitForWorker() {
        guard let worker else { return }
        worker.join()
        self.worker = nil
    }

    private func start(_ header: RecordingHeader) {
        self.header = header
        if let budget = options.memoryBudget {
            do throws(MemoryNeed) {
                try ReplayMemory(liveWidth: header.width, height: header.height, queueFrames: max(1, options.queueFrames))
                    .check(setups, registry: registry, budget: budget)
            } catch {
                self.error = ReplayError.memory(recording: URL(fileURLWithPath: recordingPath).lastPathComponent, error)
                locked { $0.stopping = true }
                return
            }
        }
        frameSize = header.frameSize
        storage = .allocate(capacity: max(1, options.queueFrames) * frameSize)
        worker = WorkerThread.start("live analysis") { [self] in analyzeUntilEnd(header) }
    }

    /// What the analysis thread does next.
    private enum Step {
        /// Analyze a queued copy.
        case queued(Item)
        /// Read frames `frames` back from `file`.
        case readBack(frames: Range<Int>, file: String, lag: Int)
        case end
    }

    private func analyzeUntilEnd(_ header: RecordingHeader) {
        var next = 0
        var reportedLag = 0
        while failure == nil && error == nil {
            condition.lock()
            var step: Step?
            while step == nil {
                if shared.stopping { step = .end; break }
                // Copies of frames already read back are dropped.
                while let first = shared.queued.first, first.index < next {
                    shared.freeSlots.append(shared.queued.removeFirst().slot)
                }
                if let first = shared.queued.first, first.index == next {
                    step = .queued(shared.queued.removeFirst())
                } else if next < shared.written && shared.file != shared.renamedAway {
                    let upTo = min(shared.written, shared.queued.first?.index ?? shared.written)
                    step = .readBack(frames: next..<upTo, file: shared.file, lag: shared.recorded - next)
                } else if shared.ended && next >= shared.recorded {
                    step = .end
                } else {
                    condition.wait()
                }
            }
            condition.unlock()

            switch step! {
            case .queued(let item):
                analyze(Frame(index: item.index, timestamp: Timestamp(ticks: item.ticks, timescale: header.timescale),
                              width: header.width, height: header.height, pixels: UnsafeBufferPointer(slot(item.slot))), header: header)
                next += 1
                locked { s in
                    s.freeSlots.append(item.slot)
                    s.analyzed = next
                }
            case .readBack(let frames, let file, let lag):
                if lag >= 2 * reportedLag {
                    fellBehind?(frames.lowerBound, lag)
                    reportedLag = max(1, lag)
                }
                let read = readBack(frames, from: file, header: header)
                next += read
                locked { s in
                    s.analyzed = next
                    s.framesReadBack += read
                }
            case .end:
                return
            }
        }
    }

    /// Analyzes frames of `frames` read from the recording, up to the end of the chunk holding the
    /// first; returns how many.
    private func readBack(_ frames: Range<Int>, from file: String, header: RecordingHeader) -> Int {
        let first = frames.lowerBound
        do {
            guard let (reader, decoder) = try openForReadBack(file, frame: first) else { return 0 }
            guard let entry = reader.chunk(containing: first) else {
                throw LumaFormatError.missingFrames(path: file, frames: first...first, cause: .writtenButUnreadable)
            }
            let chunk = try decoder.decode(entry)
            var count = 0
            for index in first..<min(frames.upperBound, entry.firstFrame + entry.frameCount) {
                if locked({ $0.stopping }) { break }
                chunk.withFrame(index - entry.firstFrame, of: header) { analyze($0, header: header) }
                if failure != nil || error != nil { break }
                count += 1
            }
            decoder.recycle(chunk)
            return count
        } catch {
            self.error = error
            return 0
        }
    }

    /// The recording as written so far, opened again when `frame` was not written at the last
    /// opening; `nil` when the file was just renamed away (a replaced recording's temporary file
    /// put into place: the recorder names the final file when it reports the end).
    private func openForReadBack(_ file: String, frame: Int) throws -> (RecordingReader, ChunkDecoder)? {
        if let readBack, readBack.reader.path == file, readBack.reader.chunk(containing: frame) != nil { return readBack }
        let reader: RecordingReader
        do {
            reader = try RecordingReader(path: file)
        } catch {
            guard !FileManager.default.fileExists(atPath: file) else { throw error }
            markRenamedAway(file)
            return nil
        }
        readBack = (reader, reader.makeDecoder())
        return readBack
    }

    private func markRenamedAway(_ file: String) {
        locked { $0.renamedAway = file }
    }

    private func analyze(_ frame: Frame, header: RecordingHeader) {
        do {
            if analysis == nil {
                let start = try StreamStart(setups: setups, registry: registry, recording: header,
                                            file: URL(fileURLWithPath: recordingPath).lastPathComponent,
                                            identity: StreamIdentity.ofFirstFrame(frame), span: .live, concurrent: options.jobs > 1,
                                            configurationFolder: options.configurationFolder)
                let writer = try EventLogWriter(path: logPath, header: start.logHeader, replacingExisting: options.replaceExistingLog,
                                                inputs: [recordingPath] + options.otherInputs, live: true)
                start.analysis.start(writingTo: writer)
                (analysis, log) = (start.analysis, writer)
            }
            let started = DispatchTime.now().uptimeNanoseconds
            try analysis!.analyze(frame)
            framesAnalyzed += 1
            frameLogged?(frame.index, DispatchTime.now().uptimeNanoseconds - started)
        } catch let f as AnalyzerFailure {
            failure = f
        } catch {
            self.error = error
        }
    }
}

/// How an analysis while recording ended short of the recording.
public enum LiveAnalysisError: Error, CustomStringConvertible {
    /// A second interrupt stopped the analysis: the recording is complete, the log a valid prefix.
    case stoppedByInterrupt(framesAnalyzed: Int, framesRecorded: Int, log: String, recording: String)
    /// The analysis could not go on (its log could not be written, a frame could not be read
    /// back): the recording is complete regardless.
    case failed(any Error, framesAnalyzed: Int, recording: String)

    public var description: String {
        switch self {
        case .stoppedByInterrupt(let analyzed, let recorded, let log, let recording):
            return "the analysis was stopped by a second interrupt after \(Plural.count(analyzed, "frame")) of \(recorded); "
                + "\(recording) is complete, and \(log == "-" ? "the log on standard output" : log) is a valid prefix without its end"
        case .failed(let error, let analyzed, let recording):
            return "\(error) — the analysis stopped after \(Plural.count(analyzed, "frame")); \(recording) is complete"
        }
    }
}
