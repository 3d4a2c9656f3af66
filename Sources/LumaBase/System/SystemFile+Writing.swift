#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SystemFile {
    /// Writes all of `bytes` at the current position: short and interrupted writes are continued,
    /// so it returns only when every byte is written. Throws `.write` (`ENOSPC`: the disk is full).
    package func write(_ bytes: UnsafeRawBufferPointer) throws(SystemCallError) {
        guard let base = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            let n = Glibc.write(descriptor, base + done, bytes.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                throw SystemCallError(.write)
            }
            done += n
        }
    }

    /// Writes all of `bytes` (see ``write(_:)-(UnsafeRawBufferPointer)``).
    package func write(_ bytes: [UInt8]) throws(SystemCallError) {
        let result: Result<Void, SystemCallError> = bytes.withUnsafeBytes { raw in
            do throws(SystemCallError) { return .success(try write(raw)) } catch { return .failure(error) }
        }
        try result.get()
    }

    /// The current position (where the next write goes). Throws `.seek` (`ESPIPE` for a pipe).
    package func position() throws(SystemCallError) -> UInt64 {
        let at = lseek(descriptor, 0, SEEK_CUR)
        guard at >= 0 else { throw SystemCallError(.seek) }
        return UInt64(at)
    }

    /// Moves the position to `offset`. Throws `.seek`.
    package func seek(to offset: UInt64) throws(SystemCallError) {
        guard lseek(descriptor, off_t(offset), SEEK_SET) >= 0 else { throw SystemCallError(.seek) }
    }

    /// Cuts the file (or extends it with zeros) to `length` bytes; the position stays. Throws `.truncate`.
    package func truncate(to length: UInt64) throws(SystemCallError) {
        guard ftruncate(descriptor, off_t(length)) == 0 else { throw SystemCallError(.truncate) }
    }

    /// Makes what was written durable (`fsync`); for a folder, its entries (a rename into it).
    /// Throws `.sync()`.
    package func sync() throws(SystemCallError) {
        guard fsync(descriptor) == 0 else { throw SystemCallError(.sync()) }
    }

    /// Sets the permission bits (`0o644`). Throws `.setPermissions`.
    package func setPermissions(_ permissions: mode_t) throws(SystemCallError) {
        guard fchmod(descriptor, permissions) == 0 else { throw SystemCallError(.setPermissions) }
    }

    /// Takes the exclusive `flock` of the file if no one holds it: false when another open file
    /// description holds it (another process), at once, without waiting. The kernel drops the lock
    /// when the file is closed or the process dies. Throws `.lock()`.
    package func tryLock() throws(SystemCallError) -> Bool {
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return true }
        if errno == EWOULDBLOCK || errno == EINTR { return false }
        throw SystemCallError(.lock())
    }
}
