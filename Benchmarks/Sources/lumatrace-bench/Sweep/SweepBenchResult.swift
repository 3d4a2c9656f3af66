import Foundation

/// One grid timed as a sweep and as its separate replays.
struct SweepGridResult {
    let grid: SweepBench.Grid
    let settingCount: Int
    let recordings: Int
    /// Frames of the corpus (each replayed once per setting).
    let frames: Int
    let jobs: Int
    let settings: BenchSettings
    /// Seconds of each timed run: the sweep, and the separate replays of every setting.
    var sweep: [Double] = []
    var separate: [Double] = []

    var ratio: Double { median(sweep) / median(separate) }
    /// Frames analysed per second, every setting's counted.
    func fps(_ samples: [Double]) -> Double { Double(frames * settingCount) / median(samples) }
}

extension SweepGridResult: BenchResult {
    var name: String { grid.name }

    /// The figures `Benchmarks/targets.json` may judge.
    static let metricKeys = ["sweep_vs_separate", "memory_per_instance_frames"]

    var metrics: [Metric] {
        [Metric(key: "sweep_vs_separate", label: "sweep ÷ separate replays (time)", value: ratio, unit: .fraction)]
    }

    var checks: [TargetCheck] { settings.targets.checks(metrics, input: name) }

    func table() -> String {
        var lines = ["sweep, \(grid.name) grid of \(settingCount) settings (\((grid.grid + grid.fixed.map { "\(grid.analyzer).\($0.key)=\($0.value)" }).joined(separator: " "))), "
                     + "\(recordings) recordings, \(grouped(frames)) frames, --jobs \(jobs), median of \(settings.runs) run\(settings.runs == 1 ? "" : "s")"]
        lines += aligned([
            ["  sweep (each recording decoded once)", fixed(median(sweep), 2) + " s", fixed(fps(sweep), 1) + " frames/s"],
            ["  \(settingCount) separate replays (decoded \(settingCount)×)", fixed(median(separate), 2) + " s", fixed(fps(separate), 1) + " frames/s"],
        ], rightAligned: [1, 2])
        for check in checks {
            lines.append("  \(check.metric.label): \(check.metric.format(check.metric.value)), \(check.requirement) \(check.verdict)")
        }
        return lines.joined(separator: "\n")
    }


    func jsonLine() -> String {
        JSON.object(settings.jsonHeader(.sweep) + [
            ("input", .string(name)), ("settings", .int(settingCount)), ("recordings", .int(recordings)), ("frames", .int(frames)),
            ("jobs", .int(jobs)), ("sweep_seconds", .number(median(sweep), 4)), ("separate_seconds", .number(median(separate), 4)),
            ("sweep_vs_separate", .number(ratio, 4)),
        ] + checks.jsonFields).text
    }
}

/// Peak memory of sweeps of growing grids, and what each instance adds.
struct SweepMemoryResult {
    let peaks: [SweepMemoryPeak]
    /// Bytes of one frame of the input (720p: 921,600).
    let frameBytes: Int
    let jobs: Int
    let settings: BenchSettings

    /// Bytes each further instance adds: the slope between the smallest and the largest grid.
    var bytesPerInstance: Double {
        guard let first = peaks.first, let last = peaks.last, last.settings > first.settings else { return .nan }
        return Double((last.peakKiB - first.peakKiB) * 1024) / Double(last.settings - first.settings)
    }
}

extension SweepMemoryResult: BenchResult {
    /// The result's name: what a memory target's `inputs` lists.
    static let inputName = "memory"
    var name: String { Self.inputName }

    var metrics: [Metric] {
        [Metric(key: "memory_per_instance_frames", label: "memory per instance, in frames of \(SweepBench.memoryInput.name)",
                value: bytesPerInstance / Double(frameBytes), unit: .fraction)]
    }

    var checks: [TargetCheck] { settings.targets.checks(metrics, input: name) }

    func table() -> String {
        var lines = ["sweep memory, trajectory (window design) over \(SweepBench.memoryInput.name) alone, --jobs \(jobs), one child process per grid"]
        lines += aligned(peaks.map { peak in
            ["  \(peak.settings) settings", "peak \(fixed(Double(peak.peakKiB) / 1024, 1)) MiB",
             "(\(fixed(Double(peak.peakKiB - peak.baselineKiB) / 1024, 1)) MiB over the start)", fixed(peak.seconds, 1) + " s"]
        }, rightAligned: [1, 2, 3])
        lines.append("  each further instance: \(grouped(Int(bytesPerInstance.rounded()))) bytes (\(fixed(bytesPerInstance / Double(frameBytes), 2)) frames)")
        for check in checks {
            lines.append("  \(check.metric.label): \(check.metric.format(check.metric.value)), \(check.requirement) \(check.verdict)")
        }
        return lines.joined(separator: "\n")
    }

    func jsonLine() -> String {
        JSON.object(settings.jsonHeader(.sweep) + [
            ("input", .string(name)), ("recording", .string(SweepBench.memoryInput.name)), ("jobs", .int(jobs)),
            ("peaks", .array(peaks.map { .object([("settings", .int($0.settings)), ("baseline_hwm_kib", .int($0.baselineKiB)),
                                                   ("peak_hwm_kib", .int($0.peakKiB))]) })),
            ("bytes_per_instance", .number(bytesPerInstance, 0)), ("frame_bytes", .int(frameBytes)),
        ] + checks.jsonFields).text
    }
}
