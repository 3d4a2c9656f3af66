import Foundation
import LumaAnalysis
import LumaEngine

/// Analyzer setups from a pipeline file, `{"analyzers":[{"name":"differencing",…}]}`, or from the
/// header of an event log (its first line).
public enum PipelineFile {
    public static func read(_ path: String, registry: AnalyzerRegistry) throws -> [AnalyzerSetup] {
        guard let data = FileManager.default.contents(atPath: path) else { throw RegressionError.pipeline(path: path, reason: "cannot read the pipeline file") }
        let firstLine = data.split(separator: 10, maxSplits: 1).first.map(Array.init) ?? []
        let json: JSONValue
        if let header = try? JSONParser.parse(firstLine), header["format"]?.stringValue == EventLogHeader.format {
            json = header
        } else {
            do { json = try JSONParser.parse(Array(data)) } catch {
                throw RegressionError.pipeline(path: path, reason: "not valid JSON: \(error.description)")
            }
        }
        guard let list = json["analyzers"]?.arrayValue else {
            throw RegressionError.pipeline(path: path, reason: "a pipeline needs an \"analyzers\" array, e.g. {\"analyzers\":[{\"name\":\"differencing\"}]}")
        }
        return try list.map { item throws(OptionError) in try AnalyzerSetup.parse(item, registry: registry, source: path) }
    }
}
