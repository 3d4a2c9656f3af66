import Dispatch
import Foundation
import Synchronization
import LumaAnalysis
import LumaBase
import LumaEngine
import LumaFormat

/// Analysis of a recording while it is made (`record … --analyzer … --events LOG`): every frame
/// the recorder writes is handed to the analyzers on a thread of their own, and its events reach
/// the log as soon as it is analyzed.
///
/// It is the computation a replay runs (``FrameAnalysis``), fed from the recorder instead of the
/// file, with what a replay would know (``StreamInfo`` from the first frame on), so that once the
/// recording is closed the log is byte-identical to `lumatrace replay REC --pipeline LOG`, and at
/// every moment before that a prefix of it. An analyzer that fails stops the analysis (the log ends
/// with the failure, as a replay's would) while recording goes on.
///
/// The recorder and the analysis meet in a bounded queue of frames: when analysis falls behind by
/// the whole queue, the recorder waits for it (the lag is counted and reported).
public final class LiveAnalysis: @unchecked Sendable {
    public struct Options: Sendable {
        /// Frames the recorder may be ahead of the analysis (each holds a copy of a frame).
        public var queueFrames = 16
        /// Threads for analyzers of one frame (the log does not depend on it).
        public var jobs = 1
        /// An existing log may be replaced (by a complete one only): `--force`.
        public var replaceExistingLog = false
        /// What relative paths in the analyzers' settings are relative to.
        public var configurationFolder: String?
        /// Files besides the recording that are read (a pipeline file): never the log.
        public var otherInputs: [String] = []

        public init() {}
    }

    /// What the analysis did, once the recording has ended.
    public struct Summary: Sendable {
        public var framesAnalyzed: Int
        /// The most frames the analysis was behind the recorder.
        public var largestLag: Int
        /// Frames the recorder waited for the analysis because the queue was full.
        public var waits: Int
        /// The analyzer failure that stopped the analysis, if any.
        public var failure: AnalyzerFailure?
        public var eventCount: Int
    }

    /// Told, on the analysis thread, when frame `index`'s events are in the log, with how long the
    /// analyzers took on it (nanoseconds): what the live latency benchmark measures.
    public var frameLogged: (@Sendable (_ index: Int, _ analysisNanoseconds: UInt64) -> Void)?

    private let setups: [AnalyzerSetup]
    private let registry: AnalyzerRegistry
    private let logPath: String
    private let recordingPath: String
    private let options: Options

    // The queue between the recorder and the analysis thread.
    private let filled = DispatchSemaphore(value: 0)
    private let free: DispatchSemaphore
    private let done = DispatchSemaphore(value: 0)
    private let queue: Mutex<Queue>
    /// Room for `queueFrames` frames, allocated at the first frame.
    private var storage = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)
    private var frameSize = 0
    private var header: RecordingHeader?
    private var worker: Thread?

    // Owned by the analysis thread until `done` is signalled.
    private var analysis: FrameAnalysis?
    private var log: EventLogWriter?
    private var framesAnalyzed = 0
    private var failure: AnalyzerFailure?
    private var error: (any Error)?

    private struct Item { var index: Int; var ticks: Int64; var slot: Int }
    private struct Queue {
        var items: [Item?] = []  // nil: the end of the recording
        var head = 0
        var freeSlots: [Int]
        var largestLag = 0
        var waits = 0
    }

    /// Checks the log's destination and the analyzers' settings before anything is recorded.
    public init(setups: [AnalyzerSetup], registry: AnalyzerRegistry, logPath: String, recordingPath: String, options: Options) throws {
        guard !setups.isEmpty else {
            throw ReplayError.option(OptionError(option: "analyzer", message: "no analyzer given; known analyzers: \(registry.names.joined(separator: ", "))"))
        }
        for var setup in setups { try setup.validate(with: registry.descriptor(named: setup.analyzer)) }
        if logPath != "-" {
            try OutputFile.check(logPath, replacingExisting: options.replaceExistingLog, inputs: [recordingPath] + options.otherInputs)
        }
        (self.setups, self.registry, self.logPath, self.recordingPath, self.options) = (setups, registry, logPath, recordingPath, options)
        free = DispatchSemaphore(value: max(1, options.queueFrames))
        queue = Mutex(Queue(freeSlots: Array((0..<max(1, options.queueFrames)).reversed())))
    }

    deinit {
        stopWorker()
        storage.deallocate()
    }

    private func slot(_ index: Int) -> UnsafeMutableBufferPointer<UInt8> {
        UnsafeMutableBufferPointer(rebasing: storage[(index * frameSize)..<((index + 1) * frameSize)])
    }

    /// Takes a copy of frame `index` for the analysis; waits only when the analysis is a whole
    /// queue behind.
    public func frameRecorded(index: Int, ticks: Int64, pixels: UnsafeBufferPointer<UInt8>, header: RecordingHeader) {
        if self.header == nil { start(header) }
        let waited = free.wait(timeout: .now()) == .timedOut
        if waited { free.wait() }
        let s = queue.withLock { q -> Int in
            if waited { q.waits += 1 }
            return q.freeSlots.removeLast()  // a free slot exists: `free` counts them
        }
        _ = slot(s).initialize(from: pixels)
        queue.withLock { q in
            q.items.append(Item(index: index, ticks: ticks, slot: s))
            q.largestLag = max(q.largestLag, q.items.count - q.head)
        }
        filled.signal()
    }

    /// Waits for the analysis to catch up with the closed recording, then ends the log: the
    /// analyzers' `finish`, and the footer with the recording's facts (or the failure that stopped
    /// the analysis).
    public func recordingEnded(_ summary: RecordingSummary) throws -> Summary {
        stopWorker()
        let (lag, waits) = queue.withLock { ($0.largestLag, $0.waits) }
        guard let log, let analysis else {
            if let error { throw error }
            return Summary(framesAnalyzed: 0, largestLag: lag, waits: waits, failure: failure, eventCount: 0)
        }
        if let error { throw error }
        let last = summary.frameCount - 1
        if failure == nil {
            do { try analysis.finish(lastFrame: last) } catch let f as AnalyzerFailure { failure = f }
        }
        let ending = EventLogHeader.Ending(recordingBytes: summary.fileSize, recordingDigest: summary.framesDigest.hexString,
                                           frameCount: summary.frameCount, lastFrame: last)
        try log.finish(framesReplayed: framesAnalyzed, failure: failure?.json, ending: ending)
        return Summary(framesAnalyzed: framesAnalyzed, largestLag: lag, waits: waits, failure: failure, eventCount: log.eventCount)
    }

    /// The recording stopped without closing: stops the analysis and leaves the log as it is, a
    /// valid prefix without its footer.
    public func recordingAbandoned() {
        stopWorker()
    }

    private func stopWorker() {
        guard worker != nil else { return }
        queue.withLock { $0.items.append(nil) }
        filled.signal()
        done.wait()
        worker = nil
    }

    private func start(_ header: RecordingHeader) {
        self.header = header
        frameSize = header.frameSize
        storage = .allocate(capacity: max(1, options.queueFrames) * frameSize)
        let thread = Thread { [self] in
            analyzeUntilEnd(header)
            done.signal()
        }
        thread.name = "lumatrace live analysis"
        worker = thread
        thread.start()
    }

    private func analyzeUntilEnd(_ header: RecordingHeader) {
        while true {
            filled.wait()
            let next = queue.withLock { q -> Item? in
                let item = q.items[q.head]
                q.head += 1
                if q.head > 1024 { q.items.removeFirst(q.head); q.head = 0 }
                return item
            }
            guard let item = next else { return }
            if failure == nil && error == nil {
                analyze(item, pixels: UnsafeBufferPointer(slot(item.slot)), header: header)
            }
            queue.withLock { $0.freeSlots.append(item.slot) }
            free.signal()
        }
    }

    private func analyze(_ item: Item, pixels: UnsafeBufferPointer<UInt8>, header: RecordingHeader) {
        do {
            if analysis == nil {
                let stream = StreamInfo(width: header.width, height: header.height, timescale: header.timescale,
                                        nominalFrameRate: header.nominalFrameRate,
                                        identity: StreamIdentity.ofFirstFrame(ticks: item.ticks, pixels: pixels))
                let made = try FrameAnalysis(setups: setups, registry: registry, stream: stream, concurrent: options.jobs > 1,
                                             configurationFolder: options.configurationFolder)
                let logHeader = EventLogHeader(recordingFile: URL(fileURLWithPath: recordingPath).lastPathComponent, recordingBytes: 0,
                                               recordingDigest: "", frameCount: 0, width: header.width, height: header.height,
                                               timescale: header.timescale, engineVersion: LumatraceVersion.engine, firstFrame: 0,
                                               lastFrame: 0, skipDamaged: false, analyzers: made.setups, replaysToEnd: true)
                let writer = try EventLogWriter(path: logPath, header: logHeader, replacingExisting: options.replaceExistingLog,
                                                inputs: [recordingPath] + options.otherInputs, live: true)
                made.start(writingTo: writer)
                (analysis, log) = (made, writer)
            }
            let started = DispatchTime.now().uptimeNanoseconds
            try analysis!.analyze(index: item.index, ticks: item.ticks, pixels: pixels, width: header.width, height: header.height)
            framesAnalyzed += 1
            frameLogged?(item.index, DispatchTime.now().uptimeNanoseconds - started)
        } catch let f as AnalyzerFailure {
            failure = f
        } catch {
            self.error = error
        }
    }
}
