/// The areas the benchmarks measure: each is a subcommand, a section of `Benchmarks/targets.json`
/// and a table in the README (between `<!-- bench:AREA:begin -->` and `<!-- bench:AREA:end -->`).
enum BenchArea: String, CaseIterable, Sendable {
    /// Recording and decoding against memcpy, FFV1 and x264-lossless.
    case codec
    /// The trajectory analyzer against OpenCV's MOG2 and frame differencing.
    case trajectory
    /// The tracking analyzer against OpenCV's trackers.
    case tracking
    /// The external analyzer's subprocess protocol against an in-process analyzer.
    case external
    /// Analysis while recording: a frame's latency from arrival to its events in the log.
    case live
    /// A sweep (each recording decoded once) against one replay per setting, and its memory.
    case sweep

    /// The metrics the area measures, in the order it reports them: what a target may judge.
    var metricKeys: [String] {
        switch self {
        case .codec: return InputResult.metricKeys
        case .trajectory: return TrajectoryResult.metricKeys
        case .tracking: return TrackingResult.metricKeys
        case .external: return ExternalResult.metricKeys
        case .live: return LiveResult.metricKeys
        case .sweep: return SweepGridResult.metricKeys
        }
    }

    /// The designs of its analyzer the area measures each input with (none: one way only): what a
    /// target's `designs` may list.
    var designNames: [String] {
        switch self {
        case .trajectory: return TrajectoryBench.designs.map(\.rawValue)
        case .codec, .tracking, .external, .live, .sweep: return []
        }
    }

    /// The inputs the area names in its results: what a target's `inputs` may list.
    var inputNames: [String] {
        switch self {
        case .codec: return InputKind.allCases.map(\.rawValue)
        case .trajectory: return TrajectoryInputKind.all.map(\.name)
        case .tracking: return TrackingBench.inputNames
        case .external: return [ExternalBench.inputName]
        case .live: return [LiveResult.inputName]
        case .sweep: return [SweepBench.differencing.name, SweepBench.trajectory.name, SweepMemoryResult.inputName]
        }
    }
}
