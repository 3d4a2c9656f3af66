import LumaBase
import LumaEngine

/// A timeline of a log's events as inline SVG: one row per `analyzer.kind` (in the log's order),
/// a mark at each event's time, on an axis of seconds from the recording's first frame. Each row
/// carries its analyzer (`data-analyzer`), so a page's filters can hide it.
struct EventTimeline {
    /// Rows: the analyzer, its kind, and the times of its events.
    var rows: [(analyzer: String, kind: String, times: [Double])]
    /// The recording's span in seconds.
    var span: Double
    var width = 900.0

    init(_ log: EventLog, clock: FrameClock) {
        var rows: [(analyzer: String, kind: String, times: [Double])] = []
        var index: [String: Int] = [:]
        for e in log.events {
            let key = e.analyzer + "\u{0}" + e.kind
            if index[key] == nil {
                index[key] = rows.count
                rows.append((e.analyzer, e.kind, []))
            }
            rows[index[key]!].times.append(clock.time(e.frame))
        }
        self.rows = rows
        self.span = clock.span
    }

    var svg: String {
        let (left, right, rowHeight, top) = (200.0, 16.0, 22.0, 8.0)
        let height = top + rowHeight * Double(rows.count) + 34
        let end = max(span, 1e-6)
        func px(_ t: Double) -> Double { left + t / end * (width - left - right) }
        func n(_ v: Double) -> String { DecimalText.fixed(v, 1) }
        var out = "<svg class=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" "
            + "viewBox=\"0 0 \(Int(width)) \(Int(height))\" font-family=\"sans-serif\" font-size=\"11\"><rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>"
        let axis = top + rowHeight * Double(rows.count)
        for tick in SVGPlot.ticks(0...end) {
            out += "<line x1=\"\(n(px(tick.value)))\" y1=\"\(n(top))\" x2=\"\(n(px(tick.value)))\" y2=\"\(n(axis))\" stroke=\"#eee\"/>"
            out += "<text x=\"\(n(px(tick.value)))\" y=\"\(n(axis + 14))\" text-anchor=\"middle\">\(tick.label)</text>"
        }
        out += "<text x=\"\(n((left + width - right) / 2))\" y=\"\(n(height - 4))\" text-anchor=\"middle\">time (s from the first frame)</text>"
        for (k, row) in rows.enumerated() {
            let y = top + rowHeight * Double(k)
            let color = css(RGBImage.Color.tracks[(k + 3) % RGBImage.Color.tracks.count])
            out += "<g data-analyzer=\"\(escapeHTML(row.analyzer))\"><text x=\"\(n(left - 6))\" y=\"\(n(y + 15))\" text-anchor=\"end\">"
                + "\(escapeHTML(row.analyzer + "." + row.kind)) (\(row.times.count))</text><path stroke=\"\(color)\" stroke-width=\"1.5\" d=\""
            out += row.times.map { "M\(n(px($0))) \(n(y + 3))v\(n(rowHeight - 6))" }.joined() + "\"/></g>"
        }
        return out + "</svg>"
    }
}
