#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LumaBase
import Synchronization

/// What is at a path right now, as far as writing a result there is concerned.
struct PathStatus: Equatable {
    enum Kind: Equatable {
        case missing
        /// Something is there: what `stat` (following links) says it is.
        case present(FileStatus.Kind)
        /// A symbolic link whose target does not exist.
        case danglingLink
        /// stat failed for another reason (permissions, a link loop): its `errno`.
        case unreadable(Int32)
    }

    var kind: Kind
    /// Device and inode (of the link's target): the same pair means the same file.
    var identity: (device: UInt64, inode: UInt64)?

    static func == (a: PathStatus, b: PathStatus) -> Bool {
        a.kind == b.kind && a.identity?.device == b.identity?.device && a.identity?.inode == b.identity?.inode
    }

    /// The status of `path`, following symbolic links.
    static func of(_ path: String) -> PathStatus {
        var attempts = 0
        while true {
            let status: FileStatus
            do throws(SystemCallError) { status = try SystemPath.status(of: path) } catch {
                guard error.errno == ENOENT else { return PathStatus(kind: .unreadable(error.errno), identity: nil) }
                guard let link = try? SystemPath.linkStatus(of: path) else { return PathStatus(kind: .missing, identity: nil) }
                if link.kind == .symbolicLink { return PathStatus(kind: .danglingLink, identity: nil) }
                // Not a link: the file appeared between the two calls (another writer). Look again.
                attempts += 1
                if attempts == 3 { return PathStatus(kind: .missing, identity: nil) }
                continue
            }
            return PathStatus(kind: .present(status.kind), identity: (status.device, status.inode))
        }
    }

    /// Whether `self` and `other` are the same existing file.
    func isSameFile(as other: PathStatus) -> Bool {
        guard let a = identity, let b = other.identity else { return false }
        return a.device == b.device && a.inode == b.inode
    }

    /// A device or FIFO: a stream that is written to, never replaced.
    var isStream: Bool { kind == .present(.characterDevice) || kind == .present(.fifo) }

    /// "a folder", "a character device", … for messages.
    var noun: String {
        switch kind {
        case .missing: return "missing"
        case .present(.regularFile): return "a file"
        case .present(.folder): return "a folder"
        case .present(.characterDevice): return "a character device"
        case .present(.blockDevice): return "a block device"
        case .present(.fifo): return "a FIFO"
        case .present(.socket): return "a socket"
        case .present(.symbolicLink): return "a symbolic link"
        case .danglingLink: return "a symbolic link to nothing"
        case .unreadable(let error): return "not readable (\(String(cString: strerror(error))))"
        }
    }
}

/// A path split into its folder and its last component, as `open` and `rename` see them.
struct PathParts {
    var folder: String
    var name: String

    init(_ path: String) {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        if let slash = trimmed.lastIndex(of: "/") {
            folder = slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
            name = String(trimmed[trimmed.index(after: slash)...])
        } else {
            folder = "."
            name = String(trimmed)
        }
    }

    /// A sibling of the path: `folder/.name<suffix>`, hidden from plain `ls`.
    func hiddenSibling(_ suffix: String) -> String {
        (folder == "/" ? "/" : folder + "/") + "." + name + suffix
    }
}

/// A name for a temporary sibling that no other process uses: pid plus a per-process counter.
enum TemporaryName {
    private static let counter = Mutex(0)

    static func next() -> String { "\(getpid())-\(counter.withLock { $0 += 1; return $0 })" }
}
