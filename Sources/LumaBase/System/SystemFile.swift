#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open file, pipe or device: the one place a file descriptor is opened, read, written and
/// closed for the file system. Every failure throws a ``SystemCallError`` (the call and `errno`);
/// the caller adds the path in its own typed error (`LumaFormatError.io(path:_:)`, `OutputError.io`).
///
/// Owns its descriptor (closed at ``close()`` or when released) unless it ``borrowing(_:)``
/// someone else's (standard output, a program's pipe). Like a descriptor, it is used by one thread
/// at a time; it may be handed from thread to thread (a recording's writer thread).
///
/// ```swift
/// let file = try SystemFile.create(path, .exclusive)     // EEXIST if something is there
/// try file.write(bytes)                                  // all of them, or a SystemCallError
/// try file.sync()
/// ```
///
/// Reading and writing are in `SystemFile+Reading.swift` and `SystemFile+Writing.swift`.
package final class SystemFile: @unchecked Sendable {
    /// How an existing file is opened.
    package enum Access: Sendable {
        /// For reading. Opening a FIFO waits for its writer.
        case read
        /// For reading, without waiting for a FIFO's writer (the open is non-blocking, then reads
        /// block as usual): a reader that refuses anything but a regular file, or that polls.
        case readWithoutWaiting
        /// For writing what is there (a device, a FIFO), from the start, nothing truncated.
        case write
        /// For reading and writing at any offset (a recording being repaired).
        case update
        /// A folder, opened only to ``sync()`` its entries.
        case folder
    }

    /// How a file is created.
    package enum Creation: Sendable {
        /// A new file: an existing one is `EEXIST`, never touched.
        case exclusive
        /// A new file, or an existing one emptied.
        case truncating
        /// A new file, or the existing one as it is, for reading and writing (a lock file); a
        /// symbolic link there is not followed (`ELOOP`), so nothing is created through it.
        case keepingContents
    }

    /// The descriptor; -1 once closed. For handing to a program (its standard input).
    package private(set) var descriptor: Int32
    private let owns: Bool

    private init(descriptor: Int32, owns: Bool) {
        self.descriptor = descriptor
        self.owns = owns
    }

    deinit { close() }

    /// Uses a descriptor someone else opened and closes (0, 1, 2, a program's pipe).
    package static func borrowing(_ descriptor: Int32) -> SystemFile { SystemFile(descriptor: descriptor, owns: false) }

    /// Takes over a descriptor opened elsewhere: closed here, when released.
    package static func adopting(_ descriptor: Int32) -> SystemFile { SystemFile(descriptor: descriptor, owns: true) }

    /// Opens the existing file at `path` (``SystemPath`` bytes). Throws `.open` (`.openForWriting`
    /// for `write` and `update`).
    package static func open(_ path: String, for access: Access) throws(SystemCallError) -> SystemFile {
        let flags: Int32 = switch access {
        case .read: O_RDONLY
        case .readWithoutWaiting: O_RDONLY | O_NONBLOCK
        case .write: O_WRONLY
        case .update: O_RDWR
        case .folder: O_RDONLY | O_DIRECTORY
        }
        let fd = Glibc.open(SystemPath.bytes(path), flags | O_CLOEXEC)
        guard fd >= 0 else { throw SystemCallError(access == .write || access == .update ? .openForWriting : .open) }
        if access == .readWithoutWaiting { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) }
        return SystemFile(descriptor: fd, owns: true)
    }

    /// Creates the file at `path` for writing (``Creation/keepingContents``: reading and writing)
    /// with `permissions` (less the umask). Throws `.create()`; `EEXIST` for an existing file
    /// created ``Creation/exclusive``.
    package static func create(_ path: String, _ creation: Creation, permissions: mode_t = 0o644) throws(SystemCallError) -> SystemFile {
        let flags: Int32 = switch creation {
        case .exclusive: O_WRONLY | O_CREAT | O_EXCL
        case .truncating: O_WRONLY | O_CREAT | O_TRUNC
        case .keepingContents: O_RDWR | O_CREAT | O_NOFOLLOW
        }
        let fd = Glibc.open(SystemPath.bytes(path), flags | O_CLOEXEC, permissions)
        guard fd >= 0 else { throw SystemCallError(.create()) }
        return SystemFile(descriptor: fd, owns: true)
    }

    /// What the open file is (`fstat`): its kind, size and identity. Throws `.stat`.
    package func status() throws(SystemCallError) -> FileStatus {
        var st = stat()
        guard fstat(descriptor, &st) == 0 else { throw SystemCallError(.stat) }
        return FileStatus(st)
    }

    /// Closes an owned descriptor (a borrowed one is only let go). Safe to call more than once;
    /// nothing can be done with the file afterwards.
    package func close() {
        if owns && descriptor >= 0 { _ = Glibc.close(descriptor) }
        descriptor = -1
    }

    /// Hands the descriptor over to a caller that closes it itself (a `FileHandle`), and lets it go.
    package func takeDescriptor() -> Int32 {
        precondition(owns, "a borrowed descriptor is not ours to hand over")
        defer { descriptor = -1 }
        return descriptor
    }
}
