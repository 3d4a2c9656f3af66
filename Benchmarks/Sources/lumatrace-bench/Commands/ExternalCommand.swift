import ArgumentParser

/// `lumatrace-bench external`: what the external analyzer's subprocess protocol costs.
struct ExternalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "external",
        abstract: "What the external analyzer's subprocess protocol costs against an in-process analyzer.",
        discussion: """
            Replays a 720p synthetic recording (300 frames, one thread, decoding and hashing \
            included) through the Python brightness histogram (Plugins/BrightnessHistogram, numpy) \
            and a Python program that only answers `done` (the protocol's own cost: 921,600 bytes \
            piped per frame and one line back), both through `external`, and through the same \
            histogram written in Swift as an in-process analyzer, the baseline. Reports frames/s \
            and each ÷ the Swift analyzer, judged against the external targets of \
            Benchmarks/targets.json if it has any.

            Example:
              Benchmarks/run external --runs 3
            """)

    @OptionGroup var common: RunOptions

    func run() throws {
        try ExternalBench.run(settings: try BenchSettings.start(.external, common))
    }
}
