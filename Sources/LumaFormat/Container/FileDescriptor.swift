#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LumaBase

/// A POSIX file descriptor with the few calls the format needs: positioned reads for random
/// access, and whole writes for the append-only writer. Errors carry the path and `errno` text.
final class FileHandleIO: @unchecked Sendable {
    let path: String
    let fd: Int32

    private let ownsDescriptor: Bool

    private init(path: String, fd: Int32, ownsDescriptor: Bool = true) {
        self.path = path
        self.fd = fd
        self.ownsDescriptor = ownsDescriptor
    }

    deinit { if ownsDescriptor { close(fd) } }

    /// Writes through a descriptor someone else opened and closes (an ``OutputFile``'s).
    static func borrowing(_ output: OutputFile) -> FileHandleIO {
        FileHandleIO(path: output.path, fd: output.fileDescriptor, ownsDescriptor: false)
    }

    static func openForReading(_ path: String) throws(LumaFormatError) -> FileHandleIO {
        // Non-blocking, so that opening a FIFO with no writer returns at once (a blocking open
        // waits for a writer forever); reads of a regular file never block either way.
        let fd = open(SystemPath.bytes(path), O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw LumaFormatError.io(path: path, SystemCallError(.open)) }
        // Recordings are read at offsets: only a regular file will do. A device such as /dev/zero
        // or a pipe is named for what it is, not reported as an empty file or waited on.
        var st = stat()
        if fstat(fd, &st) == 0, (st.st_mode & S_IFMT) != S_IFREG {
            close(fd)
            throw LumaFormatError.notARegularFile(path: path, kind: FileKind.describe(st.st_mode))
        }
        return FileHandleIO(path: path, fd: fd)
    }

    /// Opens a file for writing. With `exclusive`, an existing file is an error instead of being replaced.
    static func create(_ path: String, exclusive: Bool) throws(LumaFormatError) -> FileHandleIO {
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (exclusive ? O_EXCL : O_TRUNC)
        let fd = open(SystemPath.bytes(path), flags, 0o644)
        guard fd >= 0 else {
            let failure = SystemCallError(.create())
            if failure.errno == EEXIST { throw LumaFormatError.outputExists(path: path) }
            throw LumaFormatError.io(path: path, failure)
        }
        return FileHandleIO(path: path, fd: fd)
    }

    static func openForUpdate(_ path: String) throws(LumaFormatError) -> FileHandleIO {
        let fd = open(SystemPath.bytes(path), O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw LumaFormatError.io(path: path, SystemCallError(.openForWriting)) }
        return FileHandleIO(path: path, fd: fd)
    }

    func size() throws(LumaFormatError) -> UInt64 {
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw LumaFormatError.io(path: path, SystemCallError(.stat)) }
        return UInt64(st.st_size)
    }

    /// Reads exactly `count` bytes at `offset` into `buffer`; fewer available is an error.
    func read(at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) throws(LumaFormatError) {
        var done = 0
        while done < buffer.count {
            let n = pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
            if n < 0 {
                if errno == EINTR { continue }
                throw LumaFormatError.io(path: path, SystemCallError(.read(at: offset)))
            }
            if n == 0 {
                throw LumaFormatError.fileEnds(path: path, at: offset + UInt64(done), needed: buffer.count, from: offset)
            }
            done += n
        }
    }

    func read(at offset: UInt64, count: Int) throws(LumaFormatError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        if count == 0 { return bytes }
        var failure: LumaFormatError?
        bytes.withUnsafeMutableBytes { buffer in
            do throws(LumaFormatError) { try read(at: offset, into: buffer) } catch { failure = error }
        }
        if let failure { throw failure }
        return bytes
    }

    /// Writes all of `bytes` at the current position.
    func write(_ bytes: UnsafeRawBufferPointer) throws(LumaFormatError) {
        var done = 0
        while done < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                throw LumaFormatError.io(path: path, SystemCallError(.write))
            }
            done += n
        }
    }

    func write(_ bytes: [UInt8]) throws(LumaFormatError) {
        var failure: LumaFormatError?
        bytes.withUnsafeBytes { raw in
            do throws(LumaFormatError) { try write(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    func seek(to offset: UInt64) throws(LumaFormatError) {
        guard lseek(fd, off_t(offset), SEEK_SET) >= 0 else {
            throw LumaFormatError.io(path: path, SystemCallError(.seek))
        }
    }

    func truncate(to length: UInt64) throws(LumaFormatError) {
        guard ftruncate(fd, off_t(length)) == 0 else {
            throw LumaFormatError.io(path: path, SystemCallError(.truncate))
        }
    }

    func sync() throws(LumaFormatError) {
        guard fsync(fd) == 0 else { throw LumaFormatError.io(path: path, SystemCallError(.sync())) }
    }
}
