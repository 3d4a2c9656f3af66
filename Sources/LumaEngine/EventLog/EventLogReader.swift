import Foundation
import LumaAnalysis
import LumaBase
import LumaFormat

/// A parsed event log: header, events in order, and the footer if the log is complete.
public struct EventLog: Sendable {
    public var path: String
    public var header: EventLogHeader
    /// The header line exactly as parsed (keeps unknown fields).
    public var headerJSON: JSONValue
    public var events: [LoggedEvent]
    /// `nil` when the log is incomplete (the replay was killed before it finished).
    public var footer: JSONValue?

    /// The footer, read (``EventLogFooter``): `nil` when the log is incomplete.
    public var end: EventLogFooter? { footer.flatMap(EventLogFooter.init(json:)) }

    public var isComplete: Bool { end?.complete == true }

    /// The longest line a log may have: 4 MiB. The longest lines Lumatrace writes (a trajectory's
    /// points, a header with many analyzers) are a few kilobytes. A longer line is refused as soon
    /// as that many bytes have arrived without a newline, so a hostile log costs at most this much
    /// buffering, and its parse at most about 30 times it: JSON values are held as `JSONValue`,
    /// 24 bytes for a one-digit number, more for `[0]` (measured, whole process: a 4 MiB line of
    /// `[0,0,…]` peaks at 80 MiB resident, one of `[[0],[0],…]` at 117 MiB).
    public static let maximumLineBytes = 4 << 20

    /// Reads and checks a log: every line must be JSON of the right shape; the footer's counts and
    /// digest must match the events. Refuses logs over `maximumBytes`, lines over
    /// ``maximumLineBytes``, and anything that is not a regular file or a pipe (a device such as
    /// `/dev/zero` is not a log). Lines are parsed as they are read: memory follows the events.
    public static func read(_ path: String, maximumBytes: Int = 1 << 31) throws(EventLogError) -> EventLog {
        try read(path, maximumBytes: maximumBytes, eachLine: { _ in })
    }

    /// Reads and checks a log as ``read(_:maximumBytes:)`` does, handing each line as written
    /// (without its newline) to `eachLine` once it has passed its checks: for a reader that needs
    /// the bytes too (`play` writes them out) from a log that may come from a pipe and be read once.
    public static func read(_ path: String, maximumBytes: Int = 1 << 31,
                            eachLine: (ArraySlice<UInt8>) -> Void) throws(EventLogError) -> EventLog {
        let file = try LogFile(path: path)
        if let size = file.regularSize, size > maximumBytes {
            throw EventLogError(path: path, .tooLarge(bytes: size, limit: maximumBytes))
        }
        var parser = EventLogParser(path: path)
        var pending: [UInt8] = []
        var block = [UInt8](repeating: 0, count: 1 << 20)
        var total = 0
        while true {
            let n = try file.read(into: &block)
            if n == 0 { break }
            total += n
            if total > maximumBytes {
                throw EventLogError(path: path, .tooLarge(bytes: nil, limit: maximumBytes))
            }
            var start = 0
            while let newline = block[start..<n].firstIndex(of: 10) {
                if pending.isEmpty {
                    try parser.consume(block[start..<newline])
                    eachLine(block[start..<newline])
                } else {
                    pending += block[start..<newline]
                    try parser.consume(pending[...])
                    eachLine(pending[...])
                    pending.removeAll(keepingCapacity: pending.count <= 1 << 20)
                }
                start = newline + 1
            }
            pending += block[start..<n]
            try parser.check(partialLineBytes: pending.count)
        }
        if !pending.isEmpty { throw parser.cutOff() }
        return try parser.finish()
    }

    /// Parses a whole log held in memory, with the same checks as ``read(_:maximumBytes:)``.
    public static func parse(_ bytes: [UInt8], path: String) throws(EventLogError) -> EventLog {
        var lines = bytes.split(separator: 10, omittingEmptySubsequences: false)
        let truncatedLastLine = !(lines.last?.isEmpty ?? true)
        if lines.last?.isEmpty == true { lines.removeLast() }
        var parser = EventLogParser(path: path)
        guard !lines.isEmpty else { throw parser.empty() }
        if truncatedLastLine { throw EventLogError(path: path, line: lines.count, .cutOff) }
        for line in lines { try parser.consume(line) }
        return try parser.finish()
    }
}

/// Checks and collects a log one line at a time: the header, then events in frame order, then
/// perhaps a footer whose counts and digest must match.
struct EventLogParser {
    let path: String
    private var lineNumber = 0
    private var header: (value: EventLogHeader, json: JSONValue)?
    private var events: [LoggedEvent] = []
    private var footer: (value: JSONValue, line: Int)?
    private var hasher = SHA256Hasher()
    private var lastFrame = Int.min

    init(path: String) { self.path = path }

    func empty() -> EventLogError { EventLogError(path: path, .empty) }

    func cutOff() -> EventLogError {
        EventLogError(path: path, line: lineNumber + 1, .cutOff)
    }

    /// Refuses a line still arriving once it is longer than ``EventLog/maximumLineBytes``.
    func check(partialLineBytes count: Int) throws(EventLogError) {
        guard count <= EventLog.maximumLineBytes else {
            throw EventLogError(path: path, line: lineNumber + 1, .lineTooLong(limit: EventLog.maximumLineBytes))
        }
    }

    /// Checks one line (without its newline) and adds what it holds.
    mutating func consume(_ line: ArraySlice<UInt8>) throws(EventLogError) {
        try check(partialLineBytes: line.count)
        lineNumber += 1
        if let footer {
            throw EventLogError(path: path, line: footer.line, .footerNotLast)
        }
        let v: JSONValue
        do { v = try JSONParser.parse(Array(line)) } catch {
            throw EventLogError(path: path, line: lineNumber, .notJSON(error))
        }
        guard let header else {
            self.header = (try EventLogHeader(json: v, source: path), v)
            return
        }
        if v["end"] != nil {
            footer = (v, lineNumber)
            return
        }
        guard let frame = v["frame"]?.intValue, let t = v["t"], case .double = t,
              let analyzer = v["analyzer"]?.stringValue, let kind = v["kind"]?.stringValue, let data = v["data"] else {
            throw EventLogError(path: path, line: lineNumber, .notAnEventLine)
        }
        guard frame >= lastFrame else { throw EventLogError(path: path, line: lineNumber, .outOfFrameOrder(frame: frame, after: lastFrame)) }
        let replayed = header.value.firstFrame...header.value.lastFrame
        guard replayed.contains(frame) else {
            throw EventLogError(path: path, line: lineNumber, .outsideReplayedFrames(frame: frame, replayed: replayed))
        }
        // A time is a recording's timestamp in seconds: finite and within what ticks can hold, so
        // no reader (play's pacing, render's labels) meets 1e300 or NaN.
        guard let seconds = t.doubleValue, seconds.isFinite, abs(seconds) <= LoggedEvent.maximumSeconds else {
            throw EventLogError(path: path, line: lineNumber, .notARecordingTime(found: t.serialized))
        }
        lastFrame = frame
        line.withUnsafeBytes { hasher.update($0) }
        hasher.update([10])
        let time = JSONValue.format(seconds)
        events.append(LoggedEvent(frame: frame, time: time, analyzer: analyzer, kind: kind, data: data))
    }

    /// The log, once every line is in.
    func finish() throws(EventLogError) -> EventLog {
        guard var header else { throw empty() }
        if header.value.formatVersion >= 2 {
            // What a version-2 log knows only at its end is in its footer.
            let lastEvent = events.last?.frame ?? header.value.firstFrame
            if let footer {
                guard let end = footer.value["end"], let ending = EventLogHeader.Ending(end: end) else {
                    throw EventLogError(path: path, line: footer.line, .footerWithoutRecordingFacts)
                }
                guard ending.lastFrame >= lastEvent, ending.lastFrame < max(ending.frameCount, header.value.firstFrame + 1),
                      header.value.replaysToEnd || ending.lastFrame == header.value.lastFrame else {
                    throw EventLogError(path: path, line: footer.line, .footerLastFrameMisfits(lastFrame: ending.lastFrame))
                }
                header.value.complete(with: ending)
            } else if header.value.replaysToEnd {
                header.value.lastFrame = max(header.value.firstFrame, lastEvent)
                header.value.frameCount = header.value.lastFrame + 1
            } else {
                header.value.frameCount = header.value.lastFrame + 1
            }
        }
        if let footer {
            guard let end = EventLogFooter(json: footer.value) else {
                throw EventLogError(path: path, line: footer.line, .footerIncomplete)
            }
            guard end.eventsDigest == hasher.finalize().hexString else {
                throw EventLogError(path: path, line: footer.line, .footerDigestMismatch)
            }
            guard end.eventCount == events.count else {
                throw EventLogError(path: path, line: footer.line, .footerEventCount(counted: end.eventCount, found: events.count))
            }
        }
        return EventLog(path: path, header: header.value, headerJSON: header.json, events: events, footer: footer?.value)
    }
}

/// A log file opened for sequential reading: a regular file or a pipe, never a device or folder.
private final class LogFile {
    let path: String
    let file: SystemFile
    /// The size of a regular file (`nil` for a pipe, whose size is known only at its end).
    let regularSize: Int?

    init(path: String) throws(EventLogError) {
        self.path = path
        let status: FileStatus
        do throws(SystemFile.OpenProblem) { (file, status) = try SystemFile.openFile(path, acceptingPipes: true) } catch {
            let problem: EventLogProblem = switch error {
            case .unreadable(let failure): .unreadable(failure)
            case .notAFile(let kind): .notAFile(found: kind.inWords)
            }
            throw EventLogError(path: path, problem)
        }
        regularSize = status.kind == .regularFile ? Int(status.size) : nil
    }

    /// Reads the next bytes into `block`; 0 at the end.
    func read(into block: inout [UInt8]) throws(EventLogError) -> Int {
        do throws(SystemCallError) {
            return try file.read(into: &block)
        } catch {
            throw EventLogError(path: path, .readFailed(error))
        }
    }
}
