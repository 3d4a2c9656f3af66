import LumaAnalysis
import LumaEngine
import LumaFormat
import LumaTruth

/// A sweep's runs: each recording of the corpus decoded once per pass, its frames handed to one
/// analyzer instance per setting (a pass holds as many as fit the memory budget, at most
/// ``AnalyzerSetup/instanceLimit``: ``passSize(_:corpus:registry:budget:limit:)``),
/// the log kept in memory and each instance scored against the recording's truth as
/// `score --analyzer INSTANCE` scores it.
public enum SweepRun {
    /// Runs every setting of `grid` over `corpus`. `jobs` is the replay's (decoding ahead, instances
    /// of one frame side by side); the scores do not depend on it. With `timings`, each instance's
    /// own analysis time is measured (``SweepResult/timings``). `didReplay` is told each pass's
    /// log (every instance of the pass in one log), e.g. to keep it on disk; `progress` the frames
    /// replayed so far of all the passes' frames, for a progress bar. Every recording and truth is
    /// read before the first replay, so one that cannot be read, or truth that does not fit its
    /// recording, fails the sweep before it starts.
    public static func run(_ grid: SweepGrid, corpus: SweepCorpus, registry: AnalyzerRegistry, jobs: Int = 1, timings: Bool = false,
                           passSize: Int = AnalyzerSetup.instanceLimit,
                           didReplay: ((SweepCorpus.Entry, EventLog) throws -> Void)? = nil,
                           progress: (@Sendable (Int, Int) -> Void)? = nil) throws -> SweepResult {
        let passes = passes(grid.settingCount, size: passSize)
        let units = corpus.entries.indices.flatMap { r in passes.indices.map { SweepUnit(recording: r, pass: $0) } }
        let scored = try score(units, of: grid, corpus: corpus, registry: registry, jobs: jobs, timings: timings, passSize: passSize,
                               didReplay: didReplay, progress: progress)
        return SweepResult(grid: grid, recordings: corpus.entries.map(\.name), withoutTruth: corpus.withoutTruth, passes: passes, units: scored)
    }

    /// Replays and scores `units` (each a recording and a pass of ``passes(_:)``), in the order
    /// given; `didScore` is told each unit's scores as soon as it has them (to store them, so an
    /// interrupted sweep resumes). The recordings and truth of `units` are all read first.
    public static func score(_ units: [SweepUnit], of grid: SweepGrid, corpus: SweepCorpus, registry: AnalyzerRegistry, jobs: Int = 1, timings: Bool = false,
                             passSize: Int = AnalyzerSetup.instanceLimit,
                             didReplay: ((SweepCorpus.Entry, EventLog) throws -> Void)? = nil,
                             didScore: ((SweepUnitScores) throws -> Void)? = nil,
                             progress: (@Sendable (Int, Int) -> Void)? = nil) throws -> [SweepUnitScores] {
        let setups = try grid.setups(registry: registry)
        let passes = passes(setups.count, size: passSize)
        var truths: [Int: (frames: Int, truth: GroundTruth)] = [:]
        for r in units.map(\.recording) where truths[r] == nil {
            let entry = corpus.entries[r]
            let reader = try RecordingReader(path: entry.recordingPath)
            // A recording with no readable frame is the recording's fault, not its truth's.
            guard reader.frameCount > 0 else { throw SweepError.replay(recording: entry.name, .recording(.noFrames(path: entry.recordingPath))) }
            let truth = try GroundTruth.read(entry.truthPath)
            try truth.check(againstFrames: reader.frameCount, width: reader.header.width, height: reader.header.height, path: entry.truthPath)
            truths[r] = (reader.frameCount, truth)
        }
        let total = units.reduce(0) { $0 + truths[$1.recording]!.frames }
        var done = 0
        var scored: [SweepUnitScores] = []
        var reader: (index: Int, reader: RecordingReader)?
        for unit in units {
            let entry = corpus.entries[unit.recording], truth = truths[unit.recording]!.truth
            // Opened once per recording, so a corpus of thousands never holds thousands of files open.
            if reader?.index != unit.recording { reader = (unit.recording, try RecordingReader(path: entry.recordingPath)) }
            let pass = passes[unit.pass]
            var options = ReplayOptions(jobs: jobs)
            options.instanceClock = timings ? InstanceClock() : nil
            let before = done
            if let progress {
                options.progress = { @Sendable frames, _ in progress(before + frames, total) }
            }
            let log: EventLog
            do throws(ReplayError) { log = try Replay.runInMemory(reader!.reader, setups: Array(setups[pass]), registry: registry, options: options) } catch {
                throw SweepError.replay(recording: entry.name, error)
            }
            done += reader!.reader.frameCount
            try didReplay?(entry, log)
            var scores: [SweepScore] = []
            for index in pass {
                let one = log.keepingOnly(setups[index].name)
                let shapes = log.header.analyzers.first { $0.name == setups[index].name }?.events.compactMap(\.shape) ?? []
                scores.append(SweepScore(try LogScore(log: one, truth: truth), events: one.events.count, shapes: shapes))
            }
            let times = options.instanceClock.map { clock in pass.map { clock.reading(setups[$0].name) ?? InstanceClock.Reading() } }
            let unitScores = SweepUnitScores(recording: unit.recording, pass: unit.pass, scores: scores, timings: times)
            try didScore?(unitScores)
            scored.append(unitScores)
        }
        return scored
    }

    /// The settings' indices in passes of at most `size` (``passSize(_:corpus:registry:budget:limit:)``), in grid order.
    public static func passes(_ count: Int, size: Int = AnalyzerSetup.instanceLimit) -> [Range<Int>] {
        stride(from: 0, to: count, by: max(1, size)).map { $0..<min($0 + max(1, size), count) }
    }
}

/// One replay of a sweep: recording `recording` (its index in the corpus) through pass `pass` (of
/// ``SweepRun/passes(_:)``): the unit a sweep stores, a shard is given, and a merge joins.
public struct SweepUnit: Sendable, Hashable, Codable {
    public var recording: Int
    public var pass: Int

    public init(recording: Int, pass: Int) {
        self.recording = recording
        self.pass = pass
    }
}

/// The scores of one unit: the pass's settings on the recording, in grid order.
public struct SweepUnitScores: Sendable, Equatable, Codable {
    public var recording: Int
    public var pass: Int
    public var scores: [SweepScore]
    /// Each setting's own analysis time (`--timings`), in the order of `scores`; `nil` when not
    /// measured (and then not written, so a stored or part file without times is the same bytes).
    public var timings: [InstanceClock.Reading]?

    public init(recording: Int, pass: Int, scores: [SweepScore], timings: [InstanceClock.Reading]? = nil) {
        (self.recording, self.pass, self.scores, self.timings) = (recording, pass, scores, timings)
    }
}

extension EventLog {
    /// The log with only the events of analyzer instance `name`, as `score --analyzer NAME` scores it.
    public func keepingOnly(_ name: String) -> EventLog {
        var log = self
        log.events.removeAll { $0.analyzer != name }
        return log
    }
}
