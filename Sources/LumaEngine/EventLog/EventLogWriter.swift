import Crypto
import Foundation

/// Writes an event log: header line, event lines, footer line.
///
/// The log is written to a temporary file beside the destination and renamed into place only when
/// it is finished, so an existing good log is never replaced by a half-written one. A process killed
/// mid-replay leaves the temporary file: valid JSON Lines up to its last complete line, and no footer.
public final class EventLogWriter {
    public let path: String
    public let temporaryPath: String
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var hasher = SHA256()
    private var counts: [(analyzer: String, kind: String, count: Int)] = []
    private let analyzerOrder: [String]
    public private(set) var eventCount = 0

    public init(path: String, header: EventLogHeader) throws(EventLogError) {
        self.path = path
        let url = URL(fileURLWithPath: path)
        temporaryPath = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).partial").path
        analyzerOrder = ["engine"] + header.analyzers.map(\.name)
        guard FileManager.default.createFile(atPath: temporaryPath, contents: nil),
              let h = FileHandle(forWritingAtPath: temporaryPath) else {
            throw EventLogError(path: path, line: nil, reason: "cannot create the log (is the folder there and writable?)")
        }
        handle = h
        append(line: header.json.serialized, hashed: false)
        try flush()
    }

    /// Appends one event line. Events must arrive in log order: (frame, analyzer order, sequence).
    public func write(_ event: LoggedEvent) throws(EventLogError) {
        append(line: event.json.serialized, hashed: true)
        eventCount += 1
        if let i = counts.firstIndex(where: { $0.analyzer == event.analyzer && $0.kind == event.kind }) {
            counts[i].count += 1
        } else {
            counts.append((event.analyzer, event.kind, 1))
        }
        if buffer.count > 1 << 16 { try flush() }
    }

    /// Writes the footer and moves the log into place.
    @discardableResult
    public func finish(framesReplayed: Int, failure: JSONValue? = nil) throws(EventLogError) -> EventLogFooter {
        let order = Dictionary(uniqueKeysWithValues: analyzerOrder.enumerated().map { ($1, $0) })
        let sorted = counts.sorted { (order[$0.analyzer] ?? .max, $0.kind) < (order[$1.analyzer] ?? .max, $1.kind) }
        let footer = EventLogFooter(complete: failure == nil, framesReplayed: framesReplayed, eventCount: eventCount,
                                    counts: sorted, eventsDigest: Array(hasher.finalize()).hexString, failure: failure)
        append(line: footer.json.serialized, hashed: false)
        try flush()
        do {
            try handle.synchronize()
            try handle.close()
            if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
            try FileManager.default.moveItem(atPath: temporaryPath, toPath: path)
        } catch {
            throw EventLogError(path: path, line: nil, reason: "cannot move the finished log into place: \(error.localizedDescription)")
        }
        return footer
    }

    /// Removes the temporary file (after a failure that left nothing worth keeping).
    public func abandon() {
        try? handle.close()
        try? FileManager.default.removeItem(atPath: temporaryPath)
    }

    private func append(line: String, hashed: Bool) {
        let start = buffer.count
        buffer.append(contentsOf: line.utf8)
        buffer.append(10)
        if hashed { buffer[start...].withUnsafeBytes { hasher.update(bufferPointer: $0) } }
    }

    private func flush() throws(EventLogError) {
        guard !buffer.isEmpty else { return }
        do { try handle.write(contentsOf: buffer) } catch {
            throw EventLogError(path: temporaryPath, line: nil, reason: "write failed: \(error.localizedDescription)")
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
