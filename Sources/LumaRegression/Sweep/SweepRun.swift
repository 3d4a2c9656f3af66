import LumaAnalysis
import LumaEngine
import LumaFormat
import LumaTruth

/// A sweep's runs: each recording of the corpus decoded once per pass, its frames handed to one
/// analyzer instance per setting (a pass holds at most ``AnalyzerSetup/instanceLimit`` of them),
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
                           didReplay: ((SweepCorpus.Entry, EventLog) throws -> Void)? = nil,
                           progress: (@Sendable (Int, Int) -> Void)? = nil) throws -> SweepResult {
        let setups = try grid.setups(registry: registry)
        let truths = try corpus.entries.map { entry in
            let reader = try RecordingReader(path: entry.recordingPath)
            let truth = try GroundTruth.read(entry.truthPath)
            try truth.check(againstFrames: reader.frameCount, width: reader.header.width, height: reader.header.height, path: entry.truthPath)
            return (frames: reader.frameCount, truth: truth)
        }
        let passes = passes(setups.count)
        let total = truths.reduce(0) { $0 + $1.frames } * passes.count
        var done = 0
        var scores = [[SweepScore]](repeating: [], count: setups.count)
        var times = [[InstanceClock.Reading]](repeating: [], count: setups.count)
        for (entry, truth) in zip(corpus.entries, truths.map(\.truth)) {
            // Opened again here, so a corpus of thousands never holds thousands of files open.
            let reader = try RecordingReader(path: entry.recordingPath)
            for pass in passes {
                var options = ReplayOptions(jobs: jobs)
                options.instanceClock = timings ? InstanceClock() : nil
                let before = done
                if let progress {
                    options.progress = { @Sendable frames, _ in progress(before + frames, total) }
                }
                let log = try Replay.runInMemory(reader, setups: Array(setups[pass]), registry: registry, options: options)
                done += reader.frameCount
                try didReplay?(entry, log)
                for index in pass {
                    let one = log.keepingOnly(setups[index].name)
                    let shapes = log.header.analyzers.first { $0.name == setups[index].name }?.events.compactMap(\.shape) ?? []
                    scores[index].append(SweepScore(try LogScore(log: one, truth: truth), events: one.events.count, shapes: shapes))
                    times[index].append(options.instanceClock?.reading(setups[index].name) ?? InstanceClock.Reading())
                }
            }
        }
        return SweepResult(grid: grid, settings: grid.settings, recordings: corpus.entries.map(\.name), withoutTruth: corpus.withoutTruth,
                           scores: scores, passes: passes.count, timings: timings ? times : nil)
    }

    /// The settings' indices in passes of at most ``AnalyzerSetup/instanceLimit``, in grid order.
    public static func passes(_ count: Int) -> [Range<Int>] {
        stride(from: 0, to: count, by: AnalyzerSetup.instanceLimit).map { $0..<min($0 + AnalyzerSetup.instanceLimit, count) }
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
