import Glibc

/// Where the fuzzer's input goes for readers that take a path: one fixed file per fuzzer process,
/// in memory (/dev/shm), named with `suffix` (e.g. "luma").
public func fuzzInputPath(_ suffix: String) -> String { "/dev/shm/lumatrace-fuzz-\(getpid()).\(suffix)" }

/// Writes the fuzzer's bytes to `path`, replacing what was there. A failure here is the harness's,
/// not the reader's, so it stops the run.
public func writeFuzzInput(_ start: UnsafeRawPointer, _ count: Int, to path: String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { fatalError("cannot create \(path): \(String(cString: strerror(errno)))") }
    var done = 0
    while done < count {
        let n = Glibc.write(fd, start + done, count - done)
        guard n > 0 else { fatalError("cannot write \(path): \(String(cString: strerror(errno)))") }
        done += n
    }
    close(fd)
}
