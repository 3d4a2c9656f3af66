import ArgumentParser

// `--force` has one meaning per group below, and each group one help text: a command declares
// the group of its meaning, never a `--force` of its own (`CommandLineTests.forceHelpIsShared`
// checks every command's help against these texts).

/// `--force` for the commands whose only use of it is to replace an existing output
/// (`record`, `recover`, `export`, `synth`, `truth import`): one flag, one meaning, one help text.
/// Without it an existing output is an error; with it the output is replaced (never an input).
struct ReplaceOutputOption: ParsableArguments {
    @Flag(name: .customLong("force"), help: "Replace existing output (never an input).")
    var replacesExisting = false
}

/// `--force` for the commands that run analyzers and write their results (`replay`'s log,
/// `regress run`'s part file and staged logs, `regress`'s JUnit report): the existing result is
/// replaced only once the new one is complete, so a failed run leaves it as it was.
struct ReplaceResultOption: ParsableArguments {
    @Flag(name: .customLong("force"),
          help: "Replace an existing log, part file or report (only one of the same kind), only once the new one is complete (a failed run never replaces it).")
    var replacesExisting = false
}

/// `--force` for `diff`: compare two logs although their headers name different recordings.
struct CompareOtherRecordingOption: ParsableArguments {
    @Flag(name: .customLong("force"), help: "Compare logs of different recordings anyway.")
    var force = false
}

/// `--force` for the commands that draw a log over a recording and write a file (`render`,
/// `report`): use a log whose header names another recording, and replace an existing output.
struct DrawOtherRecordingOption: ParsableArguments {
    @Flag(name: .customLong("force"), help: "Use a log of another recording anyway, and replace existing output of the same kind (never an input).")
    var force = false
}
