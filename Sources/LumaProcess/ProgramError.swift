import LumaBase

/// Why a program could not be found, started or talked to. Typed, so a caller can tell a missing
/// tool (say how to install it) from a failed system call (which program, and the
/// `SystemCallError`: the call and its `errno`), and tests can assert the exact failure.
public enum ProgramError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No folder of `PATH` holds the tool: the message says what it is needed for and how to
    /// install it.
    case toolMissing(Tool)
    /// A system call failed for `program` (the path it was started from). The calls of a program's
    /// life: `spawn` (starting it: `posix_spawn`, or `fork` under a reaper), `pipe`,
    /// `changeFolder` (the folder it is to run in), `write` and `read()` (its pipes), `poll`
    /// (waiting for a pipe), `wait` (for its end).
    case systemCall(program: String, SystemCallError)

    /// The `errno` of a failed system call, `nil` for a missing tool.
    public var errno: Int32? {
        guard case .systemCall(_, let failure) = self else { return nil }
        return failure.errno
    }

    /// What the system said (`No such file or directory`) for a failed call; for a missing tool,
    /// the whole message.
    public var reason: String {
        switch self {
        case .toolMissing(let tool): tool.missingDescription
        case .systemCall(_, let failure): failure.errnoText
        }
    }

    public var description: String {
        switch self {
        case .toolMissing(let tool):
            return tool.missingDescription
        case .systemCall(let program, let failure):
            let what = failure.errnoText
            switch failure.call {
            case .spawn: return "cannot start \(program): \(what)"
            case .pipe: return "cannot make a pipe for \(program): \(what)"
            case .changeFolder(let folder): return "cannot start \(program) in \(folder): \(what)"
            case .write: return "cannot write to \(program): \(what)"
            case .read: return "cannot read from \(program): \(what)"
            case .poll: return "cannot wait for \(program)'s pipe: \(what)"
            case .wait: return "cannot wait for \(program) to end: \(what)"
            default: return "\(program): \(failure)"
            }
        }
    }
}
