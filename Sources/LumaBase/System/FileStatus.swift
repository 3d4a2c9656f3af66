#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `stat` says of a file: what it is, how large, and which file it is. Read from a path
/// (``SystemPath/status(of:)``, ``SystemPath/linkStatus(of:)``) or an open file
/// (``SystemFile/status()``).
package struct FileStatus: Equatable, Sendable {
    /// What a path names.
    package enum Kind: Equatable, Sendable {
        case regularFile
        case folder
        case characterDevice
        case blockDevice
        case fifo
        case socket
        /// Only from ``SystemPath/linkStatus(of:)``, which does not follow links.
        case symbolicLink
    }

    /// The type and permission bits, as `st_mode` holds them (`FileKind.describe` words them).
    package var mode: mode_t
    /// Bytes, for a regular file (a device says 0).
    package var size: UInt64
    /// Device and inode: two statuses with the same pair are of the same file.
    package var device: UInt64
    package var inode: UInt64

    package init(_ st: stat) {
        mode = st.st_mode
        size = UInt64(max(0, st.st_size))
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
    }

    package var kind: Kind {
        switch mode & S_IFMT {
        case S_IFREG: return .regularFile
        case S_IFDIR: return .folder
        case S_IFCHR: return .characterDevice
        case S_IFBLK: return .blockDevice
        case S_IFIFO: return .fifo
        case S_IFLNK: return .symbolicLink
        default: return .socket
        }
    }

    /// The permission bits (`0o644`), which a file rewritten in place keeps.
    package var permissions: mode_t { mode & 0o7777 }

    /// Whether `self` and `other` are of the same file (a hard link, a symlink's target, `./x` and `x`).
    package func isSameFile(as other: FileStatus) -> Bool { device == other.device && inode == other.inode }
}
