import LumaAnalysis
/// What a log says about objects over time, gathered from its events: the shapes that
/// ``LogDiff`` compares and ``LogScore`` scores.
///
/// Events are recognised by their kind, whichever analyzer emitted them, so a plugin that emits
/// the same kinds with the same payload keys is diffed and scored like the built-ins:
/// - `trajectory.end` (`id`, `points` `[[frame, x, y, radius], …]`, `confidence`, `reason`) is one
///   trajectory; `trajectory` events (`id`, `confidence`) add its per-frame confidence;
/// - `track`, `rectangleTrack` (`id`, `boundingBox` `[x, y, w, h]` or four corners, `confidence`),
///   `track.lost` and `track.recovered` (`id`) make up tracks;
/// - `diff` (`changedFraction`, `blobs`) are frame-differencing statistics;
/// - every other kind is kept per frame as raw payloads and compared as JSON.
public struct LoggedObservations: Sendable {
    public var trajectories: [LoggedTrajectory] = []
    public var tracks: [LoggedTrack] = []
    /// Per analyzer emitting `diff` events: frame → statistics.
    public var differencing: [(analyzer: String, frames: [Int: LoggedDifferencing])] = []
    /// Events of any other kind, per `analyzer.kind` in log order: frame → payloads.
    public var otherEvents: [(name: String, frames: [Int: [JSONValue]])] = []

    /// Gathers the observations of `log`, checking every number it will compute with where it
    /// enters: a point's frame must be a frame of the recording, points in frame order, and
    /// coordinates, sizes and confidences finite and within ±10^6. A log breaking this (edited by
    /// hand, or hostile) is refused with its file and line, never trapped on later.
    public init(_ log: EventLog) throws(EventLogError) {
        let check = ObservationCheck(log: log)
        var trajectoryIndex: [String: Int] = [:]
        var observationConfidence: [String: [Int: Double]] = [:]
        var trackIndex: [String: Int] = [:]
        func track(_ id: String, analyzer: String, kind: String) -> Int {
            let key = kind + " " + id
            if let i = trackIndex[key] { return i }
            tracks.append(LoggedTrack(id: id, analyzer: analyzer, kind: kind))
            trackIndex[key] = tracks.count - 1
            return tracks.count - 1
        }
        for (k, event) in log.events.enumerated() {
            let data = event.data
            // Every line of a log after the header is an event: event k is on line k + 2.
            let line = k + 2
            switch event.kind {
            case "trajectory.end":
                guard let id = data["id"]?.stringValue else { continue }
                let points = data["points"]?.arrayValue?.compactMap { $0.arrayValue?.compactMap(\.doubleValue) }.filter { $0.count >= 3 } ?? []
                try check.points(points, line: line)
                trajectoryIndex[id] = trajectories.count
                var trajectory = LoggedTrajectory(id: id, analyzer: event.analyzer, points: points,
                                                  confidence: try check.value(data["confidence"]?.doubleValue ?? 0, "confidence", line: line),
                                                  reason: data["reason"]?.stringValue ?? "", endFrame: event.frame)
                if let x = data["timeFit"]?["x"]?.arrayValue?.compactMap(\.doubleValue),
                   let y = data["timeFit"]?["y"]?.arrayValue?.compactMap(\.doubleValue), x.count == 2, y.count == 3 {
                    for v in x + y { _ = try check.value(v, "timeFit coefficient", line: line) }
                    trajectory.timeFit = LoggedTrajectory.TimeFit(x: x, y: y)
                }
                trajectories.append(trajectory)
            case "trajectory":
                guard let id = data["id"]?.stringValue else { continue }
                observationConfidence[id, default: [:]][event.frame] = try check.value(data["confidence"]?.doubleValue ?? 0, "confidence", line: line)
            case "track", "rectangleTrack":
                guard let id = data["id"]?.stringValue, let box = Self.box(of: data) else { continue }
                for v in box { _ = try check.value(v, "box coordinate", line: line) }
                let i = track(id, analyzer: event.analyzer, kind: event.kind)
                tracks[i].label = tracks[i].label ?? data["label"]?.stringValue
                tracks[i].boxes[event.frame] = box
                tracks[i].confidences[event.frame] = try check.value(data["confidence"]?.doubleValue ?? 0, "confidence", line: line)
            case "track.lost":
                guard let id = data["id"]?.stringValue else { continue }
                tracks[track(id, analyzer: event.analyzer, kind: "track")].lostAt.append(event.frame)
            case "track.recovered":
                guard let id = data["id"]?.stringValue else { continue }
                tracks[track(id, analyzer: event.analyzer, kind: "track")].recoveredAt.append(event.frame)
            case "diff":
                let statistics = LoggedDifferencing(changedFraction: try check.value(data["changedFraction"]?.doubleValue ?? 0, "changedFraction", line: line),
                                                      blobs: data["blobs"]?.arrayValue?.count ?? 0)
                if let i = differencing.firstIndex(where: { $0.analyzer == event.analyzer }) {
                    differencing[i].frames[event.frame] = statistics
                } else {
                    differencing.append((event.analyzer, [event.frame: statistics]))
                }
            default:
                let name = event.analyzer + "." + event.kind
                if let i = otherEvents.firstIndex(where: { $0.name == name }) {
                    otherEvents[i].frames[event.frame, default: []].append(data)
                } else {
                    otherEvents.append((name, [event.frame: [data]]))
                }
            }
        }
        for (id, confidences) in observationConfidence {
            if let i = trajectoryIndex[id] { trajectories[i].observationConfidence = confidences }
        }
    }

    /// `[x, y, w, h]` from a `boundingBox`, or the bounding box of four corners.
    static func box(of data: JSONValue) -> [Double]? {
        if let b = data["boundingBox"]?.arrayValue?.compactMap(\.doubleValue), b.count == 4 { return b }
        let corners = ["topLeft", "topRight", "bottomRight", "bottomLeft"].compactMap { data[$0]?.arrayValue?.compactMap(\.doubleValue) }
        guard corners.count == 4, corners.allSatisfy({ $0.count == 2 }) else { return nil }
        let xs = corners.map { $0[0] }, ys = corners.map { $0[1] }
        return [xs.min()!, ys.min()!, xs.max()! - xs.min()!, ys.max()! - ys.min()!]
    }
}

/// One trajectory of a log, from its `trajectory.end` event.
public struct LoggedTrajectory: Sendable, Equatable {
    public var id: String
    public var analyzer: String
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
    public var timeFit: TimeFit?

    /// `x(t) = x[0] + x[1]·t`, `y(t) = y[0] + y[1]·t + y[2]·t²`, `t` in seconds from the first detection.
    public struct TimeFit: Sendable, Equatable {
        public var x: [Double]
        public var y: [Double]
    }

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

    public var firstFrame: Int { points.first.map { frameNumber($0[0]) } ?? endFrame }
    public var lastFrame: Int { points.last.map { frameNumber($0[0]) } ?? endFrame }
}

/// One track of a log: its box and confidence in every frame it was live, and when it was lost
/// and recovered.
public struct LoggedTrack: Sendable, Equatable {
    public var id: String
    public var analyzer: String
    /// `track` or `rectangleTrack`.
    public var kind: String
    public var label: String?
    /// Frame → `[x, y, w, h]` (normalized, lower-left origin).
    public var boxes: [Int: [Double]] = [:]
    public var confidences: [Int: Double] = [:]
    public var lostAt: [Int] = []
    public var recoveredAt: [Int] = []

    public init(id: String, analyzer: String, kind: String) {
        self.id = id
        self.analyzer = analyzer
        self.kind = kind
    }

    /// The frames with a box, ascending.
    public var frames: [Int] { boxes.keys.sorted() }
}

/// What a `diff` event says about one frame.
public struct LoggedDifferencing: Sendable, Equatable {
    public var changedFraction: Double
    public var blobs: Int
}

/// Intersection over union of two `[x, y, w, h]` boxes, 0...1; 0 when both are empty.
/// Clamped to 1: rounding can push identical boxes a hair above it, which would count them as
/// a success at OTB's threshold 1, where nothing may pass.
public func intersectionOverUnion(_ a: [Double], _ b: [Double]) -> Double {
    let ix = max(0, min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]))
    let iy = max(0, min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]))
    let union = a[2] * a[3] + b[2] * b[3] - ix * iy
    return union > 0 ? min(1, ix * iy / union) : 0
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
            throw EventLogError(path: log.path, line: line, reason: "\(what) \(v) is outside ±\(Int(Self.limit)): not an observation")
        }
        return v
    }

    /// `[frame, x, y, …]` points: frames of the recording, ascending; other values finite and
    /// within ±``limit``.
    func points(_ points: [[Double]], line: Int) throws(EventLogError) {
        var previous = -1
        for (i, p) in points.enumerated() {
            guard let frame = Int(exactly: p[0]), frame >= 0, frame < log.header.frameCount else {
                throw EventLogError(path: log.path, line: line, reason: "point \(i + 1) has frame \(p[0]), not a frame of the recording (0...\(log.header.frameCount - 1))")
            }
            guard frame > previous else {
                throw EventLogError(path: log.path, line: line, reason: "point \(i + 1) has frame \(frame) after frame \(previous): points must be in frame order")
            }
            previous = frame
            for v in p.dropFirst() { _ = try value(v, "point \(i + 1) value", line: line) }
        }
    }
}
