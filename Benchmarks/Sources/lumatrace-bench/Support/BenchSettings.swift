import Foundation
import LumaFormat
import TrajectoryAnalyzer

/// What a run measures and how: built by each subcommand from its options, read by the
/// measurements and the reports.
struct BenchSettings {
    /// The root of the Lumatrace package: the folder holding `Benchmarks/`, found from this
    /// source file's own path (`Benchmarks/Sources/lumatrace-bench/…`).
    static var packageRoot: URL {
        var url = URL(fileURLWithPath: #filePath)
        while url.lastPathComponent != "Benchmarks" && url.path != "/" { url.deleteLastPathComponent() }
        return url.deletingLastPathComponent()
    }
    /// `Benchmarks/` inside the package root.
    static var benchmarksFolder: URL { packageRoot.appendingPathComponent("Benchmarks") }
    /// `../shared/data` next to the package root.
    static var defaultDataDirectory: String { packageRoot.appendingPathComponent("../shared/data").standardizedFileURL.path }

    var runs = 5
    var dataDirectory = BenchSettings.defaultDataDirectory
    /// `codec --only`: the inputs to measure (empty: all).
    var only: [InputKind] = []
    var level = RecordingWriterOptions().compressionLevel
    var chunkSeconds: Double?
    var jsonOnly = false
    /// `tracking --only-lumatrace`: measure Lumatrace's levels only, without the OpenCV peers and
    /// the scaling table.
    var onlyLumatrace = false
    /// `trajectory --only`: the inputs, clips and sizes to measure (empty: every input).
    var trajectoryOnly: [TrajectorySelection] = []
    /// `trajectory --design`: the analyzer's designs to measure on every input, in the order they run.
    var trajectoryDesigns = TrajectoryDesignChoice.both.designs
    /// `trajectory --memory-minutes`: the memory measurement's stream lengths, per design or for
    /// every design, later values winning (see `memoryMinutes(for:)`).
    var trajectoryMemoryMinutes: [TrajectoryMemoryMinutes] = []
    /// Where scratch files live, for the report: "/dev/shm" or the temp dir.
    var scratchKind = ""
    /// The area's targets, from `Benchmarks/targets.json`.
    var targets: AreaTargets
    /// When and on which commit this run measures: written into every JSON line.
    var provenance: Provenance

    init(targets: AreaTargets, provenance: Provenance = .current()) {
        self.targets = targets
        self.provenance = provenance
    }

    /// The inputs to measure, in their fixed order.
    var inputs: [InputKind] { only.isEmpty ? InputKind.allCases : InputKind.allCases.filter(only.contains) }
    /// The inputs the trajectory benchmark measures, in their fixed order: those any word of
    /// `--only` selects, or all.
    var trajectoryInputs: [TrajectoryInputKind] {
        trajectoryOnly.isEmpty ? TrajectoryInputKind.all
            : TrajectoryInputKind.all.filter { input in trajectoryOnly.contains { $0.selects(input) } }
    }

    /// The stream lengths, in minutes, of `design`'s memory measurement: the last `--memory-minutes`
    /// value naming the design, else the last naming none, else `TrajectoryBench.defaultMemoryMinutes`.
    func memoryMinutes(for design: TrajectoryConfiguration.Design) -> [Int] {
        (trajectoryMemoryMinutes.last { $0.design == design } ?? trajectoryMemoryMinutes.last { $0.design == nil })?.minutes
            ?? TrajectoryBench.defaultMemoryMinutes
    }

    /// The writer options every Lumatrace recording in this run uses: the writer's defaults (what
    /// `lumatrace record` uses), or chunks of exactly `chunkSeconds` without a byte minimum.
    var options: RecordingWriterOptions { Self.writerOptions(level: level, chunkSeconds: chunkSeconds) }

    /// The writer's defaults at zstd level `level`, or chunks of exactly `chunkSeconds` without a byte minimum.
    static func writerOptions(level: Int, chunkSeconds: Double?) -> RecordingWriterOptions {
        var o = chunkSeconds.map(RecordingWriterOptions.fixedDuration) ?? RecordingWriterOptions()
        o.compressionLevel = level
        return o
    }

    /// The chunking rule in words, e.g. "chunks ≥ 1.00 s and ≥ 16 MiB, at most 10.00 s or 64 MiB".
    var chunkDescription: String {
        let o = options
        func mib(_ bytes: Int) -> String { bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes" }
        let least = o.minimumChunkBytes > 0 ? " and ≥ \(mib(o.minimumChunkBytes))" : ""
        return "chunks ≥ \(fixed(o.chunkDuration, 2)) s\(least), at most \(fixed(o.maximumChunkDuration, 2)) s or \(mib(o.maximumChunkBytes))"
    }

    /// The fields every JSON line of this run starts with: the area, when and on what it measured,
    /// and how many runs each median is of.
    func jsonHeader(_ area: BenchArea) -> [(String, JSON)] {
        [("benchmark", .string(area.rawValue))] + provenance.jsonFields + [("runs", .int(runs))]
    }
}
