#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SystemFile {
    /// Reads what is there now, up to `buffer.count` bytes, at the current position: how many were
    /// read, 0 at the end. Interrupted reads are retried. Throws `.read()`.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return 0 }
        while true {
            let n = Glibc.read(descriptor, base, buffer.count)
            if n >= 0 { return n }
            if errno != EINTR { throw SystemCallError(.read()) }
        }
    }

    /// Reads what is there now into `bytes[start...]` (see ``read(into:)-(UnsafeMutableRawBufferPointer)``):
    /// how many bytes were read, 0 at the end. Throws `.read()`.
    package func read(into bytes: inout [UInt8], from start: Int = 0) throws(SystemCallError) -> Int {
        let result: Result<Int, SystemCallError> = bytes.withUnsafeMutableBytes { raw in
            do throws(SystemCallError) { return .success(try read(into: UnsafeMutableRawBufferPointer(rebasing: raw[start...]))) } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Reads until `count` bytes are read or the file ends: fewer than `count` only at the end.
    /// Throws `.read()`.
    package func read(upTo count: Int) throws(SystemCallError) -> [UInt8] {
        var bytes: [UInt8] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: min(count, 1 << 16), alignment: 1)
        defer { chunk.deallocate() }
        while bytes.count < count {
            let n = try read(into: UnsafeMutableRawBufferPointer(rebasing: chunk[..<min(chunk.count, count - bytes.count)]))
            if n == 0 { break }
            bytes += chunk[..<n]
        }
        return bytes
    }

    /// Fills `buffer` from byte `offset` of the file (`pread`, the position untouched), as many
    /// reads as it takes: how many bytes were read, fewer than `buffer.count` only where the file
    /// ends. The caller says what a file too short means (``SystemCallError`` has no `errno` for
    /// it). Throws `.read(at: offset)`.
    package func read(at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        var done = 0
        while done < buffer.count {
            let n = pread(descriptor, base + done, buffer.count - done, off_t(offset) + off_t(done))
            if n < 0 {
                if errno == EINTR { continue }
                throw SystemCallError(.read(at: offset))
            }
            if n == 0 { break }
            done += n
        }
        return done
    }

    /// Waits at most `milliseconds` for something to read (or the end, or an error, which the next
    /// read reports): false when the time passed or a signal came first, so a caller that waits
    /// in slices can check its stop flag between them.
    package func waitUntilReadable(milliseconds: Int32) -> Bool {
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&request, 1, milliseconds)
        return ready > 0 || (ready < 0 && errno != EINTR)
    }
}
