/// A file (a pipeline file, a log's header) lists more analyzer instances than one replay runs
/// (``AnalyzerSetup/instanceLimit``): each holds frame-sized buffers, so thousands would take the
/// machine's memory before the first frame.
public struct InstanceLimitError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var count: Int
    public var limit: Int

    public var description: String { "\(file): names \(InstanceLimitError.words(count, limit: limit))" }

    /// `N analyzer instances, more than the limit …`: the words both refusals share.
    static func words(_ count: Int, limit: Int = AnalyzerSetup.instanceLimit) -> String {
        "\(count) analyzer instances, more than the limit of \(limit) (each holds frame-sized buffers; "
            + "set \(AnalyzerSetup.instanceLimitVariable)=N, up to 100000, to allow more)"
    }
}
