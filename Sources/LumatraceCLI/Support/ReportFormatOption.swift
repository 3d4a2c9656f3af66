import ArgumentParser

/// `--json`, for the commands that print a report (`diff`, `score`, `regress`): a table for
/// people by default, one JSON object on stdout for programs.
struct ReportFormatOption: ParsableArguments {
    @Flag(name: .customLong("json"), help: "One JSON object on stdout instead of the table.")
    var isJSON = false
}
