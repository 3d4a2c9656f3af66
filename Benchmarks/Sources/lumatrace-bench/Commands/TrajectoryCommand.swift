import ArgumentParser
import TrajectoryAnalyzer

/// `lumatrace-bench trajectory`: the trajectory analyzer's speed, in each of its designs, against
/// OpenCV, and its memory.
struct TrajectoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trajectory",
        abstract: "How fast the trajectory analyzer runs, in each design, against OpenCV's MOG2 and frame differencing, and how much memory it holds.",
        discussion: """
            Measures the trajectory analyzer (one thread, default configuration but for its design) \
            on two real clips \
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

            Each input is measured once per design (--design, by default both): tracking, version \
            2's and the analyzer's default, and window, the design meant to replace it. Each design \
            gets its own table and JSON line (with "design"); the runs of the two designs alternate, \
            and the OpenCV peers run once per input, their figures shared by both designs' ratios.

            Judged against the trajectory targets and floors of Benchmarks/targets.json (analyzer \
            ÷ MOG2, analyzer ÷ diff3, frames/s with and without decoding). A target may name the \
            designs it judges ("designs": ["window"]: issue 43's targets are the window design's); \
            on another design its figure is shown with whether it would pass, never failing the run. \
            A missed target prints FAIL; a missed floor also makes the run exit with status 3 once \
            everything is printed (1 is a run that could not measure). On court-720p it also \
            measures each design's peak RSS over a 1-minute and a 10-minute stream, each in a child \
            process (--memory-minutes changes them; the tracking design's 10 minutes take ~8 \
            minutes of the run, the window design's under one).

            --level and --chunk-seconds apply to the .luma of the decode-included measurement.

            Examples:
              Benchmarks/run trajectory --runs 3
              Benchmarks/run trajectory --runs 1 --only court-720p
              Benchmarks/run trajectory --runs 1 --only juggling        # both sizes of one clip
              Benchmarks/run trajectory --runs 1 --only 720p            # every clip at 720p
              Benchmarks/run trajectory --runs 3 --design window        # only the design the targets judge
              Benchmarks/run trajectory --runs 3 --memory-minutes tracking:1   # tracking's memory over 1 min only
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

    @Option(help: ArgumentHelp("""
                The analyzer's designs to measure on every input: tracking (version 2's, the default \
                configuration's), window (the design issue 43's targets judge) or both.
                """, valueName: "design"))
    var design: TrajectoryDesignChoice = .both

    @Option(name: .customLong("memory-minutes"), parsing: .singleValue,
            help: ArgumentHelp("""
                The memory measurement's streams on court-720p, in minutes of recording time, each in \
                its own child process: M[,M…] for every design, DESIGN:M[,M…] for one (it wins over \
                a value without DESIGN), none (or DESIGN:none) to skip it; repeatable. Default 1,10 \
                for every design.
                """, valueName: "[design:]minutes"),
            transform: parseMemoryMinutes)
    var memoryMinutes: [TrajectoryMemoryMinutes] = []

    @OptionGroup var writer: WriterOptions

    func validate() throws { try data.validate(needed: true) }

    func run() throws {
        var settings = try BenchSettings.start(.trajectory, common, writer: writer)
        settings.dataDirectory = data.directory
        settings.trajectoryOnly = only.flatMap { $0 }
        settings.trajectoryDesigns = design.designs
        settings.trajectoryMemoryMinutes = memoryMinutes
        try TrajectoryBench.run(settings: settings)
    }
}

/// One `trajectory --memory-minutes` value, refused with what the option takes.
func parseMemoryMinutes(_ argument: String) throws -> TrajectoryMemoryMinutes {
    do { return try TrajectoryMemoryMinutes(parsing: argument) } catch { throw ValidationError(error.description) }
}

/// A comma-separated `trajectory --only` value: inputs, clips or sizes.
func parseTrajectorySelection(_ argument: String) throws -> [TrajectorySelection] {
    var selection: [TrajectorySelection] = []
    for word in argument.split(separator: ",") {
        do { selection.append(try TrajectorySelection(parsing: String(word))) } catch { throw ValidationError(error.description) }
    }
    return selection
}

extension TrajectoryDesignChoice: ExpressibleByArgument {}
