import Foundation
import LumaAnalysis
import LumaBase
import LumaEngine
/// A semantic comparison of two event logs of the same recording: which observations were added,
/// lost or changed beyond a tolerance, not which lines differ.
///
/// Observations are paired by content, overlap in time and space, before id: a trajectory's id is
/// derived from its ordinal, so after one lost path every later id shifts, and the same id in the
/// two logs may name two objects. The best-agreeing pairs are taken first; ties go to the closer pair, then
/// to the same id, then to the earlier observations, so the pairing is the same on every run:
/// - trajectories pair when they share frames whose points lie within
///   ``Tolerances/matchPixels`` (or twice the ball's radius, if larger), the more such frames the
///   better; a pair is *changed* when
///   a shared point moved more than ``Tolerances/pointPixels``, the path gained or lost frames,
///   its confidence changed more than ``Tolerances/confidence``, or it ends for another reason;
/// - tracks pair by a mean IoU of at least 0.5 over shared frames, the more overlap (IoU summed
///   over the shared frames) the better; a track no such pair claims pairs with the track of the
///   same id it shares frames with (a track's id names the object it was seeded on, so a box that
///   drifted away is reported drifting, not lost and added); a pair is *changed*
///   when a box drifts below ``Tolerances/iou`` against the old box, the track is live on other
///   frames, its confidence changes more than the tolerance, or it is lost or recovered at
///   other frames;
/// - differencing statistics differ when a frame's changed fraction moves more than
///   ``Tolerances/changedFraction`` or its blob count changes (one entry per analyzer);
/// - events of other kinds differ when a frame's payloads differ beyond 1e-6 (one entry per kind).
///
/// Each difference is reported once, with the frames it spans, where the object is
/// (``Change/place``), and what changed.
public struct LogDiff: Sendable {
    /// How far apart two observations may be and still count as the same.
    public struct Tolerances: Sendable, Equatable {
        /// A trajectory point may move this far (pixels) and still count as unchanged.
        public var pointPixels = 1.0
        /// Points this close (pixels) pair two trajectories in the first place.
        public var matchPixels = 10.0
        /// A track's box counts as drifting when its IoU with the old box falls below this.
        public var iou = 0.9
        /// Confidence changes up to this are not reported.
        public var confidence = 0.05
        /// A differencing frame's changed fraction may move this much.
        public var changedFraction = 0.001

        public init() {}
    }

    /// One difference between the logs.
    public struct Change: Sendable, Equatable {
        public enum Kind: String, Sendable {
            case added, lost, changed
        }
        public var kind: Kind
        /// `trajectory`, `track`, `rectangleTrack`, `differencing` or `ANALYZER.KIND`.
        public var subject: String
        /// The observation's id in the old log (`nil` for `added`); the analyzer for statistics.
        ///
        /// Ids are derived from an ordinal, so the same id in the two logs may name two different
        /// observations (a throw found earlier shifts the ordinals): a change names each log's id
        /// separately, and a reader must never match them across logs.
        public var oldId: String?
        /// The observation's id in the new log (`nil` for `lost`); the analyzer for statistics.
        public var newId: String?
        public var frames: ClosedRange<Int>
        /// Where the object is (the new log's, or the old log's when lost), so a reader can tell
        /// two objects apart whatever their ids; `nil` for statistics and other events.
        public var place: Place?
        /// What changed, in words (`points moved in 8 of 19 frames, up to 3.2 px`).
        public var details: [String]

        public init(kind: Kind, subject: String, oldId: String?, newId: String?, frames: ClosedRange<Int>, place: Place? = nil,
                    details: [String]) {
            (self.kind, self.subject, self.oldId, self.newId, self.frames, self.place, self.details) = (kind, subject, oldId, newId, frames, place, details)
        }

        /// The id in the new log, or in the old one for `lost`: for ordering.
        var id: String { newId ?? oldId ?? "" }
    }

    /// Where an object is: its centre (a trajectory's ball, a track's box) in its first and its
    /// last frame, in pixels from the frame's top left corner.
    public struct Place: Sendable, Equatable {
        public var start: SIMD2<Double>
        public var end: SIMD2<Double>

        public init(start: SIMD2<Double>, end: SIMD2<Double>) { (self.start, self.end) = (start, end) }

        /// The place of normalized centres (lower-left origin, as events hold them) in a frame of
        /// `pixels` (width, height).
        init(normalized start: SIMD2<Double>, _ end: SIMD2<Double>, pixels: (Double, Double)) {
            func flipped(_ p: SIMD2<Double>) -> SIMD2<Double> { [p.x * pixels.0, (1 - p.y) * pixels.1] }
            self.init(start: flipped(start), end: flipped(end))
        }
    }

    public var tolerances: Tolerances
    /// Analyzer options that differ between the two headers, as `name.key: old → new`.
    public var settingChanges: [String]
    public var changes: [Change]

    public var isSame: Bool { changes.isEmpty }

    /// Compares `old` with `new`. Throws `RegressionError/otherRecording(old:new:)` when they
    /// are not logs of the same recording (as far as both logs know), unless `force` is set, and an `EventLogError` naming
    /// the line of an event it cannot read.
    public init(old: EventLog, new: EventLog, tolerances: Tolerances = Tolerances(), force: Bool = false) throws {
        // A log cut short before its footer (version 2) does not say which recording it is of.
        if !force, old.header.knowsRecording, new.header.knowsRecording, old.header.recordingDigest != new.header.recordingDigest {
            throw RegressionError.otherRecording(old: old.path, new: new.path, oldRecording: old.header.recordingFile,
                                                 newRecording: new.header.recordingFile, oldDigest: old.header.recordingDigest,
                                                 newDigest: new.header.recordingDigest,
                                                 oldTimescale: old.header.timescale, newTimescale: new.header.timescale)
        }
        self.tolerances = tolerances
        settingChanges = Self.settingChanges(old.header, new.header)
        let (a, b) = (try LoggedObservations(old), try LoggedObservations(new))
        let pixels = (Double(new.header.width), Double(new.header.height))
        var changes = TrajectoryComparison(tolerances: tolerances, pixels: pixels).changes(a.trajectories, b.trajectories)
        changes += TrackComparison(tolerances: tolerances, pixels: pixels).changes(a.tracks, b.tracks)
        changes += Self.differencingChanges(a.differencing, b.differencing, tolerances: tolerances)
        changes += Self.otherChanges(a.otherEvents, b.otherEvents)
        self.changes = changes
    }

    // MARK: - Settings

    static func settingChanges(_ a: EventLogHeader, _ b: EventLogHeader) -> [String] {
        var out: [String] = []
        for x in a.analyzers where !b.analyzers.contains(where: { $0.name == x.name }) { out.append("\(x.name): removed") }
        for y in b.analyzers {
            guard let x = a.analyzers.first(where: { $0.name == y.name }) else {
                out.append("\(y.name): added")
                continue
            }
            if x.analyzer != y.analyzer { out.append("\(y.name).analyzer: \(x.analyzer) → \(y.analyzer)") }
            out += programChanges(x, y)
            if x.version != y.version { out.append("\(y.name).version: \(x.version) → \(y.version)") }
            if x.frameAnalysisSpacing != y.frameAnalysisSpacing {
                out.append("\(y.name).frameAnalysisSpacing: \(JSONValue.format(x.frameAnalysisSpacing)) → \(JSONValue.format(y.frameAnalysisSpacing))")
            }
            if x.regionOfInterest != y.regionOfInterest { out.append("\(y.name).regionOfInterest: \(x.regionOfInterest) → \(y.regionOfInterest)") }
            let keys = (x.configuration.objectValue ?? []).map(\.key) + (y.configuration.objectValue ?? []).map(\.key)
            var seen: Set<String> = []
            for key in keys where seen.insert(key).inserted {
                let (u, v) = (x.configuration[key], y.configuration[key])
                if u != v { out.append("\(y.name).\(key): \(u?.serialized ?? "(none)") → \(v?.serialized ?? "(none)")") }
            }
        }
        if (a.firstFrame, a.lastFrame) != (b.firstFrame, b.lastFrame) {
            out.append("frames: \(a.firstFrame)…\(a.lastFrame) → \(b.firstFrame)…\(b.lastFrame)")
        }
        return out
    }

    /// `NAME.program: plugin.py changed (sha256 1a2b3c4d… → 5e6f7a8b…)`, one line per file
    /// changed, added or gone.
    public static func programChanges(_ x: AnalyzerSetup, _ y: AnalyzerSetup) -> [String] {
        var out: [String] = []
        for a in x.programFiles {
            guard let b = y.programFiles.first(where: { $0.path == a.path }) else {
                out.append("\(y.name).program: \(a.path) no longer run")
                continue
            }
            if a.sha256 != b.sha256 { out.append("\(y.name).program: \(a.path) changed (sha256 \(a.sha256.prefix(12))… → \(b.sha256.prefix(12))…)") }
        }
        for b in y.programFiles where !x.programFiles.contains(where: { $0.path == b.path }) {
            out.append("\(y.name).program: \(b.path) (sha256 \(b.sha256.prefix(12))…) now run")
        }
        return out
    }

    // MARK: - Differencing and other events

    static func differencingChanges(_ a: [(analyzer: String, frames: [Int: LoggedDifferencing])],
                                    _ b: [(analyzer: String, frames: [Int: LoggedDifferencing])],
                                    tolerances: Tolerances) -> [Change] {
        var out: [Change] = []
        for name in Self.names(a.map(\.analyzer), b.map(\.analyzer)) {
            let x = a.first { $0.analyzer == name }?.frames ?? [:], y = b.first { $0.analyzer == name }?.frames ?? [:]
            var differing: [Int] = [], largest = 0.0, blobFrames = 0, missing = 0
            for frame in Set(x.keys).union(y.keys).sorted() {
                guard let u = x[frame], let v = y[frame] else {
                    missing += 1
                    differing.append(frame)
                    continue
                }
                let delta = abs(u.changedFraction - v.changedFraction)
                if delta > tolerances.changedFraction || u.blobs != v.blobs {
                    differing.append(frame)
                    largest = max(largest, delta)
                    if u.blobs != v.blobs { blobFrames += 1 }
                }
            }
            guard let first = differing.first, let last = differing.last else { continue }
            var details = ["statistics differ in \(differing.count) frames"]
            if largest > tolerances.changedFraction { details.append("changed fraction up to \(JSONValue.format(largest)) apart") }
            if blobFrames > 0 { details.append("blob count differs in \(blobFrames) frames") }
            if missing > 0 { details.append("\(missing) frames analyzed in only one log") }
            out.append(Change(kind: .changed, subject: "differencing", oldId: name, newId: name, frames: first...last, details: details))
        }
        return out
    }

    static func otherChanges(_ a: [(name: String, frames: [Int: [JSONValue]])], _ b: [(name: String, frames: [Int: [JSONValue]])]) -> [Change] {
        var out: [Change] = []
        for name in Self.names(a.map(\.name), b.map(\.name)) {
            let x = a.first { $0.name == name }?.frames ?? [:], y = b.first { $0.name == name }?.frames ?? [:]
            let differing = Set(x.keys).union(y.keys).sorted().filter { frame in
                let (u, v) = (x[frame] ?? [], y[frame] ?? [])
                return u.count != v.count || zip(u, v).contains { !Self.nearlyEqual($0, $1) }
            }
            guard let first = differing.first, let last = differing.last else { continue }
            let (countA, countB) = (x.values.reduce(0) { $0 + $1.count }, y.values.reduce(0) { $0 + $1.count })
            var details = ["events differ in \(differing.count) frames"]
            if countA != countB { details.append("\(countA) → \(countB) events") }
            out.append(Change(kind: .changed, subject: name, oldId: name, newId: name, frames: first...last, details: details))
        }
        return out
    }

    /// Equal JSON, with numbers equal to within 1e-6 (their printed precision).
    static func nearlyEqual(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { nearlyEqual($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && nearlyEqual($0.value, $1.value) }
        default:
            if let u = a.doubleValue, let v = b.doubleValue { return abs(u - v) <= 1.5e-6 }
            return a == b
        }
    }

    /// Names of both lists, in first-seen order.
    static func names(_ a: [String], _ b: [String]) -> [String] {
        var seen: Set<String> = []
        return (a + b).filter { seen.insert($0).inserted }
    }
}

/// A possible pairing of old observation `i` with new observation `j`: how much they agree
/// (`score`, higher is better), how close they are where they agree (`closeness`, higher is
/// closer), and whether they have the same id.
struct PairCandidate {
    var score: Double
    var closeness: Double
    var sameId: Bool
    var i: Int
    var j: Int
}

/// Pairs old with new observations, best candidates first: the higher score, then the closer, then
/// the same id, then the earlier ones (so ties break the same way on every run). Returns each old
/// observation's partner and which new ones were taken.
func greedyPairs(_ candidates: [PairCandidate], old: Int, new: Int) -> (pairOfOld: [Int?], usedNew: [Bool]) {
    let ordered = candidates.sorted {
        ($0.score, $0.closeness, $0.sameId ? 1 : 0, -$0.i, -$0.j) > ($1.score, $1.closeness, $1.sameId ? 1 : 0, -$1.i, -$1.j)
    }
    var pairOfOld = [Int?](repeating: nil, count: old), usedNew = [Bool](repeating: false, count: new)
    for c in ordered where pairOfOld[c.i] == nil && !usedNew[c.j] {
        pairOfOld[c.i] = c.j
        usedNew[c.j] = true
    }
    return (pairOfOld, usedNew)
}

// MARK: - Trajectories

struct TrajectoryComparison {
    var tolerances: LogDiff.Tolerances
    /// Frame width and height, for distances in pixels.
    var pixels: (Double, Double)

    func changes(_ old: [LoggedTrajectory], _ new: [LoggedTrajectory]) -> [LogDiff.Change] {
        // Agreement of every old/new pair: shared frames, and those within the match distance.
        var candidates: [PairCandidate] = []
        for (i, a) in old.enumerated() {
            let byFrame = Dictionary(a.points.map { (frameNumber($0[0]), $0) }, uniquingKeysWith: { x, _ in x })
            for (j, b) in new.enumerated() where a.analyzer == b.analyzer && b.firstFrame <= a.lastFrame && a.firstFrame <= b.lastFrame {
                var agreeing = 0, apart = 0.0
                for q in b.points {
                    guard let p = byFrame[frameNumber(q[0])] else { continue }
                    let radius = max(p.count > 3 ? p[3] : 0, q.count > 3 ? q[3] : 0) * pixels.0
                    let d = distance(p, q)
                    if d <= max(tolerances.matchPixels, 2 * radius) {
                        agreeing += 1
                        apart += d
                    }
                }
                if agreeing > 0 {
                    candidates.append(PairCandidate(score: Double(agreeing), closeness: -apart / Double(agreeing), sameId: a.id == b.id, i: i, j: j))
                }
            }
        }
        let (pairOfOld, usedNew) = greedyPairs(candidates, old: old.count, new: new.count)
        var out: [LogDiff.Change] = []
        for (i, a) in old.enumerated() {
            guard let j = pairOfOld[i] else {
                out.append(.init(kind: .lost, subject: a.subject, oldId: a.id, newId: nil, frames: a.firstFrame...a.lastFrame, place: place(a),
                                 details: ["\(a.points.count) points, confidence \(DecimalText.fixed(a.confidence)), ended: \(a.reason)"]))
                continue
            }
            let b = new[j], details = compare(a, b)
            if !details.isEmpty {
                out.append(.init(kind: .changed, subject: b.subject, oldId: a.id, newId: b.id,
                                 frames: min(a.firstFrame, b.firstFrame)...max(a.lastFrame, b.lastFrame), place: place(b), details: details))
            }
        }
        for (j, b) in new.enumerated() where !usedNew[j] {
            out.append(.init(kind: .added, subject: b.subject, oldId: nil, newId: b.id, frames: b.firstFrame...b.lastFrame, place: place(b),
                             details: ["\(b.points.count) points, confidence \(DecimalText.fixed(b.confidence)), ended: \(b.reason)"]))
        }
        return out.sorted { ($0.frames.lowerBound, $0.id) < ($1.frames.lowerBound, $1.id) }
    }

    private func compare(_ a: LoggedTrajectory, _ b: LoggedTrajectory) -> [String] {
        var details: [String] = []
        let byFrame = Dictionary(a.points.map { (frameNumber($0[0]), $0) }, uniquingKeysWith: { x, _ in x })
        var moved = 0, shared = 0, largest = 0.0
        for q in b.points {
            guard let p = byFrame[frameNumber(q[0])] else { continue }
            shared += 1
            let d = distance(p, q)
            if d > tolerances.pointPixels {
                moved += 1
                largest = max(largest, d)
            }
        }
        if moved > 0 { details.append("points moved in \(moved) of \(shared) frames, up to \(DecimalText.fixed(largest, 1)) px") }
        if (a.firstFrame, a.lastFrame, a.points.count) != (b.firstFrame, b.lastFrame, b.points.count) {
            details.append("path \(a.firstFrame)…\(a.lastFrame) (\(a.points.count) points) → \(b.firstFrame)…\(b.lastFrame) (\(b.points.count) points)")
        }
        if abs(a.confidence - b.confidence) > tolerances.confidence {
            details.append("confidence \(DecimalText.fixed(a.confidence)) → \(DecimalText.fixed(b.confidence))")
        }
        let (x, y) = (a.observationConfidence, b.observationConfidence)
        let onlyOld = x.keys.filter { y[$0] == nil }.count, onlyNew = y.keys.filter { x[$0] == nil }.count
        let confidenceFrames = x.keys.filter { f in y[f].map { abs($0 - x[f]!) > tolerances.confidence } ?? false }.count
        if onlyOld > 0 || onlyNew > 0 { details.append("observed in \(x.count) → \(y.count) frames") }
        if confidenceFrames > 0 { details.append("observation confidence differs in \(confidenceFrames) frames") }
        if a.reason != b.reason { details.append("ends by \(a.reason) → \(b.reason)") }
        return details
    }

    /// Where the path starts and ends.
    private func place(_ t: LoggedTrajectory) -> LogDiff.Place? {
        guard let first = t.points.first, let last = t.points.last, first.count > 2, last.count > 2 else { return nil }
        return LogDiff.Place(normalized: [first[1], first[2]], [last[1], last[2]], pixels: pixels)
    }

    private func distance(_ p: [Double], _ q: [Double]) -> Double {
        let dx = (p[1] - q[1]) * pixels.0, dy = (p[2] - q[2]) * pixels.1
        return (dx * dx + dy * dy).squareRoot()
    }
}

// MARK: - Tracks

struct TrackComparison {
    var tolerances: LogDiff.Tolerances
    /// Frame width and height, for places in pixels.
    var pixels: (Double, Double)

    func changes(_ old: [LoggedTrack], _ new: [LoggedTrack]) -> [LogDiff.Change] {
        let (pairOfOld, usedNew) = greedyPairs(candidates(old, new), old: old.count, new: new.count)
        var out: [LogDiff.Change] = []
        for (i, a) in old.enumerated() {
            guard let j = pairOfOld[i] else {
                out.append(.init(kind: .lost, subject: a.kind, oldId: a.id, newId: nil, frames: span(a), place: place(a), details: [summary(a)]))
                continue
            }
            let b = new[j], details = compare(a, b)
            if !details.isEmpty {
                let (x, y) = (span(a), span(b))
                out.append(.init(kind: .changed, subject: b.kind, oldId: a.id, newId: b.id,
                                 frames: min(x.lowerBound, y.lowerBound)...max(x.upperBound, y.upperBound), place: place(b), details: details))
            }
        }
        for (j, b) in new.enumerated() where !usedNew[j] {
            out.append(.init(kind: .added, subject: b.kind, oldId: nil, newId: b.id, frames: span(b), place: place(b), details: [summary(b)]))
        }
        return out.sorted { ($0.frames.lowerBound, $0.subject, $0.id) < ($1.frames.lowerBound, $1.subject, $1.id) }
    }

    /// The pairs that may pair: of one analyzer, kind and shape, with a mean IoU of at least 0.5
    /// over their shared frames, or else of one id. Only pairs whose boxes overlap somewhere
    /// (``TouchingTracks``) can reach that mean, so only they and the pairs of one id are scored.
    func candidates(_ old: [LoggedTrack], _ new: [LoggedTrack]) -> [PairCandidate] {
        var pairs = TouchingTracks.pairs(old, new)
        var newById: [String: [Int]] = [:]
        for (j, b) in new.enumerated() { newById[b.id, default: []].append(j) }
        for (i, a) in old.enumerated() { for j in newById[a.id] ?? [] { pairs.insert(.init(old: i, new: j)) } }
        return pairs.compactMap { candidate(old, $0.old, new, $0.new) }
    }

    /// Old track `i` and new track `j` as a pair that may pair, or nil.
    func candidate(_ old: [LoggedTrack], _ i: Int, _ new: [LoggedTrack], _ j: Int) -> PairCandidate? {
        let (a, b) = (old[i], new[j])
        guard a.kind == b.kind && a.shape == b.shape && a.analyzer == b.analyzer else { return nil }
        let shared = a.boxes.keys.filter { b.boxes[$0] != nil }.sorted()
        guard !shared.isEmpty else { return nil }
        let overlap = shared.reduce(0.0) { $0 + intersectionOverUnion(a.boxes[$1]!, b.boxes[$1]!) }
        let mean = overlap / Double(shared.count)
        if mean >= 0.5 { return PairCandidate(score: overlap, closeness: mean, sameId: a.id == b.id, i: i, j: j) }
        // A track's id names the object it was seeded on, so a box that drifted off its old place
        // is that track drifting, not one lost and one found; such a pair ranks below every pair
        // that agrees by content (score -1), so swapped ids still pair by where the boxes are.
        return a.id == b.id ? PairCandidate(score: -1, closeness: mean, sameId: true, i: i, j: j) : nil
    }

    private func compare(_ a: LoggedTrack, _ b: LoggedTrack) -> [String] {
        var details: [String] = []
        var drifting: [Int] = [], lowest = 1.0, confidenceFrames = 0, largestConfidence = 0.0
        for frame in a.frames {
            guard let u = a.boxes[frame], let v = b.boxes[frame] else { continue }
            let iou = intersectionOverUnion(u, v)
            if iou < tolerances.iou {
                drifting.append(frame)
                lowest = min(lowest, iou)
            }
            let delta = abs((a.confidences[frame] ?? 0) - (b.confidences[frame] ?? 0))
            if delta > tolerances.confidence {
                confidenceFrames += 1
                largestConfidence = max(largestConfidence, delta)
            }
        }
        if let first = drifting.first {
            details.append("box drifts in \(drifting.count) frames from frame \(first), IoU with the old box down to \(DecimalText.fixed(lowest))")
        }
        let (x, y) = (a.frames, b.frames)
        if x != y {
            let onlyOld = Set(x).subtracting(y).count, onlyNew = Set(y).subtracting(x).count
            details.append("live \(x.first ?? 0)…\(x.last ?? 0) (\(x.count) frames) → \(y.first ?? 0)…\(y.last ?? 0) (\(y.count) frames)"
                + (onlyOld + onlyNew > 0 ? ": \(onlyOld) frames only in the old log, \(onlyNew) only in the new" : ""))
        }
        if confidenceFrames > 0 {
            details.append("confidence differs in \(confidenceFrames) frames, by up to \(DecimalText.fixed(largestConfidence))")
        }
        if a.lostAt != b.lostAt { details.append("lost at frames \(list(a.lostAt)) → \(list(b.lostAt))") }
        if a.recoveredAt != b.recoveredAt { details.append("recovered at frames \(list(a.recoveredAt)) → \(list(b.recoveredAt))") }
        return details
    }

    /// The centre of the track's box in its first and last frame with one.
    private func place(_ t: LoggedTrack) -> LogDiff.Place? {
        let frames = t.frames
        guard let first = frames.first.flatMap({ t.boxes[$0] }), let last = frames.last.flatMap({ t.boxes[$0] }),
              first.count > 3, last.count > 3 else { return nil }
        func centre(_ b: [Double]) -> SIMD2<Double> { [b[0] + b[2] / 2, b[1] + b[3] / 2] }
        return LogDiff.Place(normalized: centre(first), centre(last), pixels: pixels)
    }

    private func span(_ t: LoggedTrack) -> ClosedRange<Int> {
        let frames = t.frames + t.lostAt + t.recoveredAt
        return (frames.min() ?? 0)...(frames.max() ?? 0)
    }

    private func summary(_ t: LoggedTrack) -> String {
        (t.label.map { "\($0), " } ?? "") + "\(t.boxes.count) frames" + (t.lostAt.isEmpty ? "" : ", lost \(t.lostAt.count)×")
    }

    private func list(_ frames: [Int]) -> String { frames.isEmpty ? "none" : frames.map(String.init).joined(separator: ", ") }
}
