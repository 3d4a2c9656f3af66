#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which file a path names, after following symlinks: two paths with the same identity (a symlink,
/// a hard link, `./x` and `x`) are the same file.
struct FileIdentity: Equatable {
    var device: UInt64
    var inode: UInt64
    /// Permission bits.
    var mode: mode_t

    /// The identity of the file at `path`, or `nil` if there is none.
    static func of(_ path: String) -> FileIdentity? {
        var st = stat()
        guard stat(SystemPath.bytes(path), &st) == 0 else { return nil }
        return FileIdentity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino), mode: st.st_mode & 0o7777)
    }

    static func == (a: FileIdentity, b: FileIdentity) -> Bool { a.device == b.device && a.inode == b.inode }

    /// Whether anything (a file, or a symlink even if dangling) exists at `path`.
    static func exists(_ path: String) -> Bool {
        var st = stat()
        return lstat(SystemPath.bytes(path), &st) == 0
    }

    /// The path with every symlink resolved, so that replacing it replaces the file, not the link.
    static func resolved(_ path: String) -> String {
        guard let p = realpath(SystemPath.bytes(path), nil) else { return path }
        defer { free(p) }
        return SystemPath.string(fromBytes: p)
    }
}
