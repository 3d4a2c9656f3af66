#if canImport(Glibc)
import Glibc
#endif

/// What a path names when it is not a regular file, in words for messages: readers take
/// recordings, logs and truth files only from regular files (and logs from pipes), and say what
/// they were given instead: `/dev/zero` "is a character device", not "an empty file".
public enum FileKind {
    /// `mode & S_IFMT` as words: "a folder", "a character device", "a block device", "a socket",
    /// "a pipe", "a symbolic link", or "a regular file".
    public static func describe(_ kind: mode_t) -> String {
        switch kind & S_IFMT {
        case S_IFDIR: return "a folder"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        case S_IFIFO: return "a pipe"
        case S_IFLNK: return "a symbolic link"
        case S_IFREG: return "a regular file"
        default: return "not a regular file"
        }
    }
}
