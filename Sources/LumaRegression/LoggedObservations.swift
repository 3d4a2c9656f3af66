import Foundation
import LumaAnalysis
import LumaEngine
/// What a log says about objects over time, gathered from its events: the shapes that
/// ``LogDiff`` compares and ``LogScore`` scores.
///
/// Events are read by their shape (`EventShape`), which the log header records for every kind
/// an analyzer declares, so a plugin's events are diffed and scored like the built-ins':
/// - a `pathEnd` event is one trajectory; `pathUpdate` events add its per-frame confidence;
/// - `box` events make up tracks, with `boxLost` and `boxRecovered`; `quadrilateral` events with an
///   `id` are tracked corners (their bounding boxes);
/// - `blobs` events are frame-differencing statistics;
/// - every other event (no shape, or a `quadrilateral` without an id) is kept per frame as raw
///   payloads and compared as JSON.
///
/// Logs written before event kinds were declared have no shapes in their header: read them with
/// `EventLog/declaringKinds(from:)` to take the kinds from the analyzers of this build.
public struct LoggedObservations: Sendable {
    public var trajectories: [LoggedTrajectory] = []
    public var tracks: [LoggedTrack] = []
    /// Per analyzer emitting `blobs` events: frame → statistics.
    public var differencing: [(analyzer: String, frames: [Int: LoggedDifferencing])] = []
    /// Events of any other kind, per `analyzer.kind` in log order: frame → payloads.
    public var otherEvents: [(name: String, frames: [Int: [JSONValue]])] = []

    /// Gathers the observations of `log`, checking every number it will compute with where it
    /// enters: a shaped payload must have its shape's fields, a point's frame must be a frame of the
    /// recording, points in frame order, coordinates, sizes and confidences finite and within
    /// ±10^6, and no object placed twice in one frame by one analyzer's kind
    /// (`ShapedEvent/placedObjectId`). A log breaking this (edited by hand, or hostile) is refused with its file and line,
    /// never read as zeros or trapped on later.
    public init(_ log: EventLog) throws(EventLogError) {
        var gathering = Gathering(check: ObservationCheck(log: log))
        try log.forEachShapedEvent { event, line, shaped throws(EventLogError) in
            try gathering.add(event, line: line, shaped: shaped)
        }
        self = gathering.finished()
    }

    /// No observations yet.
    fileprivate init() {}
}

/// The observations of a log as its events are read one by one: trajectories and tracks found
/// by their ids, and each event's numbers checked where they enter.
private struct Gathering {
    let check: ObservationCheck
    var observations = LoggedObservations()
    /// `analyzer NUL id` → index of the trajectory.
    var trajectoryIndex: [String: Int] = [:]
    /// `analyzer NUL id` → the confidence of each `pathUpdate`, by frame (kept until the end, as
    /// updates come before their path's end event).
    var observationConfidence: [String: [Int: Double]] = [:]
    /// `analyzer NUL shape NUL id` → index of the track.
    var trackIndex: [String: Int] = [:]

    init(check: ObservationCheck) { self.check = check }

    /// `analyzer NUL kind NUL id` → the last frame an event placed that object in.
    var placedIn: [String: Int] = [:]

    mutating func add(_ event: LoggedEvent, line: Int, shaped: ShapedEvent?) throws(EventLogError) {
        let key = event.analyzer + "\u{0}"
        if let id = shaped?.placedObjectId {
            // Events come in frame order (the reader checks it), so the last frame is enough.
            let placed = key + event.kind + "\u{0}" + id
            if placedIn.updateValue(event.frame, forKey: placed) == event.frame {
                throw EventLogError(path: check.log.path, line: line, .repeatedId(analyzer: event.analyzer, kind: event.kind, id: id, frame: event.frame))
            }
        }
        switch shaped {
        case .pathEnd(let path):
            try addTrajectory(path, event: event, line: line)
        case .pathUpdate(let update):
            observationConfidence[key + update.id, default: [:]][event.frame] = try check.value(update.confidence, "confidence", line: line)
        case .box(let box), .boxRecovered(let box):
            try check.box(box.boundingBox, line: line)
            let i = track(box.id, of: event, shape: .box)
            if case .box = shaped { observations.tracks[i].kind = event.kind } else { observations.tracks[i].recoveredAt.append(event.frame) }
            observations.tracks[i].label = observations.tracks[i].label ?? box.label
            observations.tracks[i].boxes[event.frame] = box.boundingBox
            observations.tracks[i].confidences[event.frame] = try check.value(box.confidence, "confidence", line: line)
        case .boxLost(let lost):
            observations.tracks[track(lost.id, of: event, shape: .box)].lostAt.append(event.frame)
        case .quadrilateral(let quad):
            // Corners without an id are detections of one frame, compared as they are.
            guard let id = quad.id else {
                keepAsJSON(event)
                return
            }
            let box = try check.boundingBox(of: quad, line: line)
            let i = track(id, of: event, shape: .quadrilateral)
            observations.tracks[i].boxes[event.frame] = box
            observations.tracks[i].confidences[event.frame] = try check.value(quad.confidence ?? 0, "confidence", line: line)
        case .blobs(let blobs):
            let statistics = LoggedDifferencing(changedFraction: try check.value(blobs.changedFraction, "changedFraction", line: line),
                                                blobs: blobs.blobs.count)
            if let i = observations.differencing.firstIndex(where: { $0.analyzer == event.analyzer }) {
                observations.differencing[i].frames[event.frame] = statistics
            } else {
                observations.differencing.append((event.analyzer, [event.frame: statistics]))
            }
        case nil:
            keepAsJSON(event)
        }
    }

    /// A `pathEnd` event: one trajectory, its points and fit checked.
    private mutating func addTrajectory(_ path: PathEnd, event: LoggedEvent, line: Int) throws(EventLogError) {
        try check.points(path.points, line: line)
        trajectoryIndex[event.analyzer + "\u{0}" + path.id] = observations.trajectories.count
        var trajectory = LoggedTrajectory(id: path.id, analyzer: event.analyzer, points: path.points,
                                          confidence: try check.value(path.confidence, "confidence", line: line),
                                          reason: path.reason ?? "", endFrame: event.frame)
        trajectory.kind = event.kind
        if let fit = path.timeFit, fit.isDrawable {
            for v in fit.x + fit.y { _ = try check.value(v, "timeFit coefficient", line: line) }
            trajectory.timeFit = fit
        }
        observations.trajectories.append(trajectory)
    }

    /// The index of the track `id` of `event`'s analyzer and `shape`, made on its first event.
    private mutating func track(_ id: String, of event: LoggedEvent, shape: EventShape) -> Int {
        let key = event.analyzer + "\u{0}" + shape.rawValue + "\u{0}" + id
        if let i = trackIndex[key] { return i }
        observations.tracks.append(LoggedTrack(id: id, analyzer: event.analyzer, kind: event.kind, shape: shape))
        trackIndex[key] = observations.tracks.count - 1
        return observations.tracks.count - 1
    }

    /// An event of no shape the comparisons know, kept per frame as its JSON payload.
    private mutating func keepAsJSON(_ event: LoggedEvent) {
        let name = event.analyzer + "." + event.kind
        if let i = observations.otherEvents.firstIndex(where: { $0.name == name }) {
            observations.otherEvents[i].frames[event.frame, default: []].append(event.data)
        } else {
            observations.otherEvents.append((name, [event.frame: [event.data]]))
        }
    }

    /// The observations, each trajectory with its updates' confidences.
    func finished() -> LoggedObservations {
        var observations = observations
        for (key, confidences) in observationConfidence {
            if let i = trajectoryIndex[key] { observations.trajectories[i].observationConfidence = confidences }
        }
        return observations
    }
}

/// One trajectory of a log, from its `pathEnd` event (`trajectory.end`).
public struct LoggedTrajectory: Sendable, Equatable {
    public var id: String
    public var analyzer: String
    /// The kind of its end event (`trajectory.end`).
    public var kind = "trajectory.end"
    /// `[frame, x, y, radius]` (normalized, lower-left origin; radius a fraction of the width).
    public var points: [[Double]]
    public var confidence: Double
    /// Why it ended (`bounce`, `exit`, `lost`, `end`).
    public var reason: String
    /// The frame of the `trajectory.end` event.
    public var endFrame: Int
    /// Confidence of each `trajectory` observation, by frame.
    public var observationConfidence: [Int: Double] = [:]
    /// The path in time from the end event, when it has one.
    public var timeFit: PathTimeFit?

    public init(id: String, analyzer: String, points: [[Double]], confidence: Double, reason: String, endFrame: Int,
                observationConfidence: [Int: Double] = [:]) {
        self.id = id
        self.analyzer = analyzer
        self.points = points
        self.confidence = confidence
        self.reason = reason
        self.endFrame = endFrame
        self.observationConfidence = observationConfidence
    }

    /// What `diff` calls it: its end kind without `.end` (`trajectory`).
    public var subject: String { kind.hasSuffix(".end") ? String(kind.dropLast(4)) : kind }

    public var firstFrame: Int { points.first.map { frameNumber($0[0]) } ?? endFrame }
    public var lastFrame: Int { points.last.map { frameNumber($0[0]) } ?? endFrame }
}

/// One track of a log: its box and confidence in every frame it was live, and when it was lost
/// and recovered.
public struct LoggedTrack: Sendable, Equatable {
    public var id: String
    public var analyzer: String
    /// The kind of its events (`track`, `rectangleTrack`).
    public var kind: String
    /// `box` (a tracked box, scored against truth objects) or `quadrilateral` (tracked corners).
    public var shape: EventShape
    public var label: String?
    /// Frame → `[x, y, w, h]` (normalized, lower-left origin).
    public var boxes: [Int: [Double]] = [:]
    public var confidences: [Int: Double] = [:]
    public var lostAt: [Int] = []
    public var recoveredAt: [Int] = []

    public init(id: String, analyzer: String, kind: String, shape: EventShape = .box) {
        self.id = id
        self.analyzer = analyzer
        self.kind = kind
        self.shape = shape
    }

    /// The frames with a box, ascending.
    public var frames: [Int] { boxes.keys.sorted() }
}

/// What a `blobs` event (`diff`) says about one frame.
public struct LoggedDifferencing: Sendable, Equatable {
    public var changedFraction: Double
    public var blobs: Int
}

/// Intersection over union of two `[x, y, w, h]` boxes, 0...1.
///
/// A box of no area (a width or height of zero or less, or so small that the area underflows to
/// zero, as an edge detector may emit) has no overlap to measure: its IoU is 1 with the very same
/// box (the same four numbers) and 0 with any other, empty or not. So a log of empty boxes equals
/// itself in `diff` and `regress`, and an empty box that moves or grows is a change.
/// Clamped to 1: rounding can push identical boxes a hair above it, which would count them as
/// a success at OTB's threshold 1, where nothing may pass.
public func intersectionOverUnion(_ a: [Double], _ b: [Double]) -> Double {
    let (areaA, areaB) = (boxArea(a), boxArea(b))
    guard areaA > 0, areaB > 0 else { return a == b ? 1 : 0 }
    let ix = max(0, min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]))
    let iy = max(0, min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]))
    let union = areaA + areaB - ix * iy
    return union > 0 ? min(1, ix * iy / union) : 0
}

/// The area of a `[x, y, w, h]` box: `w × h` when both are positive, else 0.
@inline(__always)
private func boxArea(_ b: [Double]) -> Double {
    b[2] > 0 && b[3] > 0 ? b[2] * b[3] : 0
}

/// The frame of a point (`[frame, …]`), as an `Int` that never traps: ``LoggedObservations``
/// refuses logs whose frames are not frames of the recording, and a value built in memory past
/// ±2^53 (or not finite) is clamped rather than trapped on.
func frameNumber(_ value: Double) -> Int {
    guard value.isFinite else { return 0 }
    return Int(min(max(value, -9e15), 9e15))
}

/// The range checks ``LoggedObservations`` applies to the numbers it takes from a log.
struct ObservationCheck {
    let log: EventLog
    /// Coordinates, sizes and confidences beyond this are no observation: normalized coordinates
    /// are about 0...1, confidences 0...1.
    static let limit = 1e6

    /// A finite value within ±``limit``.
    func value(_ v: Double, _ what: String, line: Int) throws(EventLogError) -> Double {
        guard v.isFinite, abs(v) <= Self.limit else {
            throw EventLogError(path: log.path, line: line, .observationValueOutOfRange(what: what, value: v, limit: Self.limit))
        }
        return v
    }

    /// A `[x, y, w, h]` box with every value in range.
    func box(_ b: [Double], line: Int) throws(EventLogError) {
        guard b.count == 4 else {
            throw EventLogError(path: log.path, line: line, .boundingBoxSize(count: b.count))
        }
        for v in b { _ = try value(v, "box coordinate", line: line) }
    }

    /// The bounding box `[x, y, w, h]` of four corners, each `[x, y]` in range.
    func boundingBox(of quad: Quadrilateral, line: Int) throws(EventLogError) -> [Double] {
        for corner in quad.corners {
            guard corner.count == 2 else {
                throw EventLogError(path: log.path, line: line, .cornerSize(count: corner.count))
            }
            for v in corner { _ = try value(v, "corner coordinate", line: line) }
        }
        let xs = quad.corners.map { $0[0] }, ys = quad.corners.map { $0[1] }
        return [xs.min()!, ys.min()!, xs.max()! - xs.min()!, ys.max()! - ys.min()!]
    }

    /// `[frame, x, y, …]` points: frames of the recording, ascending; other values finite and
    /// within ±``limit``.
    func points(_ points: [[Double]], line: Int) throws(EventLogError) {
        var previous = -1
        for (i, p) in points.enumerated() {
            guard p.count >= 3 else {
                throw EventLogError(path: log.path, line: line, .pointSize(point: i + 1, count: p.count))
            }
            guard let frame = Int(exactly: p[0]), frame >= 0, frame < log.header.frameCount else {
                throw EventLogError(path: log.path, line: line, .pointFrameOutside(point: i + 1, frame: p[0], frameCount: log.header.frameCount))
            }
            guard frame > previous else {
                throw EventLogError(path: log.path, line: line, .pointsOutOfOrder(point: i + 1, frame: frame, previous: previous))
            }
            previous = frame
            for v in p.dropFirst() { _ = try value(v, "point \(i + 1) value", line: line) }
        }
    }
}
