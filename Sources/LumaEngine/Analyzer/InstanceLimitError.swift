import LumaAnalysis

/// A file (a pipeline file, a log's header) lists more analyzer instances than one replay runs
/// (``AnalyzerSetup/instanceLimit``): each holds frame-sized buffers, so thousands would take the
/// machine's memory before the first frame.
public struct InstanceLimitError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var count: Int
    public var limit: Int

    public var description: String {
        "\(file): names " + OptionProblem.instanceCount(count, limit: limit, variable: AnalyzerSetup.instanceLimitVariable)
    }
}
