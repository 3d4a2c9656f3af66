import Dispatch
import LumaAnalysis
import LumaBase
import LumaFormat

/// Analyzers running over a stream of frames, one frame at a time, writing the event log: the
/// computation a replay and a live recording share, so the two give the same log byte for byte.
///
/// Give it every frame in order (``analyze(_:)``), any frames that
/// cannot be analyzed (``gap(_:ticks:reason:)``), then ``finish(lastFrame:)``. Events are written
/// in (frame, analyzer order, sequence) order, each frame's as soon as it is analyzed (and flushed
/// to the file then, when the log is written live); what analyzers emit from `finish` follows,
/// in analyzer order, stamped with the last frame. (Logs of format version 1 held a frame's events
/// back until the next frame, so that `finish` events joined the last frame's in analyzer order;
/// a replay into version 1 still does.) Analyzers of one frame may run concurrently (`concurrent`);
/// their events are merged in analyzer order, so the log never depends on scheduling.
public final class FrameAnalysis {
    /// The analyzers' setups as they ran: with the event kinds they declare and the program files
    /// they read, ready for the log header.
    public let setups: [AnalyzerSetup]
    private let runners: [Runner]
    private var log: EventLogWriter?
    private let timescale: Int64
    private let concurrent: Bool
    /// Where each instance's own time goes when the caller asked for it (read once, at `finish`).
    public var clock: InstanceClock?
    /// The frame whose events are held back until the next frame starts (or `finish` adds to them).
    private var pending: (index: Int, time: String)?
    /// Version 2: the time of the last analyzed frame, which `finish` events carry when it is the last.
    private var lastFrameTime: String?

    /// Instantiates every analyzer for `stream` (bad settings fail here, before any log exists).
    /// `debugImages` is where analyzers may write debug images; `configurationFolder` is what
    /// relative paths in their settings are relative to.
    public init(setups: [AnalyzerSetup], registry: AnalyzerRegistry, stream: StreamInfo, concurrent: Bool,
                debugImages: DebugImages? = nil, configurationFolder: String? = nil) throws(ReplayError) {
        guard !setups.isEmpty else {
            throw .option(OptionError(option: "analyzer", .noAnalyzer(known: registry.names)))
        }
        do throws(OptionError) { try AnalyzerSetup.checkInstanceCount(setups.count) } catch { throw .option(error) }
        var seen = Set<String>()
        for s in setups where !seen.insert(s.name).inserted { throw .option(AnalyzerSetup.givenTwice(s.name, analyzer: s.analyzer)) }
        var runners: [Runner] = []
        var setups = setups
        for (i, setup) in setups.enumerated() {
            let descriptor: AnalyzerDescriptor
            do throws(OptionError) { descriptor = try registry.descriptor(named: setup.analyzer) } catch { throw .option(error) }
            let context = AnalyzerContext(stream: stream, regionOfInterest: setup.regionOfInterest,
                                          frameAnalysisSpacing: setup.frameAnalysisSpacing, debugImages: debugImages,
                                          instanceName: setup.name == setup.analyzer ? nil : setup.name,
                                          configurationFolder: configurationFolder)
            // Built from the setup's typed configuration, validated once where it was set up.
            var validating = setup
            let configuration: ValidatedConfiguration
            do throws(OptionError) { configuration = try validating.validatedConfiguration(with: descriptor) } catch { throw .option(error) }
            do {
                let instance = try configuration.makeAnalyzer(context: context)
                setups[i].programFiles = instance.programFiles
                setups[i].events = instance.eventSchemas
                runners.append(Runner(name: setup.name, instance: instance, schemas: instance.eventSchemas,
                                      spacingTicks: Int64.ticks(forSeconds: setup.frameAnalysisSpacing, timescale: stream.timescale)))
            } catch let e as OptionError {
                throw .option(e)
            } catch {
                throw .analyzerFailed(analyzer: setup.name, frame: nil, cause: .threw("\(error)"), incompleteLog: nil)
            }
        }
        self.setups = setups
        self.runners = runners
        self.timescale = stream.timescale
        self.concurrent = concurrent && runners.count > 1
    }

    /// Whether a frame's events wait for the next frame (format version 1).
    private var holdsBackFrames = false

    /// Starts writing events into `log` (whose header lists ``setups``).
    public func start(writingTo log: EventLogWriter) {
        self.log = log
        holdsBackFrames = log.formatVersion == 1
    }

    /// Runs every analyzer due at this frame (by its `frameAnalysisSpacing`). Throws an
    /// ``AnalyzerFailure`` when one fails (the first in analyzer order, whatever the threads did).
    public func analyze(_ frame: Frame) throws {
        let ticks = frame.timestamp.ticks
        try flushPending()
        pending = (frame.index, frame.timestamp.fixedDecimalSeconds(6))
        lastFrameTime = holdsBackFrames ? nil : pending?.time
        let active = runners.filter { $0.wants(ticks) }
        for r in active { r.lastAnalyzedTicks = ticks }
        if concurrent && active.count > 1 {
            let timed = clock != nil
            DispatchQueue.concurrentPerform(iterations: active.count) { j in
                let r = active[j]
                do { try r.analyze(frame, timed: timed) } catch { r.error = error }
            }
        } else {
            for r in active {
                do { try r.analyze(frame, timed: clock != nil) } catch { r.error = error; break }
            }
        }
        if let failed = active.first(where: { $0.error != nil }) {
            throw AnalyzerFailure(analyzer: failed.name, frame: frame.index, .threw("\(failed.error!)"))
        }
        if !holdsBackFrames {
            try flushPending()
            try log?.endFrame()
        }
    }

    /// Logs frames that cannot be analyzed as an `engine` `gap` event, stamped with `ticks` (the
    /// time of the nearest known frame).
    public func gap(_ frames: Range<Int>, ticks: Int64, reason: String) throws {
        guard !frames.isEmpty else { return }
        try flushPending()
        let data = JSONValue.object([
            .init("frames", .array([.int(Int64(frames.lowerBound)), .int(Int64(frames.upperBound - 1))])),
            .init("reason", .string(reason)),
        ])
        lastFrameTime = nil
        try write(LoggedEvent(frame: frames.lowerBound, time: Timestamp(ticks: ticks, timescale: timescale).fixedDecimalSeconds(6),
                              analyzer: "engine", kind: "gap", data: data))
    }

    /// Ends the analysis: each analyzer's `finish`, whose events carry the frame still held back,
    /// or else `lastFrame` (the last frame of the replay), then every held-back event.
    public func finish(lastFrame: Int) throws {
        // Version 1: held back, the last analyzed frame takes them; after a gap at the end, the
        // last frame at time 0. Version 2: the last frame, at its own time.
        if pending == nil { pending = (lastFrame, lastFrameTime ?? Timestamp(ticks: 0, timescale: timescale).fixedDecimalSeconds(6)) }
        for r in runners {
            let start = clock == nil ? nil : ContinuousClock.now
            do { try r.instance.finish(into: &r.sink) } catch {
                throw AnalyzerFailure(analyzer: r.name, frame: lastFrame, .threwInFinish("\(error)"))
            }
            if let clock, let start {
                r.time.seconds += InstanceClock.seconds(since: start)
                clock.add(r.time, to: r.name)
            }
        }
        try flushPending()
    }

    /// Writes the held-back frame's events, analyzer by analyzer.
    private func flushPending() throws {
        guard let p = pending else { return }
        for r in runners {
            var placed: Set<String> = []
            for e in r.sink.drain() {
                if let cause = r.problem(with: e, placed: &placed) { throw AnalyzerFailure(analyzer: r.name, frame: p.index, cause) }
                try write(LoggedEvent(frame: p.index, time: p.time, analyzer: r.name, kind: e.kind, data: e.payload))
            }
        }
        pending = nil
    }

    private func write(_ event: LoggedEvent) throws {
        guard let log else { preconditionFailure("FrameAnalysis.start(writingTo:) was not called") }
        try log.write(event)
    }
}

/// One analyzer in the frame loop, with its spacing state and the events of its current frame.
final class Runner: @unchecked Sendable {
    let name: String
    let instance: AnalyzerInstance
    let spacingTicks: Int64
    var lastAnalyzedTicks: Int64?
    var sink = EventSink()
    var error: (any Error)?
    /// Its own analysis time so far, when the replay measures it (only this runner's thread writes it).
    var time = InstanceClock.Reading()
    /// The kinds it declares, by kind; empty when it declares none (then any kind goes).
    let schemas: [String: EventSchema]

    /// Analyzes `frame`, adding the time it takes to ``time`` when `timed`.
    func analyze(_ frame: Frame, timed: Bool) throws {
        guard timed else { return try instance.analyze(frame, into: &sink) }
        let start = ContinuousClock.now
        defer {
            time.seconds += InstanceClock.seconds(since: start)
            time.frames += 1
        }
        try instance.analyze(frame, into: &sink)
    }

    init(name: String, instance: AnalyzerInstance, schemas: [EventSchema], spacingTicks: Int64) {
        self.name = name
        self.instance = instance
        self.schemas = Dictionary(schemas.map { ($0.kind, $0) }, uniquingKeysWith: { a, _ in a })
        self.spacingTicks = spacingTicks
    }

    /// Why an emitted event breaks what the analyzer declared, or `nil`: a kind it does not
    /// declare, a payload without the fields of the kind's shape, or an object placed twice in
    /// the frame (`placed`: the kinds and ids of the frame's events so far).
    func problem(with event: EventSink.Emitted, placed: inout Set<String>) -> AnalyzerFailure.Cause? {
        guard !schemas.isEmpty else { return nil }
        guard let schema = schemas[event.kind] else { return .undeclaredKind(event.kind, declared: schemas.keys.sorted()) }
        guard let shape = schema.shape else { return nil }
        let shaped: ShapedEvent
        do throws(ShapedEvent.Mismatch) {
            shaped = try ShapedEvent(payload: event.payload, shape: shape)
        } catch {
            return .notItsShape(kind: event.kind, shape: shape.rawValue, problem: error.reason)
        }
        if let id = shaped.placedObjectId, !placed.insert(event.kind + "\u{0}" + id).inserted {
            return .repeatedId(kind: event.kind, id: JSONString.quoted(id))
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

/// The name a stream gets before its first frame is analyzed (`StreamInfo/identity`): the frames
/// digest of its first frame alone, so live analysis (which has only that frame yet) and any
/// later replay agree.
public enum StreamIdentity {
    public static func ofFirstFrame(_ frame: Frame) -> String {
        var digest = FramesDigest()
        digest.add(ticks: frame.timestamp.ticks, pixels: frame.pixels)
        return digest.finalize().hexString
    }
}
