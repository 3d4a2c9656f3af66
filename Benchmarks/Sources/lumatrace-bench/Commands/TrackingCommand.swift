import ArgumentParser

/// `lumatrace-bench tracking`: the tracking analyzer's quality and speed against OpenCV's trackers.
struct TrackingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tracking",
        abstract: "How well and how fast the tracking analyzer follows an object, against OpenCV's CSRT, MIL, KCF and MOSSE.",
        discussion: """
            Runs the tracking analyzer (fast and accurate levels, one seed, one thread) and OpenCV's \
            CSRT, MIL, KCF and MOSSE (opencv-peer/trackers.py, one thread, the faster OpenCV version \
            per tracker), each seeded with the same first-frame box, on otb-crossing, vot2015-ball1 \
            (its polygons as axis-aligned boxes) and 10 `synth tracking` scenes (seeds 1-10, first \
            object). Scores the OTB one-pass way (a lost tracker keeps its last box): success AUC, \
            precision at 20 px and frames/s, per sequence and on average, judged against the \
            tracking targets of Benchmarks/targets.json. Then frames/s with 1, 16 and 64 tracks at \
            once on vot2015-ball1.

            Examples:
              Benchmarks/run tracking --runs 3
              Benchmarks/run tracking --runs 1 --only-lumatrace
            """)

    @OptionGroup var common: RunOptions
    @OptionGroup var data: DataOptions

    @Flag(help: """
        Measure only Lumatrace's levels: no OpenCV peers, no targets, no scaling table (a quick \
        loop while tuning the tracker).
        """)
    var onlyLumatrace = false

    func validate() throws { try data.validate(needed: true) }

    func run() throws {
        var settings = try BenchSettings.start(.tracking, common)
        settings.dataDirectory = data.directory
        settings.onlyLumatrace = onlyLumatrace
        try TrackingBench.run(settings: settings)
    }
}
