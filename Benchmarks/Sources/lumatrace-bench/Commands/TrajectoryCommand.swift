import ArgumentParser

/// `lumatrace-bench trajectory`: the trajectory analyzer's speed against OpenCV, and its memory.
struct TrajectoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trajectory",
        abstract: "How fast the trajectory analyzer runs against OpenCV's MOG2 and frame differencing, and how much memory it holds.",
        discussion: """
            Measures the trajectory analyzer (one thread, default configuration) on two real clips \
            from the data folder where people move while balls fly: basketball-court-shots/\
            three_score_two_miss.mp4 (960x540, players running) and juggling-3ball-cascade/\
            ss3_id_01.mp4 (478x850 portrait, the juggler's body moving behind the balls). Each is \
            scaled by ffmpeg (its Y plane as coded) to two size classes with the pixel count of 720p \
            and 1080p, in its own orientation: court-720p 1280x720, court-1080p 1920x1080, \
            juggling-720p 720x1280, juggling-1080p 1080x1920. On each input: frames/s on frames in \
            memory, and with decoding a .luma included (both paths must give the same events), \
            against OpenCV's MOG2 + findContours and three-frame differencing + \
            connectedComponentsWithStats on the same frames (opencv-peer/peer.py, one thread, every \
            Benchmarks/.venv-opencv-* venv, the faster version per peer; opencv-peer/setup runs \
            first when a venv is missing).

            Judged against the trajectory targets and floors of Benchmarks/targets.json (analyzer \
            ÷ MOG2, analyzer ÷ diff3, frames/s with and without decoding). A missed target prints \
            FAIL; a missed floor also makes the run exit with status 3 once everything is printed \
            (1 is a run that could not measure). On court-720p it also measures the analyzer's \
            peak RSS over a 1-minute and a 10-minute stream, each in a child process.

            --level and --chunk-seconds apply to the .luma of the decode-included measurement.

            Examples:
              Benchmarks/run trajectory --runs 3
              Benchmarks/run trajectory --runs 1 --only court-720p
              Benchmarks/run trajectory --runs 1 --only juggling        # both sizes of one clip
              Benchmarks/run trajectory --runs 1 --only 720p            # every clip at 720p
            """)

    @OptionGroup var common: RunOptions
    @OptionGroup var data: DataOptions

    @Option(name: .customLong("only"), parsing: .singleValue,
            help: ArgumentHelp("""
                Measure only these inputs: an input (\(TrajectoryInputKind.all.map(\.name).joined(separator: ", "))), \
                a clip (\(TrajectoryClip.allCases.map(\.rawValue).joined(separator: ", "))) or a size \
                (\(TrajectorySize.allCases.map(\.rawValue).joined(separator: ", "))); repeatable, or comma-separated.
                """, valueName: "input"),
            transform: parseTrajectorySelection)
    var only: [[TrajectorySelection]] = []

    @OptionGroup var writer: WriterOptions

    func validate() throws { try data.validate(needed: true) }

    func run() throws {
        var settings = try BenchSettings.start(.trajectory, common, writer: writer)
        settings.dataDirectory = data.directory
        settings.trajectoryOnly = only.flatMap { $0 }
        try TrajectoryBench.run(settings: settings)
    }
}

/// A comma-separated `trajectory --only` value: inputs, clips or sizes.
func parseTrajectorySelection(_ argument: String) throws -> [TrajectorySelection] {
    var selection: [TrajectorySelection] = []
    for word in argument.split(separator: ",") {
        do { selection.append(try TrajectorySelection(parsing: String(word))) } catch { throw ValidationError(error.description) }
    }
    return selection
}
