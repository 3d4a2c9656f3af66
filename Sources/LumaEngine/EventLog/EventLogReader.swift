import Crypto
import Foundation

/// A parsed event log: header, events in order, and the footer if the log is complete.
public struct EventLog: Sendable {
    public var path: String
    public var header: EventLogHeader
    /// The header line exactly as parsed (keeps unknown fields).
    public var headerJSON: JSONValue
    public var events: [LoggedEvent]
    /// `nil` when the log is incomplete (the replay was killed before it finished).
    public var footer: JSONValue?

    public var isComplete: Bool { footer?["end"]?["complete"]?.boolValue == true }

    /// Reads and checks a log: every line must be JSON of the right shape; the footer's counts and
    /// digest must match the events. Refuses logs over `maximumBytes`.
    public static func read(_ path: String, maximumBytes: Int = 1 << 31) throws(EventLogError) -> EventLog {
        let data: Data
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            if let size = attributes[.size] as? Int, size > maximumBytes {
                throw EventLogError(path: path, line: nil, reason: "log is \(size) bytes, over the \(maximumBytes)-byte limit")
            }
            // Said before reading: Foundation's reader leaks a buffer on an empty file.
            if let size = attributes[.size] as? Int, size == 0 {
                throw EventLogError(path: path, line: nil, reason: "empty file: not an event log")
            }
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch let e as EventLogError {
            throw e
        } catch {
            throw EventLogError(path: path, line: nil, reason: "cannot read: \(error.localizedDescription)")
        }
        return try parse(Array(data), path: path)
    }

    public static func parse(_ bytes: [UInt8], path: String) throws(EventLogError) -> EventLog {
        var lines = bytes.split(separator: 10, omittingEmptySubsequences: false)
        let truncatedLastLine = !(lines.last?.isEmpty ?? true)
        if lines.last?.isEmpty == true { lines.removeLast() }
        guard !lines.isEmpty else { throw EventLogError(path: path, line: nil, reason: "empty file: not an event log") }
        if truncatedLastLine { throw EventLogError(path: path, line: lines.count, reason: "last line is cut off (no newline): the log is truncated") }

        func json(_ i: Int) throws(EventLogError) -> JSONValue {
            do { return try JSONParser.parse(Array(lines[i])) } catch {
                throw EventLogError(path: path, line: i + 1, reason: "not valid JSON: \(error.description)")
            }
        }
        let headerJSON = try json(0)
        let header = try EventLogHeader(json: headerJSON, source: path)
        var events: [LoggedEvent] = []
        var footer: JSONValue?
        var hasher = SHA256()
        var lastFrame = Int.min
        for i in 1..<lines.count {
            let v = try json(i)
            if v["end"] != nil {
                guard i == lines.count - 1 else { throw EventLogError(path: path, line: i + 1, reason: "footer line is not the last line") }
                footer = v
                break
            }
            guard let frame = v["frame"]?.intValue, let t = v["t"], case .double = t,
                  let analyzer = v["analyzer"]?.stringValue, let kind = v["kind"]?.stringValue, let data = v["data"] else {
                throw EventLogError(path: path, line: i + 1, reason: "not an event line (needs frame, t, analyzer, kind, data)")
            }
            guard frame >= lastFrame else { throw EventLogError(path: path, line: i + 1, reason: "events are out of frame order (\(frame) after \(lastFrame))") }
            lastFrame = frame
            lines[i].withUnsafeBytes { hasher.update(bufferPointer: $0) }
            hasher.update(data: [10])
            let time = t.doubleValue.map(JSONValue.format) ?? "0"
            events.append(LoggedEvent(frame: frame, time: time, analyzer: analyzer, kind: kind, data: data))
        }
        if let footer {
            let digest = Array(hasher.finalize()).hexString
            guard footer["end"]?["sha256"]?.stringValue == digest else {
                throw EventLogError(path: path, line: lines.count, reason: "footer digest does not match the event lines: the log was edited or damaged")
            }
            guard footer["end"]?["events"]?.intValue == events.count else {
                throw EventLogError(path: path, line: lines.count, reason: "footer counts \(footer["end"]?["events"]?.intValue ?? -1) events, the log has \(events.count)")
            }
        }
        return EventLog(path: path, header: header, headerJSON: headerJSON, events: events, footer: footer)
    }
}
