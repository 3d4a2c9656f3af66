import ArgumentParser

/// `--force` for the commands whose only use of it is to replace an existing output
/// (`record`, `recover`, `export`, `synth`, `truth import`): one flag, one meaning, one help text.
/// Without it an existing output is an error; with it the output is replaced (never an input).
struct ReplaceOutputOption: ParsableArguments {
    @Flag(name: .customLong("force"), help: "Replace existing output (never an input).")
    var replacesExisting = false
}
