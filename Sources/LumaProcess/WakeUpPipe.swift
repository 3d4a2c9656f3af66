import CSystemCalls
#if canImport(Glibc)
import Glibc
#endif

/// A pipe by which a signal handler wakes a thread: the handler writes a byte (`write` is one of
/// the few calls a handler may make), the thread blocks reading it and does the work a handler
/// must not (locks, allocation, stopping programs). The external analyzer's Ctrl-C handling wakes
/// its watcher thread this way.
///
/// ```swift
/// guard let pipe = WakeUpPipe() else { return }         // no pipe: keep the default handling
/// wakeEnd.store(pipe.writeEnd, ordering: .sequentiallyConsistent)
/// // in the handler:  WakeUpPipe.wake(wakeEnd.load(ordering: .sequentiallyConsistent), with: UInt8(sig))
/// // on the thread:   while let byte = pipe.nextByte() { … }
/// ```
public struct WakeUpPipe: Sendable {
    /// The end the waiting thread reads.
    public let readEnd: Int32
    /// The end the handler writes: kept in an atomic the handler can load.
    public let writeEnd: Int32

    /// A new pipe, both ends closed on exec (no program started meanwhile inherits them); `nil`
    /// when none can be made (out of descriptors). Its ends stay open for the life of the process.
    public init?() {
        var ends: [Int32] = [-1, -1]
        guard lumatrace_pipe(&ends) == 0 else { return nil }
        (readEnd, writeEnd) = (ends[0], ends[1])
    }

    /// Writes `byte` to the write end. Async-signal-safe: one `write`, no allocation, no lock;
    /// a full pipe drops the byte (the thread has wake-ups enough to read).
    public static func wake(_ writeEnd: Int32, with byte: UInt8) {
        var byte = byte
        _ = write(writeEnd, &byte, 1)
    }

    /// Waits for the next byte a handler wrote; `nil` if the pipe fails.
    public func nextByte() -> UInt8? {
        var byte: UInt8 = 0
        while true {
            let n = read(readEnd, &byte, 1)
            if n == 1 { return byte }
            if n < 0 && errno == EINTR { continue }
            return nil
        }
    }
}
