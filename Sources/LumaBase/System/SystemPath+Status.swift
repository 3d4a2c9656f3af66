#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SystemPath {
    /// What `path` names, following symbolic links (`stat`). Throws `.stat`: `ENOENT` when nothing
    /// is there (or a link points nowhere), `ELOOP` for a link loop, `EACCES` for a folder that
    /// may not be searched.
    package static func status(of path: String) throws(SystemCallError) -> FileStatus {
        var st = stat()
        guard stat(bytes(path), &st) == 0 else { throw SystemCallError(.stat) }
        return FileStatus(st)
    }

    /// What `path` itself is, a symbolic link not followed (`lstat`): whether anything, even a
    /// dangling link, is there. Throws `.stat`.
    package static func linkStatus(of path: String) throws(SystemCallError) -> FileStatus {
        var st = stat()
        guard lstat(bytes(path), &st) == 0 else { throw SystemCallError(.stat) }
        return FileStatus(st)
    }

    /// `path` absolute, with every symbolic link, `.` and `..` resolved (`realpath`): the name a
    /// rename must use to replace the file rather than the link. Throws `.resolve` (`ENOENT` when a
    /// part is missing).
    package static func resolved(_ path: String) throws(SystemCallError) -> String {
        guard let resolved = realpath(bytes(path), nil) else { throw SystemCallError(.resolve) }
        defer { free(resolved) }
        return string(fromBytes: resolved)
    }

    /// Whether `path` is a regular file (after symbolic links) this process may execute.
    package static func isExecutableFile(_ path: String) -> Bool {
        (try? status(of: path))?.kind == .regularFile && access(bytes(path), X_OK) == 0
    }
}
