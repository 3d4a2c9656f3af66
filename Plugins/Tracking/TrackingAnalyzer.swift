import Foundation
import LumaAnalysis
import LumaImaging

/// Follows objects through a recording from boxes given at the start, the way Vision's
/// `VNTrackObjectRequest` does on a `VNSequenceRequestHandler`, several at once.
///
/// Each seed starts an `ObjectTracker`: a kernelized correlation filter on oriented gradients
/// that also follows the object's size. Every analyzed frame, each live track emits a `track`
/// event with its box and a graded confidence. A track whose confidence stays below
/// `lostThreshold` for `lostFrames` frames, or whose box leaves the frame, emits `track.lost`; for
/// `recoverFrames` frames after that the object is looked for around where it was lost, and if it
/// is found `track.recovered` continues the same id.
///
/// Tracks are independent: cost grows linearly with their number, and there is no limit like
/// Vision's 16 per tracker type.
public struct TrackingAnalyzer: Analyzer {
    public static let name = "tracking"
    public static let version = "1"
    public static let summary = "follows seeded boxes from frame to frame (Vision's VNTrackObjectRequest, and beyond)"
    public static let eventTypes: [any EventPayload.Type] = [TrackObservation.self, TrackLost.self, TrackRecovered.self, RectangleTrackObservation.self]

    private struct Track {
        let ordinal: Int
        let seed: TrackingSeed
        var tracker: ObjectTracker?
        var state = State.waiting
        /// Frames in a row below the threshold.
        var misses = 0
        var lastConfidentFrame = 0
        var lastConfidentBox: [Double] = []
        /// For a track nominated from a rectangle: its corners (frame pixels, top-left origin,
        /// TL, TR, BR, BL) and the tracked box they were last placed in.
        var corners: [(x: Double, y: Double)]?
        var cornersBox: [Double] = []

        enum State { case waiting, live, lost(since: Int), over }
    }

    private let configuration: TrackingConfiguration
    private let streamIdentity: String
    /// The name the events are logged under: ids derive from it, so two instances never share one.
    private let instanceName: String
    private let settings: ObjectTracker.Settings
    private var tracks: [Track]
    private var nominator: MotionNominator?
    private var rectangleNominator: RectangleNominator?
    /// Analyzed frames so far.
    private var analyzed = 0

    /// Tracking follows seeds and nominated objects; with neither it has nothing to follow.
    public static func idleReason(in configuration: TrackingConfiguration) -> String? {
        guard configuration.seeds.trimmingCharacters(in: " ").isEmpty, configuration.nominate == .none else { return nil }
        return "it has no seeds and nominates nothing, so it has nothing to follow; give objects with tracking.seeds=x,y,w,h "
            + "(or px:x,y,w,h) or let it find them with tracking.nominate=motion"
    }

    /// Its planes are shrunk (motion to 320 pixels, rectangles likewise) and its patches are of a
    /// fixed size: measured on 16384×16384 frames, under 0.01 bytes per pixel; 0.5 leaves room.
    public static func memoryPerPixel(in configuration: TrackingConfiguration) -> Double { 0.5 }

    public init(configuration: TrackingConfiguration, context: AnalyzerContext) throws {
        try configuration.validate()
        self.configuration = configuration
        streamIdentity = context.stream.identity
        instanceName = context.instanceName(of: Self.self)
        settings = configuration.trackingLevel == .fast ? .fast : .accurate
        let seeds = try TrackingSeed.parse(configuration.seeds, frameSize: (context.stream.width, context.stream.height))
        let (w, h) = (Double(context.stream.width), Double(context.stream.height))
        for (n, s) in seeds.enumerated() where s.box.width * w < 2 || s.box.height * h < 2 {
            throw OptionError(option: "seeds", .analyzerRule("seed \(n + 1) is \(s.box.width * w)×\(s.box.height * h) pixels in this "
                              + "\(context.stream.width)×\(context.stream.height) recording; a box needs at least 2×2 pixels"))
        }
        tracks = seeds.enumerated().map { Track(ordinal: $0.offset, seed: $0.element) }
        if configuration.nominate == .motion {
            let rate = context.stream.nominalFrameRate
            let interval = max(rate > 0 && rate.isFinite ? 1 / rate : 1.0 / 30, context.frameAnalysisSpacing)
            nominator = MotionNominator(frameWidth: context.stream.width, frameHeight: context.stream.height,
                                        minimumSize: configuration.nominationMinimumSize * min(w, h), frameInterval: interval)
        } else if configuration.nominate == .rectangles {
            rectangleNominator = RectangleNominator(frameWidth: context.stream.width, frameHeight: context.stream.height,
                                                    minimumSize: configuration.nominationMinimumSize * min(w, h))
        }
    }

    public mutating func analyze(_ frame: Frame, into events: inout EventSink) throws {
        for i in tracks.indices {
            switch tracks[i].state {
            case .waiting:
                guard frame.index >= tracks[i].seed.frame else { continue }
                try start(i, frame, into: &events)
            case .live:
                try follow(i, frame, into: &events)
            case .lost(let since):
                try search(i, frame, lostAt: since, into: &events)
            case .over:
                continue
            }
        }
        analyzed += 1
        if nominator != nil {
            let propose = (analyzed - 1) % configuration.renominateEvery == 0
            let boxes = nominator!.observe(frame, propose: propose)
            if propose { _ = try nominate(boxes, frame, into: &events) }
        }
        if rectangleNominator != nil, (analyzed - 1) % configuration.renominateEvery == 0 {
            let quads = rectangleNominator!.propose(frame)
            for (i, q) in try nominate(quads.map(Self.boundingBox), frame, into: &events) {
                tracks[i].corners = quads[q].corners
                tracks[i].cornersBox = tracks[i].tracker!.box
                try emitCorners(i, frame, confidence: quads[q].confidence, into: &events)
            }
        }
    }

    /// Starts a track for each proposed box (frame pixels, top-left) that overlaps no track that is
    /// live or being looked for, up to `maximumTracks` of them. Returns (track index, box index) of
    /// each track started.
    private mutating func nominate(_ boxes: [[Double]], _ frame: Frame, into events: inout EventSink) throws -> [(Int, Int)] {
        var started: [(Int, Int)] = []
        for (n, b) in boxes.enumerated() {
            var occupied: [[Double]] = []
            for t in tracks {
                switch t.state {
                case .live, .lost: if let tracker = t.tracker { occupied.append(tracker.box) }
                case .waiting, .over: continue
                }
            }
            guard occupied.count < configuration.maximumTracks else { break }
            let overlaps = occupied.contains { o in
                min(o[0] + o[2], b[0] + b[2]) > max(o[0], b[0]) && min(o[1] + o[3], b[1] + b[3]) > max(o[1], b[1])
            }
            guard !overlaps else { continue }
            let box = NormalizedRect(pixelLeft: b[0], top: b[1], width: b[2], height: b[3], frameWidth: frame.width, frameHeight: frame.height)
            let seed = TrackingSeed(label: nil, box: box, frame: frame.index)
            tracks.append(Track(ordinal: tracks.count, seed: seed))
            try start(tracks.count - 1, frame, into: &events)
            started.append((tracks.count - 1, n))
        }
        return started
    }

    private mutating func start(_ i: Int, _ frame: Frame, into events: inout EventSink) throws {
        let b = tracks[i].seed.box.pixelBox(frameWidth: frame.width, frameHeight: frame.height)
        tracks[i].tracker = ObjectTracker(frame: frame, centreX: b.left + b.width / 2, centreY: b.top + b.height / 2, width: b.width,
                                          height: b.height, settings: settings)
        tracks[i].state = .live
        tracks[i].lastConfidentFrame = frame.index
        let box = normalizedBox(tracks[i].tracker!, frame)
        tracks[i].lastConfidentBox = box
        try events.emit(TrackObservation(id: id(i), label: tracks[i].seed.label, boundingBox: box, confidence: 1))
    }

    private mutating func follow(_ i: Int, _ frame: Frame, into events: inout EventSink) throws {
        let m = tracks[i].tracker!.track(frame, learnAbove: max(configuration.lostThreshold, 0.5))
        let tracker = tracks[i].tracker!
        let inside = tracker.centreX >= 0 && tracker.centreX < Double(frame.width) && tracker.centreY >= 0
            && tracker.centreY < Double(frame.height)
        guard inside else {
            tracks[i].state = .lost(since: frame.index)
            try events.emit(lost(i, reason: "exit"))
            return
        }
        let box = normalizedBox(tracker, frame)
        try events.emit(TrackObservation(id: id(i), label: tracks[i].seed.label, boundingBox: box, confidence: m.confidence))
        if tracks[i].corners != nil { try followCorners(i, frame, trackConfidence: m.confidence, into: &events) }
        if m.confidence >= configuration.lostThreshold {
            tracks[i].misses = 0
            tracks[i].lastConfidentFrame = frame.index
            tracks[i].lastConfidentBox = box
        } else {
            tracks[i].misses += 1
            if tracks[i].misses >= configuration.lostFrames {
                tracks[i].state = .lost(since: frame.index)
                try events.emit(lost(i, reason: "occluded"))
            }
        }
    }

    /// Places a rectangle track's corners in this frame: the rectangle found again near the
    /// tracked box, or the last corners moved and scaled with the box.
    private mutating func followCorners(_ i: Int, _ frame: Frame, trackConfidence: Double, into events: inout EventSink) throws {
        let box = tracks[i].tracker!.box
        if let q = rectangleNominator?.refine(frame, near: box) {
            tracks[i].corners = q.corners
            tracks[i].cornersBox = box
            try emitCorners(i, frame, confidence: trackConfidence * q.confidence, into: &events)
            return
        }
        let old = tracks[i].cornersBox
        let (sx, sy) = (box[2] / old[2], box[3] / old[3])
        tracks[i].corners = tracks[i].corners!.map {
            (x: box[0] + box[2] / 2 + ($0.x - old[0] - old[2] / 2) * sx, y: box[1] + box[3] / 2 + ($0.y - old[1] - old[3] / 2) * sy)
        }
        tracks[i].cornersBox = box
        try emitCorners(i, frame, confidence: trackConfidence / 2, into: &events)
    }

    private func emitCorners(_ i: Int, _ frame: Frame, confidence: Double, into events: inout EventSink) throws {
        let c = tracks[i].corners!.map { NormalizedPoint(pixelX: $0.x, pixelY: $0.y, frameWidth: frame.width, frameHeight: frame.height).array }
        try events.emit(RectangleTrackObservation(id: id(i), topLeft: c[0], topRight: c[1], bottomRight: c[2],
                                                                    bottomLeft: c[3], confidence: confidence))
    }

    /// A quadrilateral's bounding box, frame pixels: x, y, width, height.
    private static func boundingBox(_ q: DetectedQuadrilateral) -> [Double] {
        let xs = q.corners.map(\.x), ys = q.corners.map(\.y)
        return [xs.min()!, ys.min()!, xs.max()! - xs.min()!, ys.max()! - ys.min()!]
    }

    private mutating func search(_ i: Int, _ frame: Frame, lostAt: Int, into events: inout EventSink) throws {
        guard frame.index - lostAt <= configuration.recoverFrames else {
            tracks[i].state = .over
            tracks[i].tracker = nil
            return
        }
        let threshold = max(configuration.lostThreshold, 0.5)
        guard let m = tracks[i].tracker!.reacquire(frame, threshold: threshold) else { return }
        let box = normalizedBox(tracks[i].tracker!, frame)
        tracks[i].state = .live
        tracks[i].misses = 0
        tracks[i].lastConfidentFrame = frame.index
        tracks[i].lastConfidentBox = box
        try events.emit(TrackRecovered(id: id(i), label: tracks[i].seed.label, boundingBox: box,
                                                          confidence: m.confidence, framesLost: frame.index - lostAt))
    }

    private func lost(_ i: Int, reason: String) -> TrackLost {
        TrackLost(id: id(i), label: tracks[i].seed.label, boundingBox: tracks[i].lastConfidentBox,
                  lastConfidentFrame: tracks[i].lastConfidentFrame, reason: reason)
    }

    /// The tracker's box, normalized, lower-left origin, clipped to the frame.
    private func normalizedBox(_ t: ObjectTracker, _ frame: Frame) -> [Double] {
        let (w, h) = (Double(frame.width), Double(frame.height))
        let left = max(0, t.centreX - t.width / 2), right = min(w, t.centreX + t.width / 2)
        let top = max(0, t.centreY - t.height / 2), bottom = min(h, t.centreY + t.height / 2)
        // A box wholly outside the frame is clipped to nothing at its nearest edge.
        return NormalizedRect(pixelLeft: left, top: top, right: max(right, left), bottom: max(bottom, top),
                              frameWidth: frame.width, frameHeight: frame.height).array
    }

    private func id(_ i: Int) -> String {
        DerivedIdentifier.make(streamIdentity: streamIdentity, analyzer: instanceName, kind: "track", ordinal: tracks[i].ordinal)
    }
}
