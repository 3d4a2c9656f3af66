/// A problem with a text file that a user can fix: the file, the 1-based line when the problem is
/// on one, and what is wrong, printed `path:line: reason` as compilers print theirs.
///
/// `Subject` tells the kinds of file apart, so each reader throws its own type
/// (`EventLogError`, `TruthError`) and `catch` can tell them apart, while the message has one form.
public struct FileProblem<Subject>: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String
    public var line: Int?
    public var reason: String

    public init(path: String, line: Int? = nil, reason: String) {
        self.path = path
        self.line = line
        self.reason = reason
    }

    public var description: String {
        if let line { return "\(path):\(line): \(reason)" }
        return "\(path): \(reason)"
    }
}
