import LumaBase
import Synchronization

/// Buffered sequential reading from a file descriptor (a file, a pipe or stdin), for stream formats
/// like Y4M. Reads never block forever on a live stream when a stop is requested: with
/// `pollForStop`, the stream checks the flag between polls and reports end of stream.
public final class ByteStream {
    public let name: String
    private let file: SystemFile
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    private var atEOF = false
    /// Set from another thread (e.g. a signal handler's queue) to end a live stream cleanly.
    public let stopRequested: StopFlag?

    /// Total bytes consumed so far (for error messages).
    public private(set) var position: UInt64 = 0

    public convenience init(fileDescriptor: Int32, name: String, ownsDescriptor: Bool, stopRequested: StopFlag? = nil) {
        self.init(file: ownsDescriptor ? .adopting(fileDescriptor) : .borrowing(fileDescriptor), name: name, stopRequested: stopRequested)
    }

    private init(file: SystemFile, name: String, stopRequested: StopFlag?) {
        self.file = file
        self.name = name
        self.buffer = [UInt8](repeating: 0, count: 1 << 20)
        self.stopRequested = stopRequested
    }

    /// Opens a file, or stdin for `-`.
    public static func open(_ path: String, stopRequested: StopFlag? = nil) throws(LumaFormatError) -> ByteStream {
        if path == "-" { return ByteStream(fileDescriptor: 0, name: "stdin", ownsDescriptor: false, stopRequested: stopRequested) }
        // O_NONBLOCK: opening a FIFO that has no writer yet must not block (a signal could not end
        // the wait). Reads then wait in poll, which checks `stopRequested`; Linux reports no hang-up
        // on a FIFO until a writer has come and gone, so polling waits for the first writer.
        do throws(SystemCallError) {
            return ByteStream(file: try SystemFile.open(path, for: .readWithoutWaiting), name: path, stopRequested: stopRequested)
        } catch { throw LumaFormatError.io(path: path, error) }
    }

    /// Refills the buffer; returns false at end of stream (or when a stop was requested).
    private func fill() throws(LumaFormatError) -> Bool {
        if atEOF { return false }
        if start > 0 {
            if end > start { buffer.withUnsafeMutableBufferPointer { b in
                let base = b.baseAddress!
                (base).update(from: base + start, count: end - start)
            } }
            end -= start
            start = 0
        }
        if end == buffer.count { buffer.append(contentsOf: repeatElement(0, count: buffer.count)) }
        while true {
            if let stop = stopRequested {
                if stop.isSet { atEOF = true; return false }
                if !file.waitUntilReadable(milliseconds: 100) { continue }
            }
            let n: Int
            do throws(SystemCallError) {
                n = try file.read(into: &buffer, from: end)
            } catch { throw LumaFormatError.io(path: name, error) }
            if n == 0 { atEOF = true; return false }
            end += n
            return true
        }
    }

    /// The next `count` bytes (fewer at end of stream) without consuming them: sniffing a stream's
    /// format loses no bytes.
    public func peek(_ count: Int) throws(LumaFormatError) -> [UInt8] {
        while end - start < count, try fill() {}
        return Array(buffer[start..<min(end, start + count)])
    }

    /// Reads up to and including `delimiter`, at most `limit` bytes; `nil` at a clean end of stream.
    public func readLine(delimiter: UInt8 = 10, limit: Int) throws(LumaFormatError) -> [UInt8]? {
        var scanned = 0
        while true {
            if let i = buffer[(start + scanned)..<end].firstIndex(of: delimiter) {
                let line = Array(buffer[start..<i])
                consume(i + 1 - start)
                return line
            }
            scanned = end - start
            if scanned > limit {
                throw LumaFormatError.invalidInput(source: name, frame: nil, problem: .lineTooLong(limit: limit, atByte: position))
            }
            if try !fill() {
                if end == start { return nil }
                throw LumaFormatError.invalidInput(source: name, frame: nil, problem: .lineCut(atByte: position + UInt64(end - start)))
            }
        }
    }

    /// Reads exactly `count` bytes into `out` (or discards them when `out` is nil). Returns the
    /// number of bytes read, which is less than `count` only at end of stream.
    public func read(_ count: Int, into out: UnsafeMutableBufferPointer<UInt8>?) throws(LumaFormatError) -> Int {
        var done = 0
        while done < count {
            if end == start, try !fill() { return done }
            let n = min(count - done, end - start)
            if let out {
                buffer.withUnsafeBufferPointer { b in (out.baseAddress! + done).update(from: b.baseAddress! + start, count: n) }
            }
            consume(n)
            done += n
        }
        return done
    }

    private func consume(_ n: Int) {
        start += n
        position += UInt64(n)
        if start == end { start = 0; end = 0 }
    }
}

/// A flag one thread sets and another polls (e.g. Ctrl-C ends a live recording).
public final class StopFlag: Sendable {
    private let value = Mutex(false)
    public init() {}
    public var isSet: Bool { value.withLock { $0 } }
    public func set() { value.withLock { $0 = true } }
}
