import ArgumentParser

/// `lumatrace-bench trajectory`: the trajectory analyzer's speed against OpenCV, and its memory.
struct TrajectoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trajectory",
        abstract: "How fast the trajectory analyzer runs against OpenCV's MOG2 and frame differencing, and how much memory it holds.",
        discussion: """
            Measures the trajectory analyzer (one thread, default configuration) on \
            basketball-court-shots/three_score_two_miss.mp4 from the data folder, scaled by ffmpeg \
            to 720p and 1080p (its Y plane as coded): frames/s on frames in memory, and with \
            decoding a .luma included (both paths must give the same events), against OpenCV's \
            MOG2 + findContours and three-frame differencing + connectedComponentsWithStats \
            (opencv-peer/peer.py, one thread, every Benchmarks/.venv-opencv-* venv, the faster \
            version per peer; opencv-peer/setup runs first when a venv is missing).

            Judged against the trajectory targets of Benchmarks/targets.json (analyzer ÷ MOG2, \
            analyzer ÷ diff3, frames/s at 720p). At 720p it also measures the analyzer's peak RSS \
            over a 1-minute and a 10-minute stream, each in a child process.

            --level and --chunk-seconds apply to the .luma of the decode-included measurement.

            Examples:
              Benchmarks/run trajectory --runs 3
              Benchmarks/run trajectory --runs 1 --only 720p
            """)

    @OptionGroup var common: RunOptions
    @OptionGroup var data: DataOptions

    @Option(name: .customLong("only"), parsing: .singleValue,
            help: ArgumentHelp("Measure only this size: 720p or 1080p (repeatable, or comma-separated).", valueName: "size"),
            transform: parseSelection)
    var only: [[TrajectorySize]] = []

    @OptionGroup var writer: WriterOptions

    func validate() throws { try data.validate(needed: true) }

    func run() throws {
        var settings = try BenchSettings.start(.trajectory, common, writer: writer)
        settings.dataDirectory = data.directory
        settings.onlySizes = only.flatMap { $0 }
        try TrajectoryBench.run(settings: settings)
    }
}
