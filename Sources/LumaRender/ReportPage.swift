import Foundation
import LumaAnalysis
import LumaBase
import LumaEngine
import LumaFormat
import LumaImaging
import LumaRegression
import LumaTruth

/// One self-contained HTML page about a replay (`lumatrace report`): the recording's facts, a
/// timeline of every analyzer's events, a still of the scene with what each analyzer saw drawn
/// over it, a section per analyzer (its configuration, and by what it emits: changed fraction over
/// time, rectangles, trajectories, tracks), and with truth the scores. Every time is the frames'
/// own (their timestamps), in seconds from the first frame. Images are inline PNG, plots inline
/// SVG, and a small inline script filters by analyzer: it needs no network.
public struct ReportPage {
    let recording: RecordingLocation
    let reader: RecordingReader
    let digest: String
    let logPath: String
    let log: EventLog
    let truthPath: String?
    let truth: GroundTruth?
    /// Why an analyzer instance (by name) logs nothing with its settings (``AnalyzerSetup/idleReason(with:)``):
    /// its section says so where it has no events, instead of only "none".
    public var idleReasons: [String: String] = [:]

    /// A page on `log`, a replay of `reader` (whose frames digest is `digest`), named by the paths
    /// given; with `truth`, scored against it.
    public init(recording: RecordingLocation, reader: RecordingReader, digest: String, logPath: String, log: EventLog,
                truthPath: String?, truth: GroundTruth?) {
        (self.recording, self.reader, self.digest, self.logPath, self.log, self.truthPath, self.truth) =
            (recording, reader, digest, logPath, log, truthPath, truth)
    }

    private var width: Int { reader.header.width }
    private var height: Int { reader.header.height }
    /// Analyzer instances in the header's order.
    private var analyzers: [String] { log.header.analyzers.map(\.name) }

    /// The page; throws when an event of the log cannot be read as its shape, or the recording's
    /// frame tables cannot be read.
    public func html() throws -> String {
        let clock = try FrameClock(reader)
        let observations = try LoggedObservations(log)
        let rectangles = try distinctRectangles()
        let score = try truth.map { try LogScore(log: log, truth: $0) }
        var trackColors: [String: RGBImage.Color] = [:]
        for (k, t) in observations.tracks.enumerated() {
            trackColors[t.analyzer + "\u{0}" + t.id] = ReportScene.trackPalette[k % ReportScene.trackPalette.count]
        }
        let scene = ReportScene(width: width, height: height, clock: clock, analyzers: analyzers, observations: observations,
                                rectangles: rectangles.mapValues { $0.map(\.corners) }, truth: truth, score: score?.trajectories,
                                trackColors: trackColors)
        var body = "<h1>\(escapeHTML(recording.fileName))</h1>\n"
        body += "<p class=\"caption\">" + escapeHTML(caption(observations, rectangles: rectangles)) + "</p>\n"
        body += filters()
        body += "<section id=\"facts\"><h2>The recording</h2>\n" + facts(clock) + "</section>\n"
        body += "<section id=\"timeline\"><h2>Timeline</h2>\n<p>Every event at its frame's time, one row per analyzer and kind (events in brackets).</p>\n"
            + EventTimeline(log, clock: clock).svg + "\n</section>\n"
        body += "<section id=\"scene\"><h2>The scene</h2>\n<p>" + escapeHTML(sceneCaption(observations, rectangles: rectangles)) + "</p>\n"
        // As wide as the page allows, but never taller than the window: a portrait clip fits.
        body += "<div class=\"scene\" style=\"width: min(100%, 1100px, calc(85vh * \(width) / \(height))); aspect-ratio: \(width) / \(height)\">"
            + "<img class=\"still\" alt=\"the scene\" src=\"data:image/png;base64,\(try still())\">"
            + scene.svg + "</div>\n</section>\n"
        for setup in log.header.analyzers {
            body += analyzerSection(setup, observations: observations, rectangles: rectangles[setup.name] ?? [], clock: clock,
                                    trackColors: trackColors, scene: scene)
        }
        if let score, let truthPath {
            body += "<section id=\"truth\" data-analyzer=\"truth\"><h2>Against ground truth</h2>\n<p>\(escapeHTML(truthPath)) (as <code>lumatrace score</code>)</p>\n"
            body += "<pre>" + escapeHTML(score.lines().joined(separator: "\n")) + "</pre>\n</section>\n"
        }
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>Lumatrace report: \(escapeHTML(recording.fileName))</title>
            <style>
            body { font-family: sans-serif; margin: 24px; color: #222; max-width: 1300px; }
            table { border-collapse: collapse; margin: 8px 0 16px; } td, th { border: 1px solid #ccc; padding: 3px 8px; text-align: left; }
            td:not(:last-child) { white-space: nowrap; }
            .scene { position: relative; line-height: 0; outline: 1px solid #999; }
            img.still { display: block; width: 100%; height: 100%; image-rendering: pixelated; }
            svg.overlay { position: absolute; left: 0; top: 0; width: 100%; height: 100%; }
            .plots svg, svg.timeline { margin: 4px; border: 1px solid #ddd; max-width: 100%; height: auto; } td code { word-break: break-all; }
            pre { background: #f4f4f4; padding: 8px; overflow-x: auto; }
            .filters label { margin-right: 14px; }
            </style></head>
            <body>
            \(body)<p><small>Written by lumatrace \(LumatraceVersion.engine) from \(escapeHTML(logPath)).</small></p>
            <script>
            for (const box of document.querySelectorAll('.filters input')) {
              box.addEventListener('change', () => {
                for (const e of document.querySelectorAll('[data-analyzer]')) {
                  if (e.getAttribute('data-analyzer') === box.value) e.style.display = box.checked ? '' : 'none';
                }
              });
            }
            </script>
            </body></html>

            """
    }

    // MARK: - Sections

    private func caption(_ observations: LoggedObservations, rectangles: [String: [DistinctRectangle]]) -> String {
        var holds = ["the recording's facts", "a timeline of \(Plural.count(log.events.count, "event"))", "the scene with what the analyzers saw drawn over it"]
        holds.append("a section for each of \(Plural.count(analyzers.count, "analyzer")) (\(analyzers.joined(separator: ", "))) with its configuration")
        let parts = [
            (observations.differencing.count, "changed fraction over time"),
            (rectangles.values.reduce(0) { $0 + $1.count }, "a list of rectangles"),
            (observations.trajectories.count, "a table and plots of \(Plural.count(observations.trajectories.count, "trajectory", plural: "trajectories"))"),
            (observations.tracks.count, "\(Plural.count(observations.tracks.count, "track")) and their confidence"),
        ].filter { $0.0 > 0 }.map(\.1)
        if !parts.isEmpty { holds.append(parts.joined(separator: ", ")) }
        if truth != nil { holds.append("scores against ground truth") }
        return "This page holds " + holds.joined(separator: "; ")
            + ". Times are the frames' own, in seconds from the first frame; the boxes below hide or show each analyzer."
    }

    private func filters() -> String {
        let names = analyzers + (truth != nil ? ["truth"] : [])
        return "<p class=\"filters\">Show: " + names.map {
            "<label><input type=\"checkbox\" checked value=\"\(escapeHTML($0))\"> \(escapeHTML($0))</label>"
        }.joined() + "</p>\n"
    }

    private func facts(_ clock: FrameClock) -> String {
        let nominal = reader.header.nominalFrameRate
        let mean = clock.span > 0 ? Double(reader.frameCount - 1) / clock.span : 0
        let replayed = "\(log.header.firstFrame)…\(log.header.lastFrame) (\(DecimalText.fixed(clock.time(log.header.firstFrame), 3)) s … "
            + "\(DecimalText.fixed(clock.time(log.header.lastFrame), 3)) s)" + (log.isComplete ? "" : " (incomplete log)")
        let rows: [(String, String)] = [
            ("recording", recording.description),
            ("frames", "\(reader.frameCount), \(width)×\(height)"),
            ("duration", "\(DecimalText.fixed(clock.span, 3)) s from the first frame to the last (the frames' timestamps)"),
            ("frame rate", "\(DecimalText.fixed(mean, 3)) frames/s on average" + (nominal > 0 ? ", nominal \(DecimalText.fixed(nominal, 3))" : "")),
            ("frames digest", String(digest.prefix(16)) + "…"), ("event log", logPath), ("replayed frames", replayed),
        ]
        return table(header: nil, rows: rows.map { [$0.0, $0.1] }, headingColumn: true)
    }

    private func sceneCaption(_ observations: LoggedObservations, rectangles: [String: [DistinctRectangle]]) -> String {
        var drawn: [String] = []
        if !observations.trajectories.isEmpty { drawn.append("trajectories (red points, green fitted paths, labelled with their ids)") }
        if !observations.tracks.isEmpty { drawn.append("track paths (box centres, one colour per track, labelled)") }
        if !rectangles.isEmpty { drawn.append("rectangles (magenta outlines)") }
        var text = "The median of frames sampled across the recording"
        text += drawn.isEmpty ? "; no analyzer emitted a path or a shape to draw" : ", with " + drawn.joined(separator: ", ") + " drawn over it"
        if truth != nil { text += "; truth ball paths in cyan, missed segments in orange, false alarms in white (rectangles keep magenta)" }
        return text + "."
    }

    private func analyzerSection(_ setup: AnalyzerSetup, observations: LoggedObservations, rectangles: [DistinctRectangle], clock: FrameClock,
                                 trackColors: [String: RGBImage.Color], scene: ReportScene) -> String {
        let name = setup.name
        var out = "<section class=\"analyzer\" id=\"analyzer-\(escapeHTML(name))\" data-analyzer=\"\(escapeHTML(name))\">"
            + "<h2>Analyzer \(escapeHTML(name))</h2>\n"
        var rows = [["analyzer", "\(setup.analyzer) \(setup.version)"], ["frame analysis spacing", "\(DecimalText.fixed(setup.frameAnalysisSpacing, 3)) s"],
                    ["region of interest", [setup.regionOfInterest.x, setup.regionOfInterest.y, setup.regionOfInterest.width, setup.regionOfInterest.height]
                        .map { DecimalText.fixed($0, 3) }.joined(separator: ", ")]]
        for member in setup.configuration.objectValue ?? [] { rows.append([member.key, member.value.serialized]) }
        out += "<h3>Configuration</h3>\n" + table(header: ["setting", "value"], rows: rows, headingColumn: true)
        var counts: [(String, Int)] = []
        for e in log.events where e.analyzer == name {
            if let i = counts.firstIndex(where: { $0.0 == e.kind }) { counts[i].1 += 1 } else { counts.append((e.kind, 1)) }
        }
        let none = idleReasons[name].map { "None. With these settings it logs nothing: \(escapeHTML($0))." }
            ?? "None: it ran on the replayed frames and found nothing."
        out += "<h3>Events</h3>\n" + (counts.isEmpty ? "<p>\(none)</p>\n"
            : table(header: ["kind", "events"], rows: counts.map { [$0.0, "\($0.1)"] }, headingColumn: false))
        if let differencing = observations.differencing.first(where: { $0.analyzer == name }) {
            out += differencingPlot(differencing.frames, clock: clock)
        }
        out += rectangleTable(rectangles, clock: clock)
        out += trajectories(observations.trajectories.filter { $0.analyzer == name }, clock: clock, scene: scene)
        out += tracks(observations.tracks.filter { $0.analyzer == name }, clock: clock, colors: trackColors)
        return out + "</section>\n"
    }

    private func differencingPlot(_ frames: [Int: LoggedDifferencing], clock: FrameClock) -> String {
        let ordered = frames.keys.sorted()
        var plot = SVGPlot(title: "Changed fraction of the frame", xLabel: "time (s)", yLabel: "changed fraction")
        plot.width = 900
        plot.xRange = 0...max(clock.span, 1e-6)
        plot.series.append(.init(color: .blob, points: ordered.map { (clock.time($0), frames[$0]!.changedFraction) }, line: true))
        let peak = ordered.max { frames[$0]!.changedFraction < frames[$1]!.changedFraction }
        return "<h3>Differencing</h3>\n<p>The fraction of pixels that changed, on \(Plural.count(ordered.count, "frame"))"
            + (peak.map { "; most at frame \($0) (\(DecimalText.fixed(clock.time($0), 3)) s): \(DecimalText.fixed(frames[$0]!.changedFraction, 4))" } ?? "")
            + ".</p>\n<div class=\"plots\">\(plot.svg)</div>\n"
    }

    private func rectangleTable(_ rectangles: [DistinctRectangle], clock: FrameClock) -> String {
        guard !rectangles.isEmpty else { return "" }
        let shown = rectangles.prefix(200)
        return "<h3>Rectangles</h3>\n<p>\(Plural.count(rectangles.count, "distinct rectangle")) (corners normalized, lower-left origin), drawn on the scene in magenta"
            + (rectangles.count > shown.count ? "; the first \(shown.count) are listed" : "") + ".</p>\n"
            + table(header: ["first frame", "time (s)", "frames", "confidence", "corners (top left, top right, bottom right, bottom left)"],
                    rows: shown.map { r in
                        ["\(r.firstFrame)", DecimalText.fixed(clock.time(r.firstFrame), 3), "\(r.frames)", r.confidence.map { DecimalText.fixed($0, 3) } ?? "—",
                         r.corners.map { "(\(DecimalText.fixed($0[0], 3)), \(DecimalText.fixed($0[1], 3)))" }.joined(separator: " ")]
                    }, headingColumn: false)
    }

    private func trajectories(_ trajectories: [LoggedTrajectory], clock: FrameClock, scene: ReportScene) -> String {
        guard !trajectories.isEmpty else { return "" }
        let rows = trajectories.map { t -> [String] in
            let span = clock.time(t.lastFrame) - clock.time(t.firstFrame)
            let flight = TrajectoryFlight(t.timeFit, span: span, width: width, height: height)
            let apex = flight.map { f in
                f.apex.map { "y \(DecimalText.fixed($0.y, 3)) at \(DecimalText.fixed(clock.time(t.firstFrame) + $0.seconds, 3)) s" } ?? "none in flight"
            } ?? "—"
            return [String(t.id.prefix(8)), "\(t.firstFrame)…\(t.lastFrame)",
                    "\(DecimalText.fixed(clock.time(t.firstFrame), 3))…\(DecimalText.fixed(clock.time(t.lastFrame), 3))",
                    "\(t.points.count)", flight.map { DecimalText.fixed($0.launchAngle, 1) } ?? "—", flight.map { DecimalText.fixed($0.launchSpeed, 3) } ?? "—",
                    apex, DecimalText.fixed(t.confidence, 2), t.reason]
        }
        var out = "<h3>Trajectories</h3>\n<p>\(Plural.count(trajectories.count, "trajectory", plural: "trajectories")), ids as drawn on the scene. "
            + "Launch and apex are the fitted path's: angle in degrees above the horizontal, speed in frame widths per second, apex its top "
            + "(normalized height, up) when reached in flight.</p>\n"
        out += table(header: ["id", "frames", "time (s)", "points", "launch angle (°)", "launch speed (widths/s)", "apex", "confidence", "ended"],
                     rows: rows, headingColumn: false)
        out += "<p>Height (normalized, up) against time, measured points in red, the fitted curve in green"
            + (trajectories.count > 48 ? "; the first 48 are plotted" : "") + ".</p>\n<div class=\"plots\">\n"
        for t in trajectories.prefix(48) {
            var plot = SVGPlot(title: "\(t.id.prefix(8)) · frames \(t.firstFrame)…\(t.lastFrame) · \(t.reason) · confidence \(DecimalText.fixed(t.confidence, 2))",
                               xLabel: "time (s)", yLabel: "y")
            plot.width = 400
            plot.height = 220
            let start = clock.time(t.firstFrame), span = clock.time(t.lastFrame) - start
            plot.series.append(.init(color: .projected, points: scene.fittedPath(t).enumerated().map { k, p in (start + span * Double(k) / 40, p.1) }, line: true))
            plot.series.append(.init(color: .detected, points: t.points.map { (clock.time(Int($0[0])), $0[2]) }, line: false))
            out += plot.svg + "\n"
        }
        return out + "</div>\n"
    }

    private func tracks(_ tracks: [LoggedTrack], clock: FrameClock, colors: [String: RGBImage.Color]) -> String {
        guard !tracks.isEmpty else { return "" }
        var plot = SVGPlot(title: "Confidence of each track", xLabel: "time (s)", yLabel: "confidence", yRange: 0...1)
        plot.width = 900
        plot.xRange = 0...max(clock.span, 1e-6)
        var rows: [[String]] = []
        for t in tracks {
            let color = colors[t.analyzer + "\u{0}" + t.id] ?? .white
            let frames = t.frames
            plot.series.append(.init(color: color, points: frames.map { (clock.time($0), t.confidences[$0] ?? 0) }, line: true))
            rows.append(["<span style=\"color:\(css(color))\">■</span> " + escapeHTML(t.label ?? String(t.id.prefix(8))), escapeHTML(t.kind),
                         frames.first.map { "\($0)…\(frames.last!)" } ?? "—",
                         frames.first.map { "\(DecimalText.fixed(clock.time($0), 3))…\(DecimalText.fixed(clock.time(frames.last!), 3))" } ?? "—",
                         t.lostAt.isEmpty ? "—" : t.lostAt.map(String.init).joined(separator: ", "),
                         t.recoveredAt.isEmpty ? "—" : t.recoveredAt.map(String.init).joined(separator: ", ")])
        }
        return "<h3>Tracks</h3>\n<p>\(Plural.count(tracks.count, "track")), paths drawn on the scene in these colours.</p>\n"
            + table(header: ["track", "kind", "frames", "time (s)", "lost at frame", "recovered at frame"], rows: rows, headingColumn: false, escaped: true)
            + "<div class=\"plots\">\(plot.svg)</div>\n"
    }

    // MARK: - Pieces

    /// An HTML table; cells are escaped unless `escaped` says they already are.
    private func table(header: [String]?, rows: [[String]], headingColumn: Bool, escaped: Bool = false) -> String {
        func cell(_ s: String) -> String { escaped ? s : escapeHTML(s) }
        var out = "<table>\n"
        if let header { out += "<tr>" + header.map { "<th>\(escapeHTML($0))</th>" }.joined() + "</tr>\n" }
        for row in rows {
            out += "<tr>" + row.enumerated().map { k, s in
                headingColumn && k == 0 ? "<th>\(cell(s))</th>" : (headingColumn ? "<td><code>\(cell(s))</code></td>" : "<td>\(cell(s))</td>")
            }.joined() + "</tr>\n"
        }
        return out + "</table>\n"
    }

    /// A rectangle seen without an id: its corners, the first frame with it, how many frames had it
    /// and its best confidence.
    struct DistinctRectangle {
        var corners: [[Double]]
        var firstFrame: Int
        var frames: Int
        var confidence: Double?
    }

    /// Per analyzer, each distinct rectangle (quadrilateral without an id) in log order.
    private func distinctRectangles() throws -> [String: [DistinctRectangle]] {
        var out: [String: [DistinctRectangle]] = [:]
        var seen: [String: [[[Double]]: Int]] = [:]
        try log.forEachShapedEvent { event, _, shaped throws(EventLogError) in
            guard case .quadrilateral(let q) = shaped, q.id == nil else { return }
            if let i = seen[event.analyzer]?[q.corners] {
                out[event.analyzer]![i].frames += 1
                if let c = q.confidence { out[event.analyzer]![i].confidence = max(out[event.analyzer]![i].confidence ?? c, c) }
            } else {
                seen[event.analyzer, default: [:]][q.corners] = out[event.analyzer, default: []].count
                out[event.analyzer, default: []].append(DistinctRectangle(corners: q.corners, firstFrame: event.frame, frames: 1, confidence: q.confidence))
            }
        }
        return out
    }

    /// The widest still the page embeds: the scene shows at most 1100 CSS pixels wide, so twice
    /// that stays sharp on a high-density screen. Larger frames are shrunk by block means before
    /// the median, so a report of huge frames holds a few small planes, not 15 frames.
    static let stillLimit = 2200

    /// The median background, as base64 PNG, at most ``stillLimit`` pixels on a side.
    private func still() throws -> String {
        let whole = PixelRect(width: width, height: height)
        let shrinking = Downsample.factor(shrinking: max(width, height), toAtMost: Self.stillLimit)
        let shrunkSize = Downsample.outputSize(of: whole, factor: shrinking)
        // A frame far longer than wide (16384 × 2) is small enough as it is.
        let factor = shrunkSize.width > 0 && shrunkSize.height > 0 ? shrinking : 1
        let size = Downsample.outputSize(of: whole, factor: factor)
        var background = MedianBackground(width: size.width, height: size.height)
        var shrunk = [UInt8](repeating: 0, count: factor == 1 ? 0 : size.width * size.height)
        let decoder = reader.makeDecoder()
        let samples = min(15, reader.frameCount)
        for k in 0..<samples {
            let index = samples == 1 ? 0 : k * (reader.frameCount - 1) / (samples - 1)
            guard let frame = try? decoder.frame(at: index) else { continue }
            if factor == 1 {
                frame.pixels.withUnsafeBufferPointer { background.add($0) }
            } else {
                frame.pixels.withUnsafeBufferPointer { pixels in
                    let image = GrayImage(pixels: pixels, width: width, height: height)
                    shrunk.withUnsafeMutableBufferPointer { Downsample.boxAverage(image, region: whole, factor: factor, into: $0) }
                }
                shrunk.withUnsafeBufferPointer { background.add($0) }
            }
        }
        let luma = background.median()
        let image = luma.isEmpty ? RGBImage(width: size.width, height: size.height)
            : luma.withUnsafeBufferPointer { RGBImage(luma: $0, width: size.width, height: size.height) }
        return Data(try PNGFile.encode(image)).base64EncodedString()
    }
}
