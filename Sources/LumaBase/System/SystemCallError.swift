#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A call to the operating system that failed: what was asked, and the `errno` it answered. The
/// path (or the program) is held by the error that carries this one.
///
/// Every system call Lumatrace makes goes through one layer (`SystemFile`, the `SystemPath`
/// operations, and LumaProcess for programs), and every failure there is one of these: typed, so
/// a test can expect `SystemCallError(.open, errno: ENOENT)` and a caller can switch on the
/// `errno`, while a user reads `cannot open: No such file or directory`.
public struct SystemCallError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was asked, in the words of the step that needed it.
    public enum Call: Equatable, Sendable, CustomStringConvertible {
        // MARK: Files
        case open
        case openForWriting
        /// Create the file itself, or (`temporary`) the file a result is written into first.
        case create(temporary: String? = nil)
        /// Look at what a path names (`stat`).
        case stat
        /// Read, at a byte offset where the read was positioned.
        case read(at: UInt64? = nil)
        case write
        case seek
        case truncate
        /// Flush to disk the file itself, or the named member of a folder.
        case sync(member: String? = nil)
        /// Flush to disk a result before it is moved into place.
        case syncResult
        case setPermissions
        /// Create the lock file of an output (named), or a lock file.
        case createLock(String)
        /// Take the lock of an output (its lock file, named), or a lock.
        case lock(String? = nil)
        /// Wait until a file or pipe has something to read (`poll`).
        case poll

        // MARK: Paths
        case makeFolder
        /// Put a file under its final name (`rename`, or `link` where nothing may be replaced).
        case moveIntoPlace
        case moveAside
        case remove
        case removeFolder
        case list
        /// Resolve a path's symbolic links (`realpath`).
        case resolve

        // MARK: Programs (LumaProcess)
        /// Start a program (`posix_spawn`, or `fork` for a program under a reaper).
        case spawn
        /// Make a pipe to or from a program.
        case pipe
        /// Change to the folder a program is to run in.
        case changeFolder(String)
        /// Wait for a program to end (`waitpid`).
        case wait

        public var description: String {
            switch self {
            case .open: return "cannot open"
            case .openForWriting: return "cannot open for writing"
            case .create(nil): return "cannot create"
            case .create(let temporary?): return "cannot create \(temporary)"
            case .stat: return "cannot stat"
            case .read(nil): return "read failed"
            case .read(let offset?): return "read failed at byte \(offset)"
            case .write: return "write failed"
            case .seek: return "cannot seek"
            case .truncate: return "cannot truncate"
            case .sync(nil): return "cannot sync to disk"
            case .sync(let member?): return "cannot sync \(member) to disk"
            case .syncResult: return "cannot sync the result to disk"
            case .setPermissions: return "cannot set the permissions"
            case .createLock(let lock): return "cannot create the lock \(lock)"
            case .lock(nil): return "cannot lock"
            case .lock(let lock?): return "cannot lock \(lock)"
            case .poll: return "cannot wait for input"
            case .makeFolder: return "cannot make the folder"
            case .moveIntoPlace: return "cannot move the result into place"
            case .moveAside: return "cannot move the old folder aside"
            case .remove: return "cannot remove"
            case .removeFolder: return "cannot remove the folder"
            case .list: return "cannot list"
            case .resolve: return "cannot resolve the path"
            case .spawn: return "cannot start"
            case .pipe: return "cannot make a pipe"
            case .changeFolder(let folder): return "cannot change to the folder \(folder)"
            case .wait: return "cannot wait for the program to end"
            }
        }
    }

    public var call: Call
    /// The system's error number (`ENOENT`, `ENOSPC`, …).
    public var errno: Int32

    /// The failed `call`, with the `errno` the system left (read it before any other call).
    public init(_ call: Call, errno: Int32 = Glibc.errno) {
        self.call = call
        self.errno = errno
    }

    /// The same failure, named as the step of the caller that it failed: the layer says
    /// `makeFolder`, the output being written says `create(temporary:)`.
    public func named(_ call: Call) -> SystemCallError { SystemCallError(call, errno: errno) }

    /// The system's words for ``errno``.
    public var errnoText: String { String(cString: strerror(errno)) }

    public var description: String { "\(call): \(errnoText)" }
}
