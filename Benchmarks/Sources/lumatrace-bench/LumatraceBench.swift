import ArgumentParser

/// `lumatrace-bench`: Lumatrace's benchmarks, one subcommand per area, each judging its figures
/// against `Benchmarks/targets.json`; `tables` turns their JSON output into the README's tables.
@main
struct LumatraceBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lumatrace-bench",
        abstract: "Measures Lumatrace against memcpy, ffmpeg's lossless codecs and OpenCV, one area at a time.",
        usage: """
            Benchmarks/run [codec] [--runs <n>] [--only <input>]… [--json]
            Benchmarks/run trajectory|tracking|external [<options>]
            Benchmarks/run sharding [--recordings <n>]
            Benchmarks/run live [--seconds <n>]
            Benchmarks/run sweep [--runs <n>] [--jobs <n>]
            Benchmarks/run tables <result.json>… [--readme docs/speed.md]
            """,
        discussion: """
            Each area prints, per input, a table of medians, the ratios against baselines measured in \
            the same run, and every target of Benchmarks/targets.json with PASS or FAIL; then one JSON \
            line per input (only those with --json). Everything runs on one thread; the machine may be \
            shared, so quote medians and compare ratios.

            `Benchmarks/run` builds this program in release and passes its arguments on; without a \
            subcommand it measures `codec`. scripts/benchmark-tables runs every area with --json and \
            writes the tables of docs/speed.md with `tables`.

            Needs ffmpeg and ffprobe with libx264 (`sudo apt-get install ffmpeg`); the OpenCV peers \
            live in Benchmarks/opencv-peer (set up on first use). Scratch files go to /dev/shm when \
            it exists (else the temp dir) and are removed at the end.
            """,
        subcommands: [CodecCommand.self, TrajectoryCommand.self, TrackingCommand.self, ExternalCommand.self, ShardingCommand.self, LiveCommand.self, SweepCommand.self,
                      TablesCommand.self, MemoryChildCommand.self, SweepMemoryChildCommand.self],
        defaultSubcommand: CodecCommand.self)
}
