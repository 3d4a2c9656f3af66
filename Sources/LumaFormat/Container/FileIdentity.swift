#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LumaBase

/// Which file a path names, after following symlinks: two paths with the same identity (a symlink,
/// a hard link, `./x` and `x`) are the same file.
struct FileIdentity: Equatable {
    var device: UInt64
    var inode: UInt64
    /// Permission bits.
    var mode: mode_t

    /// The identity of the file at `path`, or `nil` if there is none.
    static func of(_ path: String) -> FileIdentity? {
        guard let status = try? SystemPath.status(of: path) else { return nil }
        return FileIdentity(device: status.device, inode: status.inode, mode: status.permissions)
    }

    static func == (a: FileIdentity, b: FileIdentity) -> Bool { a.device == b.device && a.inode == b.inode }

    /// Whether anything (a file, or a symlink even if dangling) exists at `path`.
    static func exists(_ path: String) -> Bool { (try? SystemPath.linkStatus(of: path)) != nil }

    /// The path with every symlink resolved, so that replacing it replaces the file, not the link.
    static func resolved(_ path: String) -> String { (try? SystemPath.resolved(path)) ?? path }
}
