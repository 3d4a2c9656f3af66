import Foundation
import LumaAnalysis

extension ExternalAnalyzer {
    /// The shell command this configuration runs: a pipeline file or a log's header that names one
    /// runs it only with the user's permission for that run (`--allow-external`).
    public static func program(in configuration: ExternalConfiguration) -> String? { configuration.command }

    /// `folder` is relative to the configuration's file.
    public static var pathOptions: [String] { ["folder"] }

    /// The folder the program runs in: `folder` resolved against the configuration's folder.
    static func workingFolder(_ configuration: ExternalConfiguration, context: AnalyzerContext) -> String {
        if configuration.folder.hasPrefix("/") { return configuration.folder }
        let base = context.configurationFolder ?? FileManager.default.currentDirectoryPath
        return URL(fileURLWithPath: base).appendingPathComponent(configuration.folder).standardized.path
    }
}
