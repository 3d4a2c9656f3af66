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

        /// The kind `st_mode`'s type bits say.
        package init(mode: mode_t) {
            switch mode & S_IFMT {
            case S_IFREG: self = .regularFile
            case S_IFDIR: self = .folder
            case S_IFCHR: self = .characterDevice
            case S_IFBLK: self = .blockDevice
            case S_IFIFO: self = .fifo
            case S_IFLNK: self = .symbolicLink
            default: self = .socket
            }
        }

        /// For messages: "a regular file", "a folder", "a character device", "a block device",
        /// "a pipe", "a socket", "a symbolic link".
        package var inWords: String {
            switch self {
            case .regularFile: return "a regular file"
            case .folder: return "a folder"
            case .characterDevice: return "a character device"
            case .blockDevice: return "a block device"
            case .fifo: return "a pipe"
            case .socket: return "a socket"
            case .symbolicLink: return "a symbolic link"
            }
        }
    }

    /// The type and permission bits, as `st_mode` holds them (``kind`` names the type, `Kind.inWords` words it).
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

    package var kind: Kind { Kind(mode: mode) }

    /// The permission bits (`0o644`), which a file rewritten in place keeps.
    package var permissions: mode_t { mode & 0o7777 }

    /// Whether `self` and `other` are of the same file (a hard link, a symlink's target, `./x` and `x`).
    package func isSameFile(as other: FileStatus) -> Bool { device == other.device && inode == other.inode }
}
