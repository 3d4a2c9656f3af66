#if canImport(Glibc)
import Glibc
#endif

/// Splits a byte stream into lines in linear time, holding at most about `maximumLineBytes` of an
/// unfinished line, whatever the stream is.
///
/// Every byte is searched for a newline once: the buffer remembers how far it has looked. Lines
/// handed out are dropped from the front lazily, only once they fill more than half the buffer, so
/// each byte is also moved at most once on average.
struct LineBuffer {
    /// The longest line accepted, without its newline.
    let maximumLineBytes: Int
    private var bytes: [UInt8] = []
    /// The first byte not yet handed out in a line.
    private var start = 0
    /// `bytes[start..<scanned]` holds no newline.
    private var scanned = 0

    /// Thrown when a line, finished or not, is longer than ``maximumLineBytes``.
    struct LineTooLong: Error {}

    init(maximumLineBytes: Int) {
        self.maximumLineBytes = maximumLineBytes
    }

    /// Bytes received but not yet handed out in a line.
    var pendingCount: Int { bytes.count - start }

    /// Takes the next complete line (without its newline) out of the buffer, or returns `nil` when
    /// no newline has arrived yet.
    mutating func nextLine() throws(LineTooLong) -> [UInt8]? {
        let newline: Int? = bytes.withUnsafeBufferPointer { all in
            guard scanned < all.count, let base = all.baseAddress,
                  let hit = memchr(base + scanned, 10, all.count - scanned) else { return nil }
            return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        }
        guard let newline else {
            scanned = bytes.count
            guard pendingCount <= maximumLineBytes else { throw LineTooLong() }
            return nil
        }
        guard newline - start <= maximumLineBytes else { throw LineTooLong() }
        let line = Array(bytes[start..<newline])
        start = newline + 1
        scanned = start
        compact()
        return line
    }

    /// Adds bytes received from the stream.
    mutating func append(_ received: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: received)
    }

    /// Drops the lines handed out once they are more than half the buffer (amortized O(1) a byte).
    private mutating func compact() {
        if start == bytes.count {
            bytes.removeAll(keepingCapacity: true)
        } else if start > bytes.count / 2 {
            bytes.removeSubrange(0..<start)
        } else {
            return
        }
        scanned -= start
        start = 0
    }
}
