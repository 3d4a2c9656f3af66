/// A pipeline file (or the log header read as one) that cannot be used: which file, and why.
public struct PipelineFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The pipeline file as given.
    public var path: String
    /// What is wrong with it.
    public var problem: PipelineProblem

    public init(path: String, problem: PipelineProblem) {
        self.path = path
        self.problem = problem
    }

    public var description: String { "\(path): \(problem)" }
}
