import LumaAnalysis
import LumaEngine

/// What an event log says to draw over each frame, in the look of Apple's Vision samples, read by
/// each event's shape (`EventShape`, from the log header), whichever analyzer emitted it:
/// - a path's detected points in red and its fitted path (so far) in green (`pathUpdate`);
/// - each analyzer's region of interest in blue, when it is not the whole frame;
/// - tracked boxes one colour per track, solid when confidence > 0.5, dashed otherwise, with the
///   track's label or the start of its id (`box`, `boxRecovered`);
/// - quadrilaterals' outlines and corners (magenta; tracked corners in their track's colour);
/// - blobs of change as thin yellow boxes (`blobs`).
///
/// Objects with a life (a path, a track) are drawn on every frame of it, in their latest logged
/// state, from their first event until the event that ends them (`pathEnd`, `boxLost`; a
/// `boxRecovered` brings a track back): an analyzer logs an object only on the frames it analyzed
/// or updated it, and the picture must not blink in between. Detections of one frame (blobs,
/// quadrilaterals without an id) are drawn on that frame only.
public struct EventOverlay: Sendable {
    public let width: Int
    public let height: Int
    private var byFrame: [Int: [Mark]] = [:]
    private var lives: [ObjectLife] = []
    private var regions: [NormalizedRect] = []
    private var trackColors: [String: RGBImage.Color] = [:]

    /// One event, read as its shape.
    struct Mark: Sendable {
        var event: LoggedEvent
        var drawing: Drawing
    }

    enum Drawing: Sendable {
        case path(PathUpdate)
        case box(Box)
        case corners(Quadrilateral)
        case blobs(Blobs)
        /// Ends its object's life (`pathEnd`, `boxLost`).
        case end
    }

    /// One object's marks in log order: states to draw, and the marks that end it.
    private struct ObjectLife: Sendable {
        var marks: [Mark]

        /// The state to draw on `frame`: the latest mark at or before it, unless that one ended it.
        func state(at frame: Int) -> Mark? {
            guard let first = marks.first, first.event.frame <= frame else { return nil }
            var low = 0, high = marks.count - 1
            while low < high {
                let mid = (low + high + 1) / 2
                if marks[mid].event.frame <= frame { low = mid } else { high = mid - 1 }
            }
            if case .end = marks[low].drawing { return nil }
            return marks[low]
        }
    }

    /// Reads every shaped event of `log`; an event whose payload lacks its shape's fields is an
    /// error naming its line.
    public init(log: EventLog) throws(EventLogError) {
        width = log.header.width
        height = log.header.height
        regions = log.header.analyzers.map(\.regionOfInterest).filter { $0 != .full }
        var lifeIndex: [String: Int] = [:]
        try log.forEachShapedEvent { event, _, shaped throws(EventLogError) in
            guard let shaped else { return }
            let mark = Mark(event: event, drawing: Self.drawing(of: shaped))
            guard let id = shaped.objectId else {
                byFrame[event.frame, default: []].append(mark)
                return
            }
            // Corners of a track live apart from its box: both are drawn.
            let isCorners = if case .quadrilateral = shaped { true } else { false }
            let key = event.analyzer + "\u{0}" + (isCorners ? "corners" : "") + "\u{0}" + id
            if let i = lifeIndex[key] {
                lives[i].marks.append(mark)
            } else {
                lifeIndex[key] = lives.count
                lives.append(ObjectLife(marks: [mark]))
            }
            let startsTrack = switch shaped { case .box, .quadrilateral: true; default: false }
            if startsTrack, trackColors[id] == nil {
                trackColors[id] = RGBImage.Color.tracks[trackColors.count % RGBImage.Color.tracks.count]
            }
        }
    }

    /// How an event of each shape is drawn: paths as their points so far, a path's end or a lost
    /// track as the end of its life, boxes, corners and blobs as they are.
    private static func drawing(of shaped: ShapedEvent) -> Drawing {
        switch shaped {
        case .pathUpdate(let p): return .path(p)
        case .pathEnd, .boxLost: return .end
        case .box(let b), .boxRecovered(let b): return .box(b)
        case .quadrilateral(let q): return .corners(q)
        case .blobs(let b): return .blobs(b)
        }
    }

    /// The events drawn on `frame`: that frame's detections, then each living object's latest state
    /// (in order of first appearance).
    public func events(drawnOn frame: Int) -> [LoggedEvent] { marks(drawnOn: frame).map(\.event) }

    private func marks(drawnOn frame: Int) -> [Mark] {
        (byFrame[frame] ?? []) + lives.compactMap { $0.state(at: frame) }
    }

    /// The colour of a track's boxes.
    public func color(ofTrack id: String) -> RGBImage.Color { trackColors[id] ?? .white }

    /// Draws frame `frame`'s events on `image` (the frame itself, same size).
    public func draw(frame: Int, on image: inout RGBImage) {
        let thickness = max(1, min(width, height) / 300)
        for r in regions {
            let (x0, y0) = point(r.x, r.y + r.height), (x1, y1) = point(r.x + r.width, r.y)
            image.rectangle(x0, y0, x1, y1, .regionOfInterest, thickness: thickness)
        }
        for mark in marks(drawnOn: frame) {
            switch mark.drawing {
            case .blobs(let blobs):
                for b in blobs.blobs.map(\.boundingBox) where b.count == 4 {
                    let (x0, y0) = point(b[0], b[1] + b[3]), (x1, y1) = point(b[0] + b[2], b[1])
                    image.rectangle(x0, y0, x1, y1, .blob)
                }
            case .path(let update):
                drawPath(update, on: &image, thickness: thickness)
            case .box(let box):
                let b = box.boundingBox
                guard b.count == 4 else { continue }
                let (x0, y0) = point(b[0], b[1] + b[3]), (x1, y1) = point(b[0] + b[2], b[1])
                image.rectangle(x0, y0, x1, y1, color(ofTrack: box.id), thickness: max(2, thickness), dash: box.confidence > 0.5 ? 0 : 4)
                let name = box.label ?? String(box.id.prefix(4))
                image.text(name, x: Int(x0) + 2, y: max(1, Int(y0) - 9 * scale), color(ofTrack: box.id), scale: scale)
            case .corners(let quad):
                guard quad.corners.allSatisfy({ $0.count == 2 }) else { continue }
                let color = quad.id.map { self.color(ofTrack: $0) } ?? RGBImage.Color.rectangle
                let points = quad.corners.map { point($0[0], $0[1]) }
                image.polyline(points.map { (x: $0.0, y: $0.1) }, color, thickness: thickness, closed: true)
                for p in points { image.disc(p.0, p.1, radius: Double(2 * thickness), color) }
            case .end:
                continue
            }
        }
    }

    /// Text is scaled up on large frames so it stays readable.
    private var scale: Int { max(1, min(width, height) / 360) }

    private func drawPath(_ d: PathUpdate, on image: inout RGBImage, thickness: Int) {
        // The fitted path in time from the first detection to now, sampled finely.
        if let fit = d.timeFit, fit.isDrawable, let duration = d.timeRange?.duration, duration.isFinite, duration >= 0 {
            let samples = 48
            let path = (0...samples).map { k -> (x: Double, y: Double) in
                let f = fit.position(at: duration * Double(k) / Double(samples))
                let p = point(f.x, f.y)
                return (p.0, p.1)
            }
            image.polyline(path, .projected, thickness: thickness)
        }
        for p in d.projectedPoints ?? [] where p.count == 2 {
            let q = point(p[0], p[1])
            image.disc(q.0, q.1, radius: Double(thickness), .projected)
        }
        let radius = max(2.0, (d.movingAverageRadius ?? 0) * Double(width) * 0.5)
        for p in d.detectedPoints ?? [] where p.count == 2 {
            let q = point(p[0], p[1])
            image.disc(q.0, q.1, radius: min(radius, 6), .detected)
        }
    }

    /// Pixel coordinates (top left origin) of a normalized lower-left point.
    private func point(_ x: Double, _ y: Double) -> (Double, Double) {
        let p = NormalizedPoint(x: x, y: y).pixel(frameWidth: width, frameHeight: height)
        return (p.x, p.y)
    }
}
