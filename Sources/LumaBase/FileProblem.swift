/// A problem with a text file that a user can fix: the file, the 1-based line when the problem is
/// on one, and what is wrong, printed `path:line: reason` as compilers print theirs.
///
/// `Problem` is the typed account of what is wrong, one per kind of file (an event log's
/// `EventLogProblem`, a truth file's `TruthProblem`), so `catch` tells the kinds apart and a test
/// or a tool reads the data (the frame, the limit, the value found) instead of a sentence, while
/// the message has one form.
public struct FileProblem<Problem: Equatable & Sendable & CustomStringConvertible>: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String
    public var line: Int?
    public var problem: Problem

    public init(path: String, line: Int? = nil, _ problem: Problem) {
        self.path = path
        self.line = line
        self.problem = problem
    }

    /// What is wrong, in words.
    public var reason: String { problem.description }

    public var description: String {
        if let line { return "\(path):\(line): \(reason)" }
        return "\(path): \(reason)"
    }
}
