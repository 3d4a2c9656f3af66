import LumaEngine

extension ExternalAnalyzer {
    /// The shell command this configuration runs: a pipeline file or a log's header that names one
    /// runs it only with the user's permission for that run (`--allow-external`).
    public static func program(in configuration: ExternalConfiguration) -> String? { configuration.command }
}
