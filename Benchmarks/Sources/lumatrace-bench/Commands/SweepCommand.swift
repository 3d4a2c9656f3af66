import ArgumentParser
import Foundation

/// `lumatrace-bench sweep`: a sweep against the separate replays it replaces, and its memory.
struct SweepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sweep",
        abstract: "How much faster `lumatrace sweep` is than one replay per setting, and how its memory grows with the grid.",
        discussion: """
            The corpus: basketball-court-shots/three_score_two_miss.mp4 and juggling-3ball-cascade/\
            ss3_id_01.mp4 (people moving) scaled to 720p (1280x720, 720x1280) and recorded as the \
            trajectory benchmark records them, each with truth marking no ball, plus the bundled \
            Recordings/*.luma with their truth; all in the scratch folder.

            Two grids, each timed both ways in the same run, the ways alternating run by run: the \
            sweep (SweepRun.run, the library call `lumatrace sweep` makes: each recording decoded \
            once, the settings' instances analysing each frame side by side) and one replay per \
            setting per recording (decoded each time, the log in memory, scored alike; the shell loop \
            of `replay --set` + `score` a sweep replaces, without its disk writes). Both use --jobs \
            threads. The two ways must give the same scores, else the run fails.
              differencing: threshold 15,25,35 × minArea 4,16,64 (9 settings; decoding dominates)
              trajectory: trajectoryLength 8,10,15 × objectMinimumNormalizedRadius 0.005,0.01,0.02,
                          design window (9 settings; analysis dominates)

            Memory: sweeps of 9, 27 and 64 trajectory settings (window design) over court-720p, \
            each in a child process reading its own VmHWM; the bytes each further instance adds \
            (slope from 9 to 64), also in frames of 720p.

            Judged against the sweep targets of Benchmarks/targets.json: sweep ÷ separate time per \
            grid, and memory per instance.

            Examples:
              Benchmarks/run sweep --runs 3
              Benchmarks/run sweep --runs 1 --jobs 2 --json
              Benchmarks/run sweep --runs 5 --only differencing
            """)

    @OptionGroup var common: RunOptions
    @OptionGroup var data: DataOptions

    @Option(help: ArgumentHelp("Threads of every sweep and replay (default: the machine's cores, at most 8, as lumatrace's --jobs).", valueName: "n"))
    var jobs = min(ProcessInfo.processInfo.activeProcessorCount, 8)

    @Option(name: .customLong("only"), parsing: .singleValue,
            help: ArgumentHelp("Measure only this: \(SweepBench.Measurement.allCases.map(\.rawValue).joined(separator: ", ")) "
                               + "(repeatable, or comma-separated).", valueName: "measurement"),
            transform: parseSelection)
    var only: [[SweepBench.Measurement]] = []

    @OptionGroup var writer: WriterOptions

    func validate() throws {
        try data.validate(needed: true)
        guard (1...256).contains(jobs) else { throw ValidationError("--jobs needs a whole number 1...256, got \(jobs)") }
    }

    func run() throws {
        var settings = try BenchSettings.start(.sweep, common, writer: writer)
        settings.dataDirectory = data.directory
        let selected = Set(only.flatMap { $0 })
        try SweepBench.run(settings: settings, jobs: jobs, measuring: selected.isEmpty ? Set(SweepBench.Measurement.allCases) : selected)
    }
}

/// The child process of the sweep benchmark's memory measurement (not for people: the `sweep`
/// subcommand starts it and reads its JSON line).
struct SweepMemoryChildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: SweepBench.childCommand,
        abstract: "Sweeps SETTINGS trajectory settings (window design) over the corpus FOLDER and prints its memory.",
        shouldDisplay: false)

    @Argument(help: "A corpus folder: recordings with their truth.")
    var folder: String

    @Argument(help: "How many settings to sweep (trajectoryLength 8, 9, …).")
    var settings: Int

    @Option(help: ArgumentHelp("Threads of the sweep.", valueName: "n"))
    var jobs = 1

    func validate() throws {
        guard (1...1024).contains(settings) else { throw ValidationError("SETTINGS needs a whole number 1...1024, got \(settings)") }
        guard jobs >= 1 else { throw ValidationError("--jobs needs a whole number ≥ 1, got \(jobs)") }
    }

    func run() throws {
        let status = SweepBench.child(folder: folder, count: settings, jobs: jobs)
        if status != 0 { throw ExitCode(status) }
    }
}
