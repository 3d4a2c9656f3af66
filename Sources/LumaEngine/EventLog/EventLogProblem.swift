import LumaAnalysis
import LumaBase

/// A problem reading an event log, naming the file and line.
public typealias EventLogError = FileProblem<EventLogProblem>

/// What is wrong with an event log (``EventLogError``): the file, its header, an event line, its
/// footer, or an event's payload read as an observation, with the values that were found.
public enum EventLogProblem: Equatable, Sendable, CustomStringConvertible {
    // The file.
    /// The file cannot be opened (`call` is `open`) or its status read.
    case unreadable(SystemCallError)
    /// A folder, a device or a socket: `found` says which, in words ("a character device").
    case notAFile(found: String)
    /// Reading failed part way.
    case readFailed(SystemCallError)
    /// The log holds more than `limit` bytes (`bytes` when its size is known before reading).
    case tooLarge(bytes: Int?, limit: Int)
    /// The file holds no line.
    case empty
    /// The last line has no newline.
    case cutOff
    /// A line longer than `limit` bytes.
    case lineTooLong(limit: Int)
    /// A line that is not JSON.
    case notJSON(JSONParser.Failure)
    /// Another error stopped the log as it was written, in its own words.
    case writingStopped(String)

    // The header (line 1).
    /// The first line has no `"format":"lumatrace.events"`.
    case notAnEventLog
    /// A format version this build does not read.
    case unsupportedVersion(Int, readable: ClosedRange<Int>)
    /// A header field that is absent or not of its type.
    case headerFieldMissing(String)
    /// A header number below what any recording has.
    case headerFieldBelow(String, value: Int, minimum: Int)
    /// A header number above what any recording holds.
    case headerFieldAbove(String, value: Int, maximum: Int)
    /// `recording.file` is a path (or empty), not a file name beside the log.
    case recordingFileNotAName(String)
    /// `replay.to` is past the recording's frames.
    case replayPastRecording(lastFrame: Int, frameCount: Int)
    /// An analyzer's region of interest is not four numbers.
    case invalidRegionOfInterest(analyzer: String)
    /// An analyzer's `events` entry is not `{"kind":…,"version":…,"shape":…}`; `entry` is its
    /// JSON text, cut to 200 characters.
    case invalidEventsEntry(analyzer: String, entry: String)

    // The event lines.
    /// A line without the fields of an event.
    case notAnEventLine
    /// An event at `frame` after one at the later frame `after`.
    case outOfFrameOrder(frame: Int, after: Int)
    /// An event outside the frames the header says were replayed.
    case outsideReplayedFrames(frame: Int, replayed: ClosedRange<Int>)
    /// An event time that is no recording time: `found` is its JSON text.
    case notARecordingTime(found: String)
    /// An event's payload is not the shape its header gives its kind.
    case notItsShape(analyzer: String, kind: String, view: String, problem: DecodingProblem)

    // The footer.
    /// A footer followed by another line.
    case footerNotLast
    /// A version-2 footer without the recording facts (`end.recording`, `end.lastFrame`).
    case footerWithoutRecordingFacts
    /// The footer's last frame does not fit the header's frames and the events.
    case footerLastFrameMisfits(lastFrame: Int)
    /// A footer without its fields.
    case footerIncomplete
    /// The footer's digest is not the digest of the event lines.
    case footerDigestMismatch
    /// The footer counts `counted` events; the log has `found`.
    case footerEventCount(counted: Int, found: Int)

    // An event's payload read as an observation (score, report).
    /// A coordinate, size or confidence that is not finite or beyond ±`limit`.
    case observationValueOutOfRange(what: String, value: Double, limit: Double)
    /// A bounding box of `count` numbers, not four.
    case boundingBoxSize(count: Int)
    /// A corner of `count` numbers, not two.
    case cornerSize(count: Int)
    /// Point `point` (1-based) has `count` numbers, fewer than `[frame, x, y]`.
    case pointSize(point: Int, count: Int)
    /// Point `point` has a frame that is no frame of the recording's `frameCount`.
    case pointFrameOutside(point: Int, frame: Double, frameCount: Int)
    /// Point `point` is at `frame`, not after the point before it at `previous`.
    case pointsOutOfOrder(point: Int, frame: Int, previous: Int)
    /// A second event of `analyzer`'s `kind` placing the object `id` in `frame` (``ShapedEvent/placedObjectId``).
    case repeatedId(analyzer: String, kind: String, id: String, frame: Int)

    public var description: String {
        switch self {
        case .unreadable(let failure) where failure.call == .open: return "cannot read: \(failure.errnoText)"
        case .unreadable(let failure): return "cannot stat: \(failure.errnoText)"
        case .notAFile(let found): return "is \(found), not an event log"
        case .readFailed(let failure): return "read failed: \(failure.errnoText)"
        case .tooLarge(let bytes?, let limit): return "log is \(bytes) bytes, over the \(limit)-byte limit"
        case .tooLarge(nil, let limit): return "log is over the \(limit)-byte limit"
        case .empty: return "empty file: not an event log"
        case .cutOff: return "last line is cut off (no newline): the log is truncated"
        case .lineTooLong(let limit): return "line is longer than \(limit >> 20) MiB: not an event log line"
        case .notJSON(let failure): return "not valid JSON: \(failure.description)"
        case .writingStopped(let words): return words
        case .notAnEventLog: return "not a Lumatrace event log (the first line has no \"format\":\"\(EventLogHeader.format)\")"
        case .unsupportedVersion(let version, let readable):
            return "event log format version \(version) is not supported (this build reads versions "
                + "\(readable.lowerBound) to \(readable.upperBound)): use a newer lumatrace"
        case .headerFieldMissing(let field): return "header has no valid \(field)"
        case .headerFieldBelow(let field, let value, let minimum): return "header has \(field) \(value), expected at least \(minimum)"
        case .headerFieldAbove(let field, let value, let maximum):
            return "header has \(field) \(value), more than any recording holds (at most \(maximum))"
        case .recordingFileNotAName(let name):
            return "recording.file \(JSONString.quoted(name)) is not a file name: a log names its recording by a file name beside the log, never a path"
        case .replayPastRecording(let lastFrame, let frameCount): return "header has replay.to \(lastFrame), past the recording's \(frameCount) frames"
        case .invalidRegionOfInterest(let analyzer): return "header has an invalid \(analyzer).regionOfInterest"
        case .invalidEventsEntry(let analyzer, let entry):
            return "header has an invalid \(analyzer).events entry \(entry): expected {\"kind\":…,\"version\":…,\"shape\":…}"
        case .notAnEventLine: return "not an event line (needs frame, t, analyzer, kind, data)"
        case .outOfFrameOrder(let frame, let after): return "events are out of frame order (\(frame) after \(after))"
        case .outsideReplayedFrames(let frame, let replayed):
            return "event at frame \(frame), outside the replayed frames \(replayed.lowerBound)...\(replayed.upperBound)"
        case .notARecordingTime(let found): return "event time \(found) is not a recording time (at most ±\(Int64(LoggedEvent.maximumSeconds)) s)"
        case .notItsShape(let analyzer, let kind, let view, let problem):
            return "\(analyzer)'s '\(kind)' event is not a \(view) (the shape its header gives it): \(problem)"
        case .footerNotLast: return "footer line is not the last line"
        case .footerWithoutRecordingFacts: return "footer has no valid recording facts (end.recording, end.lastFrame)"
        case .footerLastFrameMisfits(let lastFrame): return "footer's lastFrame \(lastFrame) does not fit the header's frames and the events"
        case .footerIncomplete: return "footer lacks what a footer holds (complete, frames, events, counts, sha256)"
        case .footerDigestMismatch: return "footer digest does not match the event lines: the log was edited or damaged"
        case .footerEventCount(let counted, let found): return "footer counts \(counted) events, the log has \(found)"
        case .observationValueOutOfRange(let what, let value, let limit): return "\(what) \(value) is outside ±\(Int(limit)): not an observation"
        case .boundingBoxSize(let count): return "boundingBox has \(count) numbers, not [x, y, width, height]"
        case .cornerSize(let count): return "a corner has \(count) numbers, not [x, y]"
        case .pointSize(let point, let count): return "point \(point) has \(count) numbers, not [frame, x, y, …]"
        case .pointFrameOutside(let point, let frame, let frameCount):
            return "point \(point) has frame \(frame), not a frame of the recording (0...\(frameCount - 1))"
        case .pointsOutOfOrder(let point, let frame, let previous):
            return "point \(point) has frame \(frame) after frame \(previous): points must be in frame order"
        case .repeatedId(let analyzer, let kind, let id, let frame):
            return "\(analyzer)'s '\(kind)' events place the id \(JSONString.quoted(id)) twice in frame \(frame): "
                + "one id names one object, so a comparison could not tell the two apart"
        }
    }
}
