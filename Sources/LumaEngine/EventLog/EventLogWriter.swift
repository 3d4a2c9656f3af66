import Foundation
import LumaAnalysis
import LumaBase
import LumaFormat
import LumaOutput

/// Writes an event log: header line, event lines, footer line.
///
/// The log goes through `OutputFile`: it is written to a temporary sibling and renamed into place
/// only when finished, so an existing good log is never replaced by a half-written one, and only
/// when `replacingExisting` (the user's `--force`). A process killed mid-replay leaves the temporary
/// file (`.NAME.PID-N.partial`): valid JSON Lines up to its last complete line, and no footer.
/// `-`, a FIFO or a device receive the log as a stream, line by line. A log kept in memory
/// (``init(inMemoryWith:)``, for tests) is the same bytes, held in ``memoryBytes``.
public final class EventLogWriter {
    public let path: String
    /// Where the log is written until `finish(framesReplayed:failure:)`; `nil` for a stream or memory.
    public var temporaryPath: String? { output?.temporaryPath }
    /// The file written; `nil` for a log kept in memory.
    private let output: OutputFile?
    /// The whole log so far, for a log kept in memory; empty for a file.
    public private(set) var memoryBytes: [UInt8] = []
    private var buffer: [UInt8] = []
    private var hasher = SHA256Hasher()
    private var counts: [(analyzer: String, kind: String, count: Int)] = []
    private let analyzerOrder: [String]
    /// The log's format version (from its header).
    public let formatVersion: Int
    public private(set) var eventCount = 0
    /// Where the log of a failed replay was kept, when a log already sat at ``path`` (an existing
    /// log is replaced only by a complete one).
    public private(set) var failedLogKeptAt: String?

    /// Whether every frame's events reach the file as soon as the frame is analyzed (a live log).
    private let flushesEachFrame: Bool

    /// Starts the log at `path`. Refuses an existing file unless `replacingExisting`, and any of
    /// `inputs` (the recording, a pipeline file) as the destination.
    ///
    /// A `live` log is written as the frames arrive: straight under its name when it is a new file
    /// (so it can be read while it grows, and a killed recorder leaves it there: every line a valid
    /// prefix of the final log), and flushed after every frame. A stream (`-`) is flushed after
    /// every frame too.
    public init(path: String, header: EventLogHeader, replacingExisting: Bool = false,
                inputs: [String] = [], live: Bool = false) throws(OutputError) {
        self.path = path
        analyzerOrder = ["engine"] + header.analyzers.map(\.name)
        formatVersion = header.formatVersion
        let file = try OutputFile.create(path, replacingExisting: replacingExisting, inputs: inputs, kind: .eventLog, streams: .allowed,
                                         placement: live ? .inPlace : .whenComplete)
        output = file
        flushesEachFrame = live || file.isStream
        append(line: header.json.serialized, hashed: false)
        try flush()
    }

    /// Starts a log kept in memory, line for line what a file would hold: ``memoryBytes``.
    /// Nothing is written anywhere (the analyzer harness's default).
    public init(inMemoryWith header: EventLogHeader) {
        path = "(memory)"
        analyzerOrder = ["engine"] + header.analyzers.map(\.name)
        formatVersion = header.formatVersion
        output = nil
        flushesEachFrame = false
        append(line: header.json.serialized, hashed: false)
    }

    /// Appends one event line. Events must arrive in log order: (frame, analyzer order, sequence).
    public func write(_ event: LoggedEvent) throws(OutputError) {
        append(line: event.json.serialized, hashed: true)
        eventCount += 1
        if let i = counts.firstIndex(where: { $0.analyzer == event.analyzer && $0.kind == event.kind }) {
            counts[i].count += 1
        } else {
            counts.append((event.analyzer, event.kind, 1))
        }
        if buffer.count > 1 << 16 || output?.isStream == true && buffer.count > 0 && event.frame != lastFrame { try flush() }
        lastFrame = event.frame
    }
    private var lastFrame = 0

    /// Says that a frame's events are all written: a live log or a stream gets them now.
    public func endFrame() throws(OutputError) {
        if flushesEachFrame { try flush() }
    }

    /// Writes the footer and moves the log into place. A log of format version 2 needs `ending`:
    /// the recording's facts and the last frame replayed, known only now.
    ///
    /// With a `failure`, the log (complete up to the failure, its footer saying so) takes the final
    /// name only if nothing is there; otherwise it stays at its temporary path
    /// (``failedLogKeptAt``) and the existing log is untouched.
    @discardableResult
    public func finish(framesReplayed: Int, failure: AnalyzerFailure? = nil, ending: EventLogHeader.Ending?) throws(OutputError) -> EventLogFooter {
        let order = Dictionary(uniqueKeysWithValues: analyzerOrder.enumerated().map { ($1, $0) })
        let sorted = counts.sorted { (order[$0.analyzer] ?? .max, $0.kind) < (order[$1.analyzer] ?? .max, $1.kind) }
        precondition(formatVersion == 1 || ending != nil, "a version-2 log's footer holds the recording's facts")
        let footer = EventLogFooter(complete: failure == nil, framesReplayed: framesReplayed, eventCount: eventCount,
                                    counts: sorted, eventsDigest: hasher.finalize().hexString, failure: failure,
                                    ending: formatVersion == 1 ? nil : ending)
        append(line: footer.json.serialized, hashed: false)
        try flush()
        guard let output else { return footer }
        if failure == nil {
            try output.commit()
        } else if !output.isInPlace, output.destinationExists {
            failedLogKeptAt = output.keepAside()
        } else {
            try output.commit(replacingExisting: false)
        }
        return footer
    }

    /// Removes the temporary file (after a failure that left nothing worth keeping).
    public func abandon() {
        output?.abandon()
    }

    private func append(line: String, hashed: Bool) {
        let start = buffer.count
        buffer.append(contentsOf: line.utf8)
        buffer.append(10)
        if hashed { buffer[start...].withUnsafeBytes { hasher.update($0) } }
    }

    private func flush() throws(OutputError) {
        guard !buffer.isEmpty else { return }
        if let output { try output.write(buffer) } else { memoryBytes += buffer }
        buffer.removeAll(keepingCapacity: true)
    }
}
