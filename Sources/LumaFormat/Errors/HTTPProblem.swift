/// Why a recording could not be read over HTTP: the data behind
/// ``LumaFormatError/http(url:problem:attempts:)``.
public enum HTTPProblem: Equatable, Sendable, CustomStringConvertible {
    /// The HTTP client (libcurl) could not be set up.
    case clientSetUp
    /// The connection failed: libcurl's words (refused, reset, timed out, TLS, …).
    case transport(String)
    /// The resource holds no bytes.
    case empty
    /// The server answered a range request with the whole resource.
    case noByteRanges
    /// The server answered with this status.
    case status(Int)
    /// A 206 answer that does not say which bytes it holds.
    case noContentRange(offset: UInt64)
    /// The resource's length changed while it was being read.
    case lengthChanged(was: UInt64, now: UInt64)
    /// The resource's ETag changed while it was being read ("" for none).
    case etagChanged(was: String, now: String)
    /// A 206 answer whose Content-Range starts elsewhere than the bytes asked for.
    case otherRange(asked: UInt64, sent: UInt64)
    /// The answer held fewer bytes than asked for.
    case shortAnswer(received: Int, wanted: Int)
    /// A range answer whose body ran past the bytes asked for.
    case longAnswer(wanted: Int)
    /// The request took longer than the deadline (``HTTPByteSource/requestTimeoutVariable``), or
    /// the body came too slowly for too long: libcurl's words, and the deadline in seconds.
    case timedOut(String, limitSeconds: Int)
    /// ``HTTPByteSource/requestTimeoutVariable`` is set to something that is not a deadline.
    case invalidTimeout(String)

    public var description: String {
        switch self {
        case .clientSetUp: return "cannot set up an HTTP client (libcurl)"
        case .transport(let words): return words
        case .empty: return "is empty (0 bytes): not a recording"
        case .noByteRanges: return "the server answered a range request with the whole resource (HTTP 200): it does not serve byte ranges"
        case .status(let status): return "HTTP \(status)\(HTTPProblem.statusText(status))"
        case .noContentRange(let offset): return "the server's answer does not say which bytes it holds (no Content-Range for bytes \(offset)...)"
        case .lengthChanged(let was, let now): return "changed while being read: it was \(was) bytes, now \(now)"
        case .etagChanged(let was, let now):
            return "changed while being read: its ETag was \(was.isEmpty ? "none" : was), now \(now.isEmpty ? "none" : now)"
        case .otherRange(let asked, let sent):
            return "the server answered with bytes from \(sent) when asked for bytes from \(asked): its range answers cannot be trusted"
        case .shortAnswer(let received, let wanted): return "the answer held \(received) bytes of the \(wanted) asked for"
        case .longAnswer(let wanted):
            return "the server sent more than the \(wanted) bytes asked for: its range answers cannot be trusted"
        case .timedOut(let words, let limit):
            return "\(words) (a request may take at most \(limit) s, or stall under 512 bytes/s for 30 s; \(HTTPByteSource.requestTimeoutVariable)=SECONDS sets the deadline)"
        case .invalidTimeout(let value):
            return "\(HTTPByteSource.requestTimeoutVariable)=\(value) is not a number of seconds from 1 to \(HTTPByteSource.maximumRequestTimeout)"
        }
    }

    private static func statusText(_ status: Int) -> String {
        switch status {
        case 401: return " Unauthorized"
        case 403: return " Forbidden (an expired presigned URL says so too)"
        case 404: return " Not Found"
        case 410: return " Gone"
        default: return ""
        }
    }
}
