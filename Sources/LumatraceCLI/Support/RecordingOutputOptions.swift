import ArgumentParser
import LumaFormat

/// `-o` and `--format-version`, for the commands that write a recording (`record`, `synth`): the
/// file, and the `.luma` version its frames are coded in.
struct RecordingOutputOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: "The .luma file to write.")
    var output: String

    @Option(help: "The .luma format version to write: 3 (default; 16×16 blocks choose their predictor, smaller on noisy video), 2 (for readers that know versions 1 and 2) or 1 (the header and reference frame kept once).")
    var formatVersion: Int = RecordingHeader.formatVersion
}
