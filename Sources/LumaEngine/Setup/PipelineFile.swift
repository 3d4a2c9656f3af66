import Foundation
import LumaAnalysis
import LumaBase
import LumaFormat

/// Analyzer setups from a pipeline file, `{"analyzers":[{"name":"differencing",…}]}`, or from the
/// header of an event log (its first line).
public enum PipelineFile {
    /// The most a pipeline file may hold, or the first line of a log read as one: the longest line
    /// a log may have (`EventLog/maximumLineBytes`), so a pipeline is held to what `verify` and
    /// `play` hold the same file to. Only this much (and one byte) is ever read.
    public static let maximumBytes = EventLog.maximumLineBytes

    /// Reads the analyzers of a pipeline file (or a log's header). Entries for which `validating`
    /// says false are read but not yet checked: the caller applies `--set` values to them first.
    public static func read(_ path: String, registry: AnalyzerRegistry,
                            validating: (String) -> Bool = { _ in true }) throws -> [AnalyzerSetup] {
        let (data, cut) = try head(of: path)
        let firstLine = data.split(separator: 10, maxSplits: 1, omittingEmptySubsequences: false).first.map(Array.init) ?? []
        let json: JSONValue
        if firstLine.count < data.count || !cut, let header = try? JSONParser.parse(firstLine),
           header["format"]?.stringValue == EventLogHeader.format {
            json = header
        } else {
            guard !cut else {
                throw PipelineFileError(path: path, problem: .tooLarge(limitMiB: maximumBytes >> 20))
            }
            do { json = try JSONParser.parse(data) } catch {
                throw PipelineFileError(path: path, problem: .notJSON(error))
            }
        }
        guard let list = json["analyzers"]?.arrayValue else {
            throw PipelineFileError(path: path, problem: .noAnalyzers)
        }
        try AnalyzerSetup.checkInstanceCount(list.count, in: path)
        return try list.map { item throws(OptionError) in
            try AnalyzerSetup.parse(item, registry: registry, source: path, validating: validating(item["name"]?.stringValue ?? ""))
        }
    }

    /// The first ``maximumBytes`` of the file (a regular file or a pipe), and whether it holds more.
    private static func head(of path: String) throws(PipelineFileError) -> (bytes: [UInt8], cut: Bool) {
        let file: SystemFile
        do throws(SystemFile.OpenProblem) { file = try SystemFile.openFile(path, acceptingPipes: true).file } catch {
            switch error {
            case .unreadable(let failure): throw PipelineFileError(path: path, problem: .unreadable(failure))
            case .notAFile(let kind): throw PipelineFileError(path: path, problem: .notAFile(kind: kind.inWords))
            }
        }
        let bytes: [UInt8]
        do throws(SystemCallError) { bytes = try file.read(upTo: maximumBytes + 1) } catch {
            throw PipelineFileError(path: path, problem: .unreadable(error))
        }
        return (Array(bytes.prefix(maximumBytes)), bytes.count > maximumBytes)
    }
}
