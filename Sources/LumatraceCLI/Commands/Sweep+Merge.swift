import ArgumentParser
import LumaBase
import LumaEngine
import LumaOutput
import LumaRegression

/// `lumatrace sweep`: a sweep of a corpus (`sweep CORPUS`, the default, `sweep run`), or the parts
/// of a sharded sweep merged (`sweep merge`).
struct SweepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sweep",
        abstract: Sweep.configuration.abstract,
        discussion: (Sweep.configuration.discussion) + """


            On a cluster (a Slurm job array, docs/commands.md has the recipe):
              lumatrace sweep CORPUS --grid … --shard 0/3 -o part-0.json   # … 1/3, 2/3
              lumatrace sweep merge part-*.json -o OUT

            Every option: lumatrace sweep run --help (`run` may be left out).
            """,
        subcommands: [Sweep.self, SweepMerge.self], defaultSubcommand: Sweep.self)
}

/// `lumatrace sweep merge`: the parts of a sharded sweep joined into its outputs.
struct SweepMerge: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Join the part files of a sharded sweep into the outputs one sweep writes.",
        discussion: """
            Each part is what `lumatrace sweep CORPUS … --shard K/N -o PART` wrote. The
            parts must be every shard of one sweep exactly once: the same grid,
            analyzer, settings, corpus (each recording's frames and truth digests),
            shard count and lumatrace version; a missing, repeated or foreign part
            is refused, naming it. The outputs are byte-identical to those of the
            sweep run on one machine with the same --best.

              lumatrace sweep merge part-*.json -o sweep-out
            """)

    @Argument(help: "The part files, one per shard.")
    var parts: [String]

    @OptionGroup var best: SweepBestOption

    @Option(name: .shortAndLong, help: "The folder to write sweep.txt, sweep.json and sweep.csv into (new or empty).")
    var output: String

    @OptionGroup var replaceOutput: ReplaceOutputOption

    func run() throws {
        try reportingErrors {
            let read = try parts.map { (path: $0, part: try SweepPart.read($0)) }
            let units = try SweepPart.merge(read)
            let (path, first) = read[0]
            let grid: SweepGrid
            let descriptor: AnalyzerDescriptor
            do {
                descriptor = try Lumatrace.registry.descriptor(named: first.sweep.analyzer)
                grid = try SweepGrid(first.sweep, analyzer: descriptor)
            } catch {
                throw CLIError("\(path): its grid is not one this lumatrace sweeps: \(error)")
            }
            _ = try best.measure(for: descriptor)
            let result = SweepResult(grid: grid, recordings: first.corpus.map(\.name), withoutTruth: first.withoutTruth,
                                     passes: first.sweep.passes, units: units)
            let folder = try OutputFolder.create(output, replacingExisting: replaceOutput.replacesExisting, inputs: parts, owns: Sweep.fileNames.contains)
            try Sweep.write(SweepReport(result, best: try best.measure(for: descriptor, scored: result)), into: folder, saying: "merged \(Plural.count(parts.count, "part")):")
        }
    }
}
