#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file written under a unique temporary name in its destination's folder and moved into place
/// only once it is complete and synced, so a crash, a full disk or a failed check never leaves a
/// half-written destination, and never replaces a good file with a worse one.
///
/// Call ``commit(overwrite:)`` to move it into place; a replacement that is dropped without being
/// committed deletes its temporary file.
final class ReplacementFile {
    let destination: String
    let temporaryPath: String
    let handle: FileHandleIO
    private var done = false

    /// Creates the temporary file next to `destination`, with permissions `mode`.
    init(for destination: String, mode: mode_t = 0o644) throws(LumaFormatError) {
        self.destination = destination
        (temporaryPath, handle) = try Self.createTemporary(next: destination)
        _ = fchmod(handle.fd, mode)
    }

    /// A new file named `.NAME.PID-RANDOM.partial` in the folder of `destination`.
    private static func createTemporary(next destination: String) throws(LumaFormatError) -> (String, FileHandleIO) {
        let slash = destination.lastIndex(of: "/")
        let folder = slash.map { String(destination[...$0]) } ?? ""
        let name = slash.map { String(destination[destination.index(after: $0)...]) } ?? destination
        var attempt = 0
        while true {
            let candidate = folder + ".\(name).\(getpid())-\(UInt32.random(in: 0...UInt32.max)).partial"
            do {
                return (candidate, try FileHandleIO.create(candidate, exclusive: true))
            } catch {
                guard case .outputExists = error, attempt < 8 else { throw error }
                attempt += 1
            }
        }
    }

    deinit { if !done { unlink(temporaryPath) } }

    /// Syncs the file and moves it to its destination. Without `overwrite`, an existing destination
    /// (even one created meanwhile) is an error and stays as it is.
    func commit(overwrite: Bool) throws(LumaFormatError) {
        try handle.sync()
        if overwrite {
            guard rename(temporaryPath, destination) == 0 else {
                throw LumaFormatError.io(path: destination, reason: "cannot replace: \(FileHandleIO.errnoText())")
            }
        } else {
            // link() refuses an existing name, where rename() would silently replace it.
            guard link(temporaryPath, destination) == 0 else {
                if errno == EEXIST { throw LumaFormatError.outputExists(path: destination) }
                throw LumaFormatError.io(path: destination, reason: "cannot create: \(FileHandleIO.errnoText())")
            }
            unlink(temporaryPath)
        }
        done = true
        // The rename is durable only once the folder itself is synced.
        let slash = destination.lastIndex(of: "/")
        let folder = slash.map { String(destination[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 {
            _ = fsync(fd)
            close(fd)
        }
    }
}

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
        guard stat(path, &st) == 0 else { return nil }
        return FileIdentity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino), mode: st.st_mode & 0o7777)
    }

    static func == (a: FileIdentity, b: FileIdentity) -> Bool { a.device == b.device && a.inode == b.inode }

    /// Whether anything (a file, or a symlink even if dangling) exists at `path`.
    static func exists(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0
    }

    /// The path with every symlink resolved, so that replacing it replaces the file, not the link.
    static func resolved(_ path: String) -> String {
        guard let p = realpath(path, nil) else { return path }
        defer { free(p) }
        return String(cString: p)
    }
}
