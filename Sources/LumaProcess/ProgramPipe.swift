import LumaBase
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Lumatrace's end of a pipe to or from a program: the write end of its standard input, or the
/// read end of its standard output or error. Closed when released, if not before.
///
/// Blocking by default; ``setNonBlocking()`` makes reads and writes return at once, for a caller
/// that waits with deadlines of its own (``waitUntilReady(milliseconds:)``). One reader or writer
/// at a time; close it only when no read or write is under way (a descriptor number closed under a
/// blocked call may be reused).
public final class ProgramPipe: Sendable {
    /// The descriptor, to hand to a reader of descriptors (`ByteStream`) or to `poll`.
    public let fileDescriptor: Int32
    /// The program's path, as errors name it.
    public let program: String
    /// Whether Lumatrace writes (the program's standard input) or reads.
    public let toProgram: Bool
    private let closed = Atomic<Bool>(false)

    init(fileDescriptor: Int32, program: String, toProgram: Bool) {
        self.fileDescriptor = fileDescriptor
        self.program = program
        self.toProgram = toProgram
    }

    deinit { close() }

    /// Closes Lumatrace's end: for standard input, the program reads the end of its input. Safe to
    /// call more than once.
    public func close() {
        guard closed.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged else { return }
        _ = Glibc.close(fileDescriptor)
    }

    public var isClosed: Bool { closed.load(ordering: .sequentiallyConsistent) }

    /// Makes reads and writes return at once instead of waiting for the program.
    public func setNonBlocking() {
        _ = fcntl(fileDescriptor, F_SETFL, fcntl(fileDescriptor, F_GETFL) | O_NONBLOCK)
    }

    // MARK: - Writing

    /// Writes what the pipe takes now of `bytes` (all of it, blocking, unless non-blocking) and
    /// returns how much that was: 0 when a non-blocking pipe is full. Throws with `EPIPE` when the
    /// program no longer reads its input (it exited, or closed it).
    public func write(_ bytes: UnsafeRawBufferPointer) throws(ProgramError) -> Int {
        guard !bytes.isEmpty else { return 0 }
        while true {
            let written = Glibc.write(fileDescriptor, bytes.baseAddress, bytes.count)
            if written >= 0 { return written }
            switch errno {
            case EINTR: continue
            case EAGAIN: return 0
            case let error: throw .systemCall(program: program, SystemCallError(.write, errno: error))
            }
        }
    }

    /// Writes all of `bytes`, waiting for the program to take them.
    public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(ProgramError) {
        var offset = 0
        while offset < bytes.count {
            let written = try write(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
            if written == 0 { _ = try waitUntilReady(milliseconds: -1) }
            offset += written
        }
    }

    /// Writes all of `bytes`, waiting for the program to take them.
    public func writeAll(_ bytes: [UInt8]) throws(ProgramError) {
        let result: Result<Void, ProgramError> = bytes.withUnsafeBytes { raw in
            do throws(ProgramError) { return .success(try writeAll(raw)) } catch { return .failure(error) }
        }
        try result.get()
    }

    /// Writes what the pipe takes now of `bytes[offset...]`: how much that was, as the write of a buffer says.
    public func write(_ bytes: [UInt8], from offset: Int) throws(ProgramError) -> Int {
        let result: Result<Int, ProgramError> = bytes.withUnsafeBytes { raw in
            do throws(ProgramError) { return .success(try write(UnsafeRawBufferPointer(rebasing: raw[offset...]))) } catch { return .failure(error) }
        }
        return try result.get()
    }

    // MARK: - Reading

    /// Reads what the program has written, up to `buffer.count` bytes: how many were read, 0 at the
    /// end (the program closed its end, or exited), `nil` when a non-blocking pipe has nothing yet.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(ProgramError) -> Int? {
        while true {
            let count = Glibc.read(fileDescriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            switch errno {
            case EINTR: continue
            case EAGAIN: return nil
            case let error: throw .systemCall(program: program, SystemCallError(.read(), errno: error))
            }
        }
    }

    /// Everything the program writes until it closes its end or exits.
    public func readToEnd() throws(ProgramError) -> [UInt8] {
        var all: [UInt8] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
        defer { chunk.deallocate() }
        while true {
            switch try read(into: chunk) {
            case 0: return all
            case nil: _ = try waitUntilReady(milliseconds: -1)
            case let count?: all += chunk[..<count]
            }
        }
    }

    // MARK: - Waiting

    /// Waits at most `milliseconds` (-1: for as long as it takes) until a read or a write would not
    /// wait (data or the end to read, room to write, or the program gone); whether it is so.
    public func waitUntilReady(milliseconds: Int32) throws(ProgramError) -> Bool {
        var request = pollfd(fd: fileDescriptor, events: Int16(toProgram ? POLLOUT : POLLIN), revents: 0)
        while true {
            let ready = Glibc.poll(&request, 1, milliseconds)
            if ready >= 0 { return ready > 0 }
            if errno != EINTR { throw .systemCall(program: program, SystemCallError(.poll, errno: errno)) }
        }
    }
}
