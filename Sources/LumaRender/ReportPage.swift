import Foundation
import LumaAnalysis
import LumaBase
import LumaEngine
import LumaFormat
import LumaRegression
import LumaTruth

/// One self-contained HTML page about a replay (`lumatrace report`): the recording's facts, events
/// per analyzer, a still of the scene with every path drawn over it, plots of each trajectory and
/// track, and, with truth, the scores. Images are inline PNG, plots inline SVG: it needs no network.
public struct ReportPage {
    let recording: RecordingLocation
    let reader: RecordingReader
    let digest: String
    let logPath: String
    let log: EventLog
    let truthPath: String?
    let truth: GroundTruth?

    /// A page on `log`, a replay of `reader` (whose frames digest is `digest`), named by the paths
    /// given; with `truth`, scored against it.
    public init(recording: RecordingLocation, reader: RecordingReader, digest: String, logPath: String, log: EventLog,
                truthPath: String?, truth: GroundTruth?) {
        (self.recording, self.reader, self.digest, self.logPath, self.log, self.truthPath, self.truth) =
            (recording, reader, digest, logPath, log, truthPath, truth)
    }

    private var width: Int { reader.header.width }
    private var height: Int { reader.header.height }
    private var rate: Double { max(reader.header.nominalFrameRate, 1e-9) }

    /// The page; throws when an event of the log cannot be read as its shape.
    public func html() throws -> String {
        let observations = try LoggedObservations(log)
        let score = try truth.map { try LogScore(log: log, truth: $0) }
        var body = "<h1>\(escapeHTML(recording.fileName))</h1>\n"
        body += facts()
        body += counts()
        body += "<h2>The scene</h2>\n<p>Median of frames sampled across the recording; trajectories (red points, green fitted paths) "
            + "and track paths (box centres, one colour per track) drawn over it"
            + (truth != nil ? "; truth ball paths in cyan, missed segments in orange, false alarms in magenta" : "") + ".</p>\n"
        body += "<img class=\"still\" alt=\"the scene with every trajectory\" src=\"data:image/png;base64,\(try still(observations, score: score?.trajectories))\">\n"
        body += trajectoryPlots(observations.trajectories)
        body += trackPlots(observations.tracks)
        if let score, let truthPath {
            body += "<h2>Against ground truth</h2>\n<p>\(escapeHTML(truthPath)) (as <code>lumatrace score</code>)</p>\n"
            body += "<pre>" + escapeHTML(score.lines().joined(separator: "\n")) + "</pre>\n"
        }
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>Lumatrace report: \(escapeHTML(recording.fileName))</title>
            <style>
            body { font-family: sans-serif; margin: 24px; color: #222; max-width: 1300px; }
            table { border-collapse: collapse; margin: 8px 0 16px; } td, th { border: 1px solid #ccc; padding: 3px 8px; text-align: left; }
            img.still { width: 100%; max-width: 1100px; image-rendering: pixelated; border: 1px solid #999; }
            .plots svg { margin: 4px; border: 1px solid #ddd; } td code { word-break: break-all; }
            pre { background: #f4f4f4; padding: 8px; overflow-x: auto; }
            </style></head>
            <body>
            \(body)<p><small>Written by lumatrace \(LumatraceVersion.engine) from \(escapeHTML(logPath)).</small></p>
            </body></html>

            """
    }

    private func facts() -> String {
        let duration = Double(reader.frameCount) / rate
        var rows: [(String, String)] = [
            ("recording", recording.description), ("frames", "\(reader.frameCount), \(width)×\(height), nominal \(DecimalText.fixed(reader.header.nominalFrameRate, 3)) frames/s (\(DecimalText.fixed(duration, 2)) s)"),
            ("frames digest", String(digest.prefix(16)) + "…"), ("event log", logPath),
            ("replayed frames", "\(log.header.firstFrame)…\(log.header.lastFrame)" + (log.isComplete ? "" : " (incomplete log)")),
        ]
        for a in log.header.analyzers {
            rows.append(("analyzer \(a.name) \(a.version)", a.configuration.serialized))
        }
        return "<table>\n" + rows.map { "<tr><th>\(escapeHTML($0.0))</th><td><code>\(escapeHTML($0.1))</code></td></tr>" }.joined(separator: "\n") + "\n</table>\n"
    }

    private func counts() -> String {
        var counts: [(String, Int)] = []
        for e in log.events {
            let key = "\(e.analyzer).\(e.kind)"
            if let i = counts.firstIndex(where: { $0.0 == key }) { counts[i].1 += 1 } else { counts.append((key, 1)) }
        }
        return "<h2>Events</h2>\n<table><tr><th>analyzer.kind</th><th>events</th></tr>\n"
            + counts.map { "<tr><td>\(escapeHTML($0.0))</td><td>\($0.1)</td></tr>" }.joined(separator: "\n") + "\n</table>\n"
    }

    /// The median background with every trajectory and track path, as base64 PNG.
    private func still(_ observations: LoggedObservations, score: TrajectoryScore?) throws -> String {
        var background = MedianBackground(width: width, height: height)
        let decoder = reader.makeDecoder()
        let samples = min(15, reader.frameCount)
        for k in 0..<samples {
            let index = samples == 1 ? 0 : k * (reader.frameCount - 1) / (samples - 1)
            guard let frame = try? decoder.frame(at: index) else { continue }
            frame.pixels.withUnsafeBufferPointer { background.add($0) }
        }
        let luma = background.median()
        var image = luma.isEmpty ? RGBImage(width: width, height: height) : luma.withUnsafeBufferPointer { RGBImage(luma: $0, width: width, height: height) }
        let thickness = max(1, min(width, height) / 300)
        func point(_ x: Double, _ y: Double) -> (x: Double, y: Double) { NormalizedPoint(x: x, y: y).pixel(frameWidth: width, frameHeight: height) }
        if let truth {
            let missed = Set(score?.missed ?? [])
            for s in truth.ballSegments {
                let path = s.points.map { point($0[1], $0[2]) }
                image.polyline(path, missed.contains(s.id) ? RGBImage.Color(255, 150, 0) : RGBImage.Color(0, 230, 230),
                               thickness: missed.contains(s.id) ? thickness + 2 : thickness)
            }
        }
        let falseAlarms = Set(score?.falseAlarms ?? [])
        for t in observations.trajectories {
            let wrong = falseAlarms.contains(t.id)
            image.polyline(fittedPath(t).map { point($0.x, $0.y) }, wrong ? .rectangle : .projected, thickness: thickness)
            for p in t.points {
                let q = point(p[1], p[2])
                image.disc(q.x, q.y, radius: Double(thickness + 1), wrong ? .rectangle : .detected)
            }
        }
        for (k, track) in observations.tracks.enumerated() where track.shape == .box {
            let centres = track.frames.map { f -> (x: Double, y: Double) in
                let b = track.boxes[f]!
                return point(b[0] + b[2] / 2, b[1] + b[3] / 2)
            }
            image.polyline(centres, RGBImage.Color.tracks[k % RGBImage.Color.tracks.count], thickness: thickness)
        }
        return Data(try PNGFile.encode(image)).base64EncodedString()
    }

    /// The time fit sampled from the trajectory's first to its last point, in normalized coordinates.
    private func fittedPath(_ t: LoggedTrajectory, samples: Int = 40) -> [(x: Double, y: Double)] {
        guard let fit = t.timeFit else { return [] }
        let span = Double(t.lastFrame - t.firstFrame) / rate
        return (0...samples).map { k in
            let s = span * Double(k) / Double(samples)
            return fit.position(at: s)
        }
    }

    private func trajectoryPlots(_ trajectories: [LoggedTrajectory]) -> String {
        guard !trajectories.isEmpty else { return "" }
        var out = "<h2>Trajectories</h2>\n<p>\(Plural.count(trajectories.count, "trajectory", plural: "trajectories")): height (normalized, up) against time "
            + "(seconds at the nominal frame rate), measured points in red, the fitted curve in green"
            + (trajectories.count > 48 ? "; the first 48 are plotted" : "") + ".</p>\n<div class=\"plots\">\n"
        for t in trajectories.prefix(48) {
            var plot = SVGPlot(title: "\(t.id.prefix(8)) · frames \(t.firstFrame)…\(t.lastFrame) · \(t.reason) · confidence \(DecimalText.fixed(t.confidence, 2))",
                               xLabel: "time (s)", yLabel: "y")
            plot.width = 400
            plot.height = 220
            let start = Double(t.firstFrame) / rate
            let span = Double(t.lastFrame - t.firstFrame) / rate
            if let fit = t.timeFit {
                plot.series.append(.init(color: .projected, points: (0...40).map { k in
                    let s = span * Double(k) / 40
                    return (start + s, fit.position(at: s).y)
                }, line: true))
            }
            plot.series.append(.init(color: .detected, points: t.points.map { (Double(Int($0[0])) / rate, $0[2]) }, line: false))
            out += plot.svg + "\n"
        }
        return out + "</div>\n"
    }

    private func trackPlots(_ tracks: [LoggedTrack]) -> String {
        let objectTracks = tracks.filter { $0.shape == .box }
        guard !objectTracks.isEmpty else { return "" }
        var plot = SVGPlot(title: "Confidence of each track", xLabel: "time (s)", yLabel: "confidence", yRange: 0...1)
        plot.width = 900
        var legend: [String] = []
        for (k, t) in objectTracks.enumerated() {
            let color = RGBImage.Color.tracks[k % RGBImage.Color.tracks.count]
            plot.series.append(.init(color: color, points: t.frames.map { (Double($0) / rate, t.confidences[$0] ?? 0) }, line: true))
            legend.append("<span style=\"color:rgb(\(color.r),\(color.g),\(color.b))\">■</span> \(escapeHTML(t.label ?? String(t.id.prefix(8))))"
                + (t.lostAt.isEmpty ? "" : " (lost at frame \(t.lostAt.map(String.init).joined(separator: ", ")))"))
        }
        return "<h2>Tracks</h2>\n<p>\(Plural.count(objectTracks.count, "track")). \(legend.joined(separator: " · "))</p>\n<div class=\"plots\">\(plot.svg)</div>\n"
    }
}
