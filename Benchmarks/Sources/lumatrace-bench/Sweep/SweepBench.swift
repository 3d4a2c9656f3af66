import DifferencingAnalyzer
import Foundation
import LumaAnalysis
import LumaEngine
import LumaFormat
import LumaRegression
import LumaTruth
import TrajectoryAnalyzer

/// `lumatrace-bench sweep`: what decoding each recording once saves a `lumatrace sweep`, side by
/// side with the separate replays it replaces, and the memory a sweep's instances hold.
///
/// The corpus: the court and juggling clips (people moving) at 720p, recorded as the trajectory
/// benchmark records them, each with truth that marks no ball (the clips have none; the scores
/// only have to agree), plus the bundled recordings with their truth. Each grid is timed as
/// `SweepRun.run` (the library call `lumatrace sweep` makes) and as one replay per setting per
/// recording (decoding each time, the log kept in memory, scored alike): the shell loop a sweep
/// replaces, minus its disk writes. The two must give the same scores.
enum SweepBench {
    /// A grid the benchmark times: its `--grid` and `--set` texts as the CLI takes them.
    struct Grid {
        /// The result's name (what a sweep target's `inputs` lists).
        let name: String
        let analyzer: String
        let grid: [String]
        let fixed: [(key: String, value: String)]
    }

    /// Decoding dominates: 9 cheap differencing settings.
    static let differencing = Grid(name: "differencing", analyzer: DifferencingAnalyzer.name,
                                   grid: ["differencing.threshold=15,25,35", "differencing.minArea=4,16,64"], fixed: [])
    /// Analysis dominates: a 3 × 3 trajectory grid, the window design (the one issue 43's speed targets
    /// judge; the tracking design's 9 instances would take minutes a run at 720p).
    static let trajectory = Grid(name: "trajectory", analyzer: TrajectoryAnalyzer.name,
                                 grid: ["trajectory.trajectoryLength=8,10,15", "trajectory.objectMinimumNormalizedRadius=0.005,0.01,0.02"],
                                 fixed: [("design", "window")])
    /// The grid sizes whose peak memory is measured, each in a child process.
    static let memorySizes = [9, 27, 64]
    /// The memory child's subcommand.
    static let childCommand = "sweep-memory-child"
    /// The real clips of the corpus.
    static let clips = [TrajectoryInputKind(clip: .court, size: .p720), TrajectoryInputKind(clip: .juggling, size: .p720)]
    /// The input the memory is measured on (its frame size is the unit of the per-instance figure).
    static let memoryInput = clips[0]

    /// What one run can measure (`--only`): a grid's time, or the memory.
    enum Measurement: String, CaseIterable {
        case differencing, trajectory, memory
    }

    static let registry = AnalyzerRegistry([AnalyzerDescriptor(DifferencingAnalyzer.self), AnalyzerDescriptor(TrajectoryAnalyzer.self)])

    /// The whole `sweep` benchmark: the corpus, both grids timed, then memory per grid size (or
    /// only the `measuring` ones).
    static func run(settings: BenchSettings, jobs: Int, measuring: Set<Measurement>) throws {
        var settings = settings
        let results: [BenchResult] = try Scratch.withFolder { scratch, kind in
            settings.scratchKind = kind
            let tools = try FFmpegTools.locate(scratch: scratch, needsPeerEncoders: false)
            let corpus = try makeCorpus(scratch: scratch, settings: settings, tools: tools)
            log("lumatrace-bench sweep: \(corpus.entries.count) recordings (\(corpus.entries.map(\.name).joined(separator: ", "))); "
                + "\(settings.runs) run\(settings.runs == 1 ? "" : "s") per measurement; --jobs \(jobs); scratch \(scratch)")
            var results: [BenchResult] = []
            for grid in [differencing, trajectory] where measuring.contains(where: { $0.rawValue == grid.name }) {
                let result = try measure(grid, corpus: corpus, settings: settings, jobs: jobs)
                if !settings.jsonOnly { print(result.table()); print("") }
                results.append(result)
            }
            guard measuring.contains(.memory) else { return results }
            let memory = try measureMemory(scratch: scratch, settings: settings, tools: tools, jobs: jobs)
            if !settings.jsonOnly { print(memory.table()); print("") }
            results.append(memory)
            return results
        }
        try printSummary(results, jsonOnly: settings.jsonOnly, nothingMeasured: "nothing was measured").require()
    }

    /// The corpus folder: the real clips recorded at 720p with truth marking no ball, and the
    /// bundled recordings with theirs (copied, so every file is read from the same scratch folder).
    static func makeCorpus(scratch: String, settings: BenchSettings, tools: FFmpegTools) throws -> SweepCorpus {
        let folder = scratch + "/corpus"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        for kind in clips {
            let clipPath = (settings.dataDirectory as NSString).appendingPathComponent(kind.clip.path)
            guard FileManager.default.isReadableFile(atPath: clipPath) else {
                throw InputError("\(clipPath) not found: the \(kind.clip.rawValue) clip belongs in the shared data folder "
                                 + "(pass --data DIR to point at it; by default ../shared/data next to the package)")
            }
            log("\(kind.name): decoding \(kind.clip.path) scaled to \(kind.width)x\(kind.height), recording it (untimed)")
            let input = try TrajectoryBench.prepare(kind, clipPath: clipPath, scratch: scratch, tools: tools)
            try? FileManager.default.removeItem(atPath: input.y4mPath)
            _ = try TrajectoryBench.record(input, to: "\(folder)/\(kind.name).luma", options: settings.options)
            let truth = GroundTruth(width: kind.width, height: kind.height, frames: input.summary.frameCount,
                                    notes: "lumatrace-bench sweep: \(kind.clip.path) at \(kind.width)x\(kind.height), no ball marked")
            try truth.canonicalJSON().write(toFile: "\(folder)/\(kind.name).truth.json", atomically: true, encoding: .utf8)
        }
        let bundled = BenchSettings.packageRoot.appendingPathComponent("Recordings").path
        for entry in try SweepCorpus.list(bundled).entries {
            try FileManager.default.copyItem(atPath: entry.recordingPath, toPath: "\(folder)/\(entry.name)")
            try FileManager.default.copyItem(atPath: entry.truthPath, toPath: "\(folder)/\(entry.stem).truth.json")
        }
        return try SweepCorpus.list(folder)
    }

    /// The grid as `lumatrace sweep` builds it from its `--grid` and `--set` texts.
    static func sweepGrid(_ grid: Grid) throws -> SweepGrid {
        try SweepGrid(name: grid.analyzer, analyzer: registry.descriptor(named: grid.analyzer), grid: grid.grid, fixed: grid.fixed)
    }

    /// One grid, `settings.runs` times each way, the two ways alternating run by run; an untimed
    /// warm-up of each first, whose scores every timed run must repeat (and the two ways agree on).
    static func measure(_ grid: Grid, corpus: SweepCorpus, settings: BenchSettings, jobs: Int) throws -> SweepGridResult {
        let sweep = try sweepGrid(grid)
        log("\(grid.name): warm-up sweep and separate replays of \(sweep.settingCount) settings (untimed)")
        let scores = try SweepRun.run(sweep, corpus: corpus, registry: registry, jobs: jobs).scores
        guard try separateReplays(sweep, corpus: corpus, jobs: jobs) == scores else {
            throw MeasureError(description: "\(grid.name): the separate replays scored differently than the sweep: the sweep is wrong")
        }
        var result = SweepGridResult(grid: grid, settingCount: sweep.settingCount, recordings: corpus.entries.count,
                                     frames: try corpus.entries.reduce(0) { $0 + (try RecordingReader(path: $1.recordingPath)).frameCount },
                                     jobs: jobs, settings: settings)
        for run in 1...settings.runs {
            log("\(grid.name): run \(run) of \(settings.runs): sweep, then the separate replays")
            var again: [[SweepScore]] = []
            result.sweep.append(try Stopwatch.seconds { again = try SweepRun.run(sweep, corpus: corpus, registry: registry, jobs: jobs).scores })
            guard again == scores else { throw MeasureError(description: "\(grid.name): run \(run)'s sweep scored differently than its warm-up") }
            result.separate.append(try Stopwatch.seconds { again = try separateReplays(sweep, corpus: corpus, jobs: jobs) })
            guard again == scores else { throw MeasureError(description: "\(grid.name): run \(run)'s separate replays scored differently than the sweep") }
        }
        return result
    }

    /// Every setting replayed alone over every recording (opened and decoded each time), each log
    /// scored against the recording's truth as the sweep scores its instances: scores per setting
    /// per recording, as `SweepResult.scores`.
    static func separateReplays(_ grid: SweepGrid, corpus: SweepCorpus, jobs: Int) throws -> [[SweepScore]] {
        let setups = try grid.setups(registry: registry)
        let truths = try corpus.entries.map { try GroundTruth.read($0.truthPath) }
        return try setups.map { setup in
            try zip(corpus.entries, truths).map { entry, truth in
                let reader = try RecordingReader(path: entry.recordingPath)
                let log = try Replay.runInMemory(reader, setups: [setup], registry: registry, options: ReplayOptions(jobs: jobs))
                let one = log.keepingOnly(setup.name)
                let shapes = log.header.analyzers.first { $0.name == setup.name }?.events.compactMap(\.shape) ?? []
                return SweepScore(try LogScore(log: one, truth: truth), events: one.events.count, shapes: shapes)
            }
        }
    }
}
