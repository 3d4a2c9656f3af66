import ArgumentParser

/// `lumatrace-bench codec`, the default: recording and decoding against memcpy, FFV1 and x264.
struct CodecCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "codec",
        abstract: "How fast Lumatrace records and decodes, and how small its files are, against memcpy, FFV1 and x264-lossless.",
        discussion: """
            Measures, on the same frames and in one run, memcpy, Lumatrace record and decode (one \
            thread, in-process) and ffmpeg's FFV1 and x264-lossless (one thread each, as \
            subprocesses), interleaved run by run so that noise from other processes spreads over \
            all methods alike. Before timing, one recording is decoded and compared frame by frame: \
            every timed run measures a lossless round trip.

            Inputs: a 1920x1080 LumaSynth `mixed` scene (120 frames, seed 1, rendered in memory), \
            then every clip of the shared data folder, each at its own size: the videos, the GIF \
            and the two image sequences, read through `lumatrace record`'s own frame sources, so \
            the frames are the luma a recording of the clip holds (a video's Y plane as coded). A \
            missing clip is skipped with a notice.

            Prints per input a table of medians and the key ratios with the codec targets of \
            Benchmarks/targets.json (decode and record MB/s per core, decode ÷ the faster peer, and \
            on the real clips size ÷ FFV1 and ÷ x264), then one JSON line per input.

            Examples:
              Benchmarks/run                        # every input, median of 5 runs
              Benchmarks/run codec --runs 3 --only vtest
              Benchmarks/run codec --json > codec.json
            """)

    @OptionGroup var common: RunOptions
    @OptionGroup var data: DataOptions

    @Option(name: .customLong("only"), parsing: .singleValue,
            help: ArgumentHelp("Measure only this input: \(InputKind.allCases.map(\.rawValue).joined(separator: ", ")) (repeatable, or comma-separated).",
                               valueName: "input"),
            transform: parseSelection)
    var only: [[InputKind]] = []

    @OptionGroup var writer: WriterOptions

    var inputs: [InputKind] { only.flatMap { $0 } }

    func validate() throws {
        let selected = inputs.isEmpty ? InputKind.allCases : inputs
        try data.validate(needed: selected.contains { $0.relativePath != nil })
    }

    func run() throws {
        var settings = try BenchSettings.start(.codec, common, writer: writer)
        settings.dataDirectory = data.directory
        settings.only = inputs
        try CodecBench.run(settings: settings)
    }
}
