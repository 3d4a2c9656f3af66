#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A call to the operating system that failed: what was asked of the file, and the `errno` it
/// answered. The path is held by the error that carries this one.
public struct SystemCallError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was asked.
    public enum Call: Equatable, Sendable, CustomStringConvertible {
        case open
        case openForWriting
        /// Create the file itself, or (`temporary`) the file a result is written into first.
        case create(temporary: String? = nil)
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
        case moveIntoPlace
        case moveAside
        case createLock(String)
        case lock(String)
        case list

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
            case .moveIntoPlace: return "cannot move the result into place"
            case .moveAside: return "cannot move the old folder aside"
            case .createLock(let lock): return "cannot create the lock \(lock)"
            case .lock(let lock): return "cannot lock \(lock)"
            case .list: return "cannot list"
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

    /// The system's words for ``errno``.
    public var errnoText: String { String(cString: strerror(errno)) }

    public var description: String { "\(call): \(errnoText)" }
}
