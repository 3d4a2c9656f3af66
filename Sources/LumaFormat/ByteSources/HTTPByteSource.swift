import CHTTPRange
import LumaBase
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A recording on a web server or in an object store (a presigned URL is one), read with HTTP
/// range requests through libcurl: only the bytes a command needs are fetched — the trailer and
/// the index first, then the chunks asked for.
///
/// libcurl is the HTTP client because it is the most widely deployed and maintained one, speaks
/// HTTP/1.1 and 2 over TLS with the system's certificates and proxies, and has a synchronous API
/// that fits the reader's synchronous reads (the reader decodes on the thread that reads; an
/// event-loop client would add threads and hops for nothing here).
///
/// - Small reads (record envelopes, chunk tables) are served from blocks of ``blockSize`` bytes,
///   fetched once and kept (the last `cachedBlocks`); a read of a block or more (a chunk's
///   payload) is fetched exactly, so the bytes fetched stay close to those of the chunks read
///   (a block is 4 KiB: a chunk's table costs one block beside its payload).
/// - A request that fails on the way (connection refused, reset or cut, a timeout, HTTP 5xx or
///   429) is retried up to ``maximumAttempts`` times, waiting 0.25 s, then twice as long each time.
/// - The length and the ETag the server gives on the first answer are checked on every answer:
///   a resource replaced while being read is an error, never frames of two versions. A request
///   that fails for good (replaced, or still failing after its retries) ends the source: every
///   later read fails with the same error (``failure``), so no reader takes it for damage or
///   spends minutes on reads that cannot succeed.
/// - A request has a deadline, ``defaultRequestTimeout`` seconds unless
///   ``requestTimeoutVariable`` (`LUMATRACE_HTTP_TIMEOUT`) says otherwise, and ends sooner when
///   its body comes at under 512 bytes a second for 30 s: a server that trickles cannot hold a
///   command for days.
/// - Only `http` and `https` are followed, redirects included; requests are serialized (one
///   connection, kept alive), so one source may be shared by several decoders.
public final class HTTPByteSource: ByteSource {
    /// One retry of a failed request: which, why, and how long until the next attempt.
    public struct Retry: Sendable, CustomStringConvertible {
        public var url: String
        public var attempt: Int
        public var of: Int
        public var problem: HTTPProblem
        public var waitSeconds: Double
        public var description: String {
            "\(url): \(problem); retry \(attempt) of \(of) in \(FixedDecimal.text(waitSeconds, decimals: 2, below: 1e12) ?? "?") s"
        }
    }

    public static let blockSize = 4 << 10
    static let cachedBlocks = 64
    public static let maximumAttempts = 5
    /// The environment variable that sets a request's deadline, in whole seconds.
    public static let requestTimeoutVariable = "LUMATRACE_HTTP_TIMEOUT"
    /// A request's deadline when ``requestTimeoutVariable`` is not set: two minutes, time for a
    /// large chunk over a slow link.
    public static let defaultRequestTimeout = 120
    public static let maximumRequestTimeout = 86_400

    public let name: String
    public let fileName: String
    public let size: UInt64
    /// Body bytes received so far, over every request (what a benchmark or a test compares with
    /// the chunks read).
    public var bytesFetched: UInt64 { connection.state.withLock { $0.fetched } }
    /// Set once a request failed for good (the resource replaced, the server still failing after
    /// the retries): the error every read has thrown since.
    public var failure: LumaFormatError? { connection.state.withLock { $0.failure } }

    private let report: (@Sendable (Retry) -> Void)?
    private let etag: String
    private let requestTimeout: Int
    private let connection: Connection

    /// The libcurl handle (one connection, kept alive) and what came through it; every use is
    /// under its lock, so requests are serialized.
    private final class Connection: Sendable {
        struct State: @unchecked Sendable {
            var handle: OpaquePointer?
            var fetched: UInt64 = 0
            var blocks: [(index: UInt64, bytes: [UInt8])] = []
            var failure: LumaFormatError?
        }
        let state: Mutex<State>
        init(_ handle: OpaquePointer) { state = Mutex(State(handle: handle)) }
        deinit { state.withLock { lt_http_close($0.handle) } }
    }

    /// Opens `location` (an `http(s)://` URL) with a first request for its first block, which
    /// gives the length and ETag. Messages name it as the location shows itself: without its
    /// password and query.
    public init(_ location: RecordingLocation, report: (@Sendable (Retry) -> Void)? = nil) throws(LumaFormatError) {
        name = location.description
        fileName = location.fileName
        self.report = report
        let timeout = try HTTPByteSource.requestTimeout(for: name)
        guard let handle = lt_http_open(location.openableText, timeout) else { throw LumaFormatError.http(url: name, problem: .clientSetUp, attempts: nil) }
        connection = Connection(handle)
        let first = try HTTPByteSource.fetch(connection, name: name, offset: 0, count: HTTPByteSource.blockSize, expected: nil,
                                             timeout: timeout, report: report)
        size = first.total
        etag = first.etag
        requestTimeout = timeout
        connection.state.withLock { $0.blocks = [(0, first.bytes)] }
    }

    /// The deadline ``requestTimeoutVariable`` sets, or the default; a value that is not a whole
    /// number of seconds in range is refused, naming the variable.
    private static func requestTimeout(for name: String) throws(LumaFormatError) -> Int {
        guard let text = getenv(requestTimeoutVariable).map({ String(cString: $0) }), !text.isEmpty else { return defaultRequestTimeout }
        guard let seconds = Int(text), (1...maximumRequestTimeout).contains(seconds) else {
            throw LumaFormatError.http(url: name, problem: .invalidTimeout(text), attempts: nil)
        }
        return seconds
    }

    public func read(at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) throws(LumaFormatError) {
        guard offset <= size, UInt64(buffer.count) <= size - offset else { throw pastTheEnd(offset, count: buffer.count) }
        if buffer.isEmpty { return }
        if buffer.count >= HTTPByteSource.blockSize {
            let answer = try fetch(offset: offset, count: buffer.count)
            answer.bytes.withUnsafeBytes { buffer.copyMemory(from: $0) }
            return
        }
        // Small reads from whole blocks, each fetched once.
        let block = UInt64(HTTPByteSource.blockSize)
        var done = 0
        while done < buffer.count {
            let at = offset + UInt64(done)
            let index = at / block
            let bytes = try cachedBlock(index)
            let start = Int(at - index * block)
            let n = min(buffer.count - done, bytes.count - start)
            guard n > 0 else { throw pastTheEnd(offset, count: buffer.count) }
            bytes.withUnsafeBytes { all in
                UnsafeMutableRawBufferPointer(rebasing: buffer[done..<done + n]).copyMemory(from: UnsafeRawBufferPointer(rebasing: all[start..<start + n]))
            }
            done += n
        }
    }

    private func cachedBlock(_ index: UInt64) throws(LumaFormatError) -> [UInt8] {
        if let hit = connection.state.withLock({ s in s.blocks.first { $0.index == index }?.bytes }) { return hit }
        let start = index * UInt64(HTTPByteSource.blockSize)
        let answer = try fetch(offset: start, count: Int(min(UInt64(HTTPByteSource.blockSize), size - start)))
        connection.state.withLock { s in
            s.blocks.append((index, answer.bytes))
            if s.blocks.count > HTTPByteSource.cachedBlocks { s.blocks.removeFirst() }
        }
        return answer.bytes
    }

    private func fetch(offset: UInt64, count: Int) throws(LumaFormatError) -> Answer {
        if let failure { throw failure }
        do throws(LumaFormatError) {
            return try HTTPByteSource.fetch(connection, name: name, offset: offset, count: count, expected: (size, etag),
                                            timeout: requestTimeout, report: report)
        } catch {
            // A request that failed for good (after its retries) ends the source: a reader that
            // would go on past it (a scan for chunks) fails at once, and says why.
            connection.state.withLock { $0.failure = error }
            throw error
        }
    }

    private struct Answer {
        var bytes: [UInt8]
        var total: UInt64
        var etag: String
    }

    private enum Failure: Error {
        case transient(HTTPProblem)
        case final(HTTPProblem)
    }

    /// GETs `count` bytes at `offset` (fewer at the end of the resource, on the first request),
    /// retrying what is worth retrying. `expected` is the length and ETag every later answer must
    /// have.
    private static func fetch(_ connection: Connection, name: String, offset: UInt64, count: Int, expected: (size: UInt64, etag: String)?,
                              timeout: Int, report: (@Sendable (Retry) -> Void)?) throws(LumaFormatError) -> Answer {
        var attempt = 0
        while true {
            attempt += 1
            switch request(connection, offset: offset, count: count, expected: expected, timeout: timeout) {
            case .success(let answer): return answer
            case .failure(.final(let problem)):
                throw LumaFormatError.http(url: name, problem: problem, attempts: nil)
            case .failure(.transient(let problem)):
                guard attempt < maximumAttempts else {
                    throw LumaFormatError.http(url: name, problem: problem, attempts: attempt)
                }
                let wait = 0.25 * Double(1 << (attempt - 1))
                report?(Retry(url: name, attempt: attempt, of: maximumAttempts - 1, problem: problem, waitSeconds: wait))
                var pause = timespec(tv_sec: Int(wait), tv_nsec: Int((wait - wait.rounded(.down)) * 1e9))
                var left = timespec()
                while nanosleep(&pause, &left) != 0 && errno == EINTR { pause = left }
            }
        }
    }

    private static func request(_ connection: Connection, offset: UInt64, count: Int, expected: (size: UInt64, etag: String)?,
                                timeout: Int) -> Result<Answer, Failure> {
        var response = lt_http_response()
        var bytes = [UInt8](repeating: 0, count: count)
        let code = connection.state.withLock { s in
            let code = bytes.withUnsafeMutableBufferPointer { lt_http_get_range(s.handle, offset, count, $0.baseAddress, &response) }
            s.fetched += UInt64(response.received)
            return code
        }
        let etag = text(of: &response.etag)
        if code != 0 {
            let words = text(of: &response.error)
            let problem = response.timed_out != 0 ? HTTPProblem.timedOut(words, limitSeconds: timeout) : .transport(words)
            return .failure(response.transient != 0 ? .transient(problem) : .final(problem))
        }
        switch response.status {
        case 206: break
        case 200 where expected == nil && response.total == 0:
            return .failure(.final(.empty))
        case 200:
            return .failure(.final(.noByteRanges))
        case 416 where expected == nil:
            return .failure(.final(.empty))
        case 429, 500...599:
            return .failure(.transient(.status(response.status)))
        default:
            return .failure(.final(.status(response.status)))
        }
        guard response.total >= 0, response.first >= 0 else {
            return .failure(.final(.noContentRange(offset: offset)))
        }
        guard response.first == Int64(offset) else {
            return .failure(.final(.otherRange(asked: offset, sent: UInt64(response.first))))
        }
        let total = UInt64(response.total)
        if let expected {
            guard total == expected.size else {
                return .failure(.final(.lengthChanged(was: expected.size, now: total)))
            }
            guard etag == expected.etag else {
                return .failure(.final(.etagChanged(was: expected.etag, now: etag)))
            }
        }
        let wanted = Int(min(UInt64(count), total > offset ? total - offset : 0))
        guard response.overflow == 0 else { return .failure(.final(.longAnswer(wanted: wanted))) }
        guard response.received == wanted else {
            return .failure(.transient(.shortAnswer(received: response.received, wanted: wanted)))
        }
        bytes.removeLast(count - wanted)
        return .success(Answer(bytes: bytes, total: total, etag: etag))
    }

    private static func text<T>(of tuple: inout T) -> String {
        withUnsafeBytes(of: &tuple) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
