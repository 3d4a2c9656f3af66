#if canImport(Glibc)
import Glibc
#endif

/// Why a program could not be found, started or talked to. Typed, so a caller can tell a missing
/// tool (say how to install it) from a failed system call (which program, which call, which
/// `errno`), and tests can assert the exact failure.
public enum ProgramError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No folder of `PATH` holds the tool: the message says what it is needed for and how to
    /// install it.
    case toolMissing(Tool)
    /// A system call failed for `program` (the path it was started from): which call, and its `errno`.
    case systemCall(program: String, call: SystemCall, errno: Int32)

    /// The system calls a program's life goes through, as messages name them.
    public enum SystemCall: Equatable, Sendable, CustomStringConvertible {
        /// Starting it (`posix_spawn`, or `fork` for a program under a reaper).
        case spawn
        /// Making a pipe to or from it.
        case pipe
        /// Changing to the folder it is to run in.
        case changeFolder(String)
        case write
        case read
        /// Waiting for one of its pipes to be ready.
        case poll
        /// Waiting for it to end (`waitpid`).
        case wait

        public var description: String {
            switch self {
            case .spawn: "posix_spawn"
            case .pipe: "pipe"
            case .changeFolder: "chdir"
            case .write: "write"
            case .read: "read"
            case .poll: "poll"
            case .wait: "waitpid"
            }
        }
    }

    /// The `errno` of a failed system call, `nil` for a missing tool.
    public var errno: Int32? {
        guard case .systemCall(_, _, let errno) = self else { return nil }
        return errno
    }

    /// What the system said (`No such file or directory`) for a failed call; for a missing tool,
    /// the whole message.
    public var reason: String {
        switch self {
        case .toolMissing(let tool): tool.missingDescription
        case .systemCall(_, _, let errno): String(cString: strerror(errno))
        }
    }

    public var description: String {
        switch self {
        case .toolMissing(let tool):
            return tool.missingDescription
        case .systemCall(let program, let call, let errno):
            let what = String(cString: strerror(errno))
            switch call {
            case .spawn: return "cannot start \(program): \(what)"
            case .pipe: return "cannot make a pipe for \(program): \(what)"
            case .changeFolder(let folder): return "cannot start \(program) in \(folder): \(what)"
            case .write: return "cannot write to \(program): \(what)"
            case .read: return "cannot read from \(program): \(what)"
            case .poll: return "cannot wait for \(program)'s pipe: \(what)"
            case .wait: return "cannot wait for \(program) to end: \(what)"
            }
        }
    }
}
