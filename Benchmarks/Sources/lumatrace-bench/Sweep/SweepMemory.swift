import Foundation
import LumaEngine
import LumaRegression
import TrajectoryAnalyzer

// MARK: - Memory

/// The peak memory of one sweep of `settings` trajectory settings over one recording, measured in
/// a child process.
struct SweepMemoryPeak {
    let settings: Int
    /// VmHWM before the sweep (the executable, the registry, the grid) and after it, KiB.
    let baselineKiB: Int
    let peakKiB: Int
    let seconds: Double
}

extension SweepBench {
    /// The grid of the memory child: `count` settings of the trajectory analyzer's window design,
    /// `trajectoryLength` 8, 9, … (one value each), every setting in one pass up to 64.
    static func memoryGrid(_ count: Int) throws -> SweepGrid {
        try sweepGrid(Grid(name: "memory", analyzer: TrajectoryAnalyzer.name,
                           grid: ["trajectory.trajectoryLength=8:\(8 + count - 1):\(count)"], fixed: [("design", "window")]))
    }

    /// Each of `memorySizes` swept over `memoryInput` alone, each in its own child process.
    static func measureMemory(scratch: String, settings: BenchSettings, tools: FFmpegTools, jobs: Int) throws -> SweepMemoryResult {
        let folder = scratch + "/memory-corpus"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        for suffix in [".luma", ".truth.json"] {
            try FileManager.default.copyItem(atPath: "\(scratch)/corpus/\(memoryInput.name)\(suffix)", toPath: "\(folder)/\(memoryInput.name)\(suffix)")
        }
        var peaks: [SweepMemoryPeak] = []
        for count in memorySizes {
            log("memory: a sweep of \(count) trajectory settings over \(memoryInput.name), in a child process")
            let what = "sweep memory child (\(count) settings)"
            let text = try ChildProcess.runSelf([childCommand, folder, "\(count)", "--jobs", "\(jobs)"], output: "\(scratch)/memory-\(count).json",
                                                errorLog: tools.errorLog, what: what)
            guard let json = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                  let n = json["settings"] as? Int, n == count, let baseline = json["baseline_hwm_kib"] as? Int,
                  let peak = json["peak_hwm_kib"] as? Int, let seconds = json["seconds"] as? Double else {
                throw InputError("\(what): unexpected output '\(text)'")
            }
            peaks.append(SweepMemoryPeak(settings: count, baselineKiB: baseline, peakKiB: peak, seconds: seconds))
        }
        return SweepMemoryResult(peaks: peaks, frameBytes: memoryInput.width * memoryInput.height, jobs: jobs, settings: settings)
    }

    /// The child: sweeps `count` settings (`memoryGrid`) over the corpus `folder` and prints one
    /// JSON line with its VmHWM before and after; returns the exit status.
    static func child(folder: String, count: Int, jobs: Int) -> Int32 {
        do {
            let grid = try memoryGrid(count)
            let corpus = try SweepCorpus.list(folder)
            let baseline = TrajectoryBench.memoryStatus()
            var passes = 0
            let seconds = try Stopwatch.seconds { passes = try SweepRun.run(grid, corpus: corpus, registry: registry, jobs: jobs).passes }
            let peak = TrajectoryBench.memoryStatus()
            print(JSON.object([
                ("settings", .int(grid.settingCount)), ("passes", .int(passes)), ("seconds", .number(seconds, 3)),
                ("baseline_hwm_kib", .int(baseline.hwm)), ("peak_hwm_kib", .int(peak.hwm)),
            ]).text)
            return 0
        } catch {
            log("sweep failed: \(error)")
            return 1
        }
    }
}
