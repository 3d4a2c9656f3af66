#if canImport(Glibc)
import Glibc
#endif
import LumaBase

/// What a path names when it is not a regular file, in words for messages: readers take
/// recordings, logs and truth files only from regular files (and logs from pipes), and say what
/// they were given instead: `/dev/zero` "is a character device", not "an empty file".
public enum FileKind {
    /// `mode & S_IFMT` as words: "a folder", "a character device", "a block device", "a socket",
    /// "a pipe", "a symbolic link", or "a regular file" (the words of the system layer's
    /// `FileStatus.Kind`).
    public static func describe(_ kind: mode_t) -> String {
        FileStatus.Kind(mode: kind).inWords
    }
}
