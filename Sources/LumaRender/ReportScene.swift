import LumaAnalysis
import LumaBase
import LumaEngine
import LumaRegression
import LumaTruth

/// What a report draws over its still, as inline SVG in the frame's pixel coordinates: truth paths
/// (cyan, misses orange), then one group per analyzer (`data-analyzer`, so the page's filters can
/// hide it): trajectories (red points, green fitted path, white when a false alarm) with their
/// ids, track paths (box centres, one colour per track) with their names, and rectangles
/// (magenta outlines, each distinct one once).
struct ReportScene {
    let width: Int
    let height: Int
    let clock: FrameClock
    let analyzers: [String]
    let observations: LoggedObservations
    /// Rectangles without an id, per analyzer: each distinct outline once, in log order.
    let rectangles: [String: [[[Double]]]]
    let truth: GroundTruth?
    let score: TrajectoryScore?
    let trackColors: [String: RGBImage.Color]

    static let truthColor = RGBImage.Color(0, 230, 230)
    static let missedColor = RGBImage.Color(255, 150, 0)
    /// A trajectory that matches no truth: white, apart from the rectangles' magenta.
    static let falseAlarmColor = RGBImage.Color.white

    /// Track colours far from the truth's, so a track is never taken for truth.
    static let trackPalette = RGBImage.Color.tracks.filter { c in
        [truthColor, missedColor, falseAlarmColor].allSatisfy { t in
            let d = [Int(c.r) - Int(t.r), Int(c.g) - Int(t.g), Int(c.b) - Int(t.b)]
            return d.map { $0 * $0 }.reduce(0, +) > 80 * 80
        }
    }

    var svg: String {
        var out = "<svg class=\"overlay\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(width) \(height)\" preserveAspectRatio=\"none\" "
            + "font-family=\"sans-serif\" font-size=\"\(n(Double(max(width, height)) / 60))\">"
        if let truth {
            let missed = Set(score?.missed ?? [])
            out += "<g data-analyzer=\"truth\">"
            for s in truth.ballSegments {
                let color = missed.contains(s.id) ? Self.missedColor : Self.truthColor
                out += polyline(s.points.map { ($0[1], $0[2]) }, color, width: missed.contains(s.id) ? 4 : 2)
            }
            out += "</g>"
        }
        let falseAlarms = Set(score?.falseAlarms ?? [])
        for analyzer in analyzers {
            out += "<g data-analyzer=\"\(escapeHTML(analyzer))\">"
            for outline in rectangles[analyzer] ?? [] {
                out += "<polygon fill=\"none\" stroke=\"\(css(.rectangle))\" stroke-width=\"1.5\" vector-effect=\"non-scaling-stroke\" points=\""
                    + outline.map { p in let q = point(p[0], p[1]); return "\(n(q.x)),\(n(q.y))" }.joined(separator: " ") + "\"/>"
            }
            for t in observations.trajectories where t.analyzer == analyzer {
                let wrong = falseAlarms.contains(t.id)
                out += polyline(fittedPath(t), wrong ? Self.falseAlarmColor : .projected, width: 2)
                for p in t.points {
                    let q = point(p[1], p[2])
                    out += "<circle cx=\"\(n(q.x))\" cy=\"\(n(q.y))\" r=\"\(n(Double(max(width, height)) / 250))\" fill=\"\(css(wrong ? Self.falseAlarmColor : .detected))\"/>"
                }
                if let first = t.points.first {
                    out += label(String(t.id.prefix(8)), at: point(first[1], first[2]), wrong ? Self.falseAlarmColor : .detected)
                }
            }
            for track in observations.tracks where track.analyzer == analyzer {
                let color = trackColors[track.analyzer + "\u{0}" + track.id] ?? .white
                let centres = track.frames.compactMap { track.boxes[$0] }.map { b in (b[0] + b[2] / 2, b[1] + b[3] / 2) }
                out += polyline(centres, color, width: 2)
                if let first = centres.first { out += label(track.label ?? String(track.id.prefix(8)), at: point(first.0, first.1), color) }
            }
            out += "</g>"
        }
        return out + "</svg>"
    }

    /// The time fit sampled from the trajectory's first to its last point, in normalized coordinates.
    func fittedPath(_ t: LoggedTrajectory, samples: Int = 40) -> [(Double, Double)] {
        guard let fit = t.timeFit else { return [] }
        let span = clock.time(t.lastFrame) - clock.time(t.firstFrame)
        return (0...samples).map { k in
            let p = fit.position(at: span * Double(k) / Double(samples))
            return (p.x, p.y)
        }
    }

    private func point(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        NormalizedPoint(x: x, y: y).pixel(frameWidth: width, frameHeight: height)
    }

    private func polyline(_ points: [(Double, Double)], _ color: RGBImage.Color, width: Double) -> String {
        guard !points.isEmpty else { return "" }
        return "<polyline fill=\"none\" stroke=\"\(css(color))\" stroke-width=\"\(n(width))\" vector-effect=\"non-scaling-stroke\" points=\""
            + points.map { let q = point($0.0, $0.1); return "\(n(q.x)),\(n(q.y))" }.joined(separator: " ") + "\"/>"
    }

    private func label(_ text: String, at p: (x: Double, y: Double), _ color: RGBImage.Color) -> String {
        "<text x=\"\(n(p.x + 4))\" y=\"\(n(p.y - 4))\" fill=\"\(css(color))\" stroke=\"#000\" stroke-width=\"0.6\" paint-order=\"stroke\">\(escapeHTML(text))</text>"
    }

    private func n(_ v: Double) -> String { DecimalText.fixed(v, 1) }
}

/// An `rgb(…)` CSS colour.
func css(_ color: RGBImage.Color) -> String { "rgb(\(color.r),\(color.g),\(color.b))" }
