import LumaAnalysis
import LumaEngine

/// What an event log says to draw over each frame, in the look of Apple's Vision samples:
/// - a trajectory's detected points in red and its fitted path (so far) in green;
/// - each analyzer's region of interest in blue, when it is not the whole frame;
/// - tracked boxes one colour per track, solid when confidence > 0.5, dashed otherwise, with the
///   track's label or the start of its id;
/// - rectangles' outlines and corners (magenta; a tracked rectangle in its track's colour);
/// - differencing blobs as thin yellow boxes.
///
/// Objects with a life (a trajectory, a track) are drawn on every frame of it, in their latest
/// logged state, from their first event until the event that ends them (`trajectory.end`,
/// `track.lost`; a `track.recovered` brings a track back): an analyzer logs an object only on the
/// frames it analyzed or updated it, and the picture must not blink in between. Detections of one
/// frame (differencing blobs, rectangles) are drawn on that frame only.
public struct EventOverlay: Sendable {
    public let width: Int
    public let height: Int
    private var byFrame: [Int: [LoggedEvent]] = [:]
    private var lives: [ObjectLife] = []
    private var regions: [NormalizedRect] = []
    private var trackColors: [String: RGBImage.Color] = [:]

    /// One object's events in log order: states to draw, and the events that end it.
    private struct ObjectLife: Sendable {
        var events: [LoggedEvent]

        /// The state to draw on `frame`: the latest event at or before it, unless that one ended it.
        func state(at frame: Int) -> LoggedEvent? {
            guard let first = events.first, first.frame <= frame else { return nil }
            var low = 0, high = events.count - 1
            while low < high {
                let mid = (low + high + 1) / 2
                if events[mid].frame <= frame { low = mid } else { high = mid - 1 }
            }
            return EventOverlay.endKinds.contains(events[low].kind) ? nil : events[low]
        }
    }

    static let lifeKinds: Set<String> = ["trajectory", "trajectory.end", "track", "track.lost", "track.recovered", "rectangleTrack"]
    static let endKinds: Set<String> = ["trajectory.end", "track.lost"]

    public init(log: EventLog) {
        width = log.header.width
        height = log.header.height
        regions = log.header.analyzers.map(\.regionOfInterest).filter { $0 != .full }
        var lifeIndex: [String: Int] = [:]
        for event in log.events {
            if Self.lifeKinds.contains(event.kind), let id = event.data["id"]?.stringValue {
                let key = event.analyzer + "\u{0}" + id
                if let i = lifeIndex[key] {
                    lives[i].events.append(event)
                } else {
                    lifeIndex[key] = lives.count
                    lives.append(ObjectLife(events: [event]))
                }
            } else {
                byFrame[event.frame, default: []].append(event)
            }
            if event.kind == "track" || event.kind == "rectangleTrack", let id = event.data["id"]?.stringValue, trackColors[id] == nil {
                trackColors[id] = RGBImage.Color.tracks[trackColors.count % RGBImage.Color.tracks.count]
            }
        }
    }

    /// The events drawn on `frame`: that frame's detections, then each living object's latest state
    /// (in order of first appearance).
    public func events(drawnOn frame: Int) -> [LoggedEvent] {
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
        for event in events(drawnOn: frame) {
            let d = event.data
            switch event.kind {
            case "diff":
                for blob in d["blobs"]?.arrayValue ?? [] {
                    guard let b = numbers(blob["boundingBox"]), b.count == 4 else { continue }
                    let (x0, y0) = point(b[0], b[1] + b[3]), (x1, y1) = point(b[0] + b[2], b[1])
                    image.rectangle(x0, y0, x1, y1, .blob)
                }
            case "trajectory":
                drawTrajectory(d, on: &image, thickness: thickness)
            case "track", "track.recovered":
                guard let id = d["id"]?.stringValue, let b = numbers(d["boundingBox"]), b.count == 4 else { continue }
                let confident = (d["confidence"]?.doubleValue ?? 0) > 0.5
                let (x0, y0) = point(b[0], b[1] + b[3]), (x1, y1) = point(b[0] + b[2], b[1])
                image.rectangle(x0, y0, x1, y1, color(ofTrack: id), thickness: max(2, thickness), dash: confident ? 0 : 4)
                let name = d["label"]?.stringValue ?? String(id.prefix(4))
                image.text(name, x: Int(x0) + 2, y: max(1, Int(y0) - 9 * scale), color(ofTrack: id), scale: scale)
            case "rectangle", "rectangleTrack":
                let corners = ["topLeft", "topRight", "bottomRight", "bottomLeft"].compactMap { numbers(d[$0]) }.filter { $0.count == 2 }
                guard corners.count == 4 else { continue }
                let color = event.kind == "rectangle" ? RGBImage.Color.rectangle : self.color(ofTrack: d["id"]?.stringValue ?? "")
                let points = corners.map { point($0[0], $0[1]) }
                image.polyline(points.map { (x: $0.0, y: $0.1) }, color, thickness: thickness, closed: true)
                for p in points { image.disc(p.0, p.1, radius: Double(2 * thickness), color) }
            default:
                continue
            }
        }
    }

    /// Text is scaled up on large frames so it stays readable.
    private var scale: Int { max(1, min(width, height) / 360) }

    private func drawTrajectory(_ d: JSONValue, on image: inout RGBImage, thickness: Int) {
        // The fitted path in time from the first detection to now, sampled finely.
        if let fit = d["timeFit"], let xs = numbers(fit["x"]), let ys = numbers(fit["y"]), xs.count == 2, ys.count == 3,
           let duration = d["timeRange"]?["duration"]?.doubleValue, duration.isFinite, duration >= 0 {
            let samples = 48
            let path = (0...samples).map { k -> (x: Double, y: Double) in
                let t = duration * Double(k) / Double(samples)
                let p = point(xs[0] + xs[1] * t, ys[0] + ys[1] * t + ys[2] * t * t)
                return (p.0, p.1)
            }
            image.polyline(path, .projected, thickness: thickness)
        }
        for p in (d["projectedPoints"]?.arrayValue ?? []).compactMap(numbers) where p.count == 2 {
            let q = point(p[0], p[1])
            image.disc(q.0, q.1, radius: Double(thickness), .projected)
        }
        let radius = max(2.0, (d["movingAverageRadius"]?.doubleValue ?? 0) * Double(width) * 0.5)
        for p in (d["detectedPoints"]?.arrayValue ?? []).compactMap(numbers) where p.count == 2 {
            let q = point(p[0], p[1])
            image.disc(q.0, q.1, radius: min(radius, 6), .detected)
        }
    }

    /// Pixel coordinates (top left origin) of a normalized lower-left point.
    private func point(_ x: Double, _ y: Double) -> (Double, Double) { (x * Double(width), (1 - y) * Double(height)) }

    private func numbers(_ v: JSONValue?) -> [Double]? { v?.arrayValue?.compactMap(\.doubleValue) }
}
