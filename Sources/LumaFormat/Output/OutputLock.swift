#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LumaBase

/// An exclusive claim on an output path, held while a result is written there, so two lumatrace
/// processes never write the same output at once (the second is refused at once, naming it).
///
/// The claim is an `flock` on a hidden sibling, `.NAME.lock`. The kernel drops it when the process
/// dies, so a killed writer never leaves a stale claim; the holder removes the file when it is done.
/// A waiter that locked a file the holder has just removed notices (the path no longer names the
/// file it locked) and tries again, so two holders can never coexist.
final class OutputLock {
    let path: String
    private var fd: Int32

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    deinit { release() }

    /// Claims `output`, or throws ``OutputError/busy(path:)`` if another process holds it.
    static func claim(_ output: String) throws(OutputError) -> OutputLock {
        let lockPath = PathParts(output).hiddenSibling(".lock")
        for _ in 0..<100 {
            let fd = open(SystemPath.bytes(lockPath), O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw OutputError.io(path: output, SystemCallError(.createLock(lockPath))) }
            if flock(fd, LOCK_EX | LOCK_NB) != 0 {
                let error = errno
                close(fd)
                if error == EWOULDBLOCK || error == EINTR { throw OutputError.busy(path: output) }
                throw OutputError.io(path: output, SystemCallError(.lock(lockPath), errno: error))
            }
            var held = stat(), named = stat()
            if fstat(fd, &held) == 0, stat(SystemPath.bytes(lockPath), &named) == 0, held.st_ino == named.st_ino, held.st_dev == named.st_dev {
                return OutputLock(path: lockPath, fd: fd)
            }
            close(fd)  // the holder removed it between our open and our lock: take the new one
        }
        throw OutputError.busy(path: output)
    }

    /// Removes the lock file and drops the claim (idempotent).
    func release() {
        guard fd >= 0 else { return }
        unlink(SystemPath.bytes(path))
        close(fd)
        fd = -1
    }
}
