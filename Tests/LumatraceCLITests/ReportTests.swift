import Foundation
import LumaAnalysis
import LumaFormat
import LumaRender
import Testing
import LumaTestSupport

/// `lumatrace report`: one self-contained HTML page.
@Suite("report: a self-contained HTML page about a replay")
struct ReportTests {
    static let recordings = PackageLayout.root.appendingPathComponent("Recordings")

    func report(_ name: String, truth: Bool, in dir: String) throws -> (ProgramResult, String) {
        let out = "\(dir)/\(name).html"
        var arguments = ["report", Self.recordings.appendingPathComponent("\(name).luma").path,
                         "--events", Self.recordings.appendingPathComponent("\(name).events.jsonl").path, "-o", out]
        if truth { arguments += ["--truth", Self.recordings.appendingPathComponent("\(name).truth.json").path] }
        let r = try CLI.run(arguments)
        return (r, (try? String(contentsOfFile: out, encoding: .utf8)) ?? "")
    }

    @Test("an analyzer's empty section says why: settings that log nothing name what to set; otherwise it ran and found nothing")
    func emptySectionsSayWhy() throws {
        try withScratchFolder("cli") { dir in
            let toss = Self.recordings.appendingPathComponent("toss-real.luma").path
            #expect(try CLI.run(["replay", toss, "-o", "\(dir)/all.jsonl"]).status == 0)
            let r = try CLI.run(["report", toss, "--events", "\(dir)/all.jsonl", "-o", "\(dir)/all.html"])
            #expect(r.status == 0, "\(r.stderr)")
            let html = try String(contentsOfFile: "\(dir)/all.html", encoding: .utf8)
            func section(_ name: String) -> String {
                html.components(separatedBy: "id=\"analyzer-\(name)\"").dropFirst().first?.components(separatedBy: "</section>").first ?? ""
            }
            #expect(section("tracking").contains("None. With these settings it logs nothing: it has no seeds"), "\(section("tracking").prefix(600))")
            #expect(section("rectangles").contains("None: it ran on the replayed frames and found nothing."))
            #expect(!section("trajectory").contains("None"))
        }
    }

    @Test("the page is self-contained: facts, counts, an inline still, one plot per trajectory, the scores")
    func selfContained() throws {
        try withScratchFolder("cli") { dir in
            let (r, html) = try report("balls-synth", truth: true, in: dir)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(html.hasPrefix("<!doctype html>"))
            #expect(!html.contains("<link") && !html.contains("src=\"http") && !html.contains("href=") && !html.contains("<script src"), "nothing is fetched")
            #expect(html.components(separatedBy: "src=\"data:image/png;base64,").count == 2, "one inline still")
            // The timeline, the scene's overlay, the changed fraction, one height-against-time plot per trajectory (11 in the golden log).
            #expect(html.components(separatedBy: "<svg class=\"timeline\"").count - 1 == 1)
            #expect(html.components(separatedBy: "<svg class=\"overlay\"").count - 1 == 1)
            #expect(html.components(separatedBy: "<svg xmlns").count - 1 == 1 + 11)
            #expect(html.contains("<td>trajectory.end</td><td>11</td>"))
            #expect(html.contains("Against ground truth") && html.contains("216 of 240 truth ball positions covered"))

            let (t, tracking) = try report("tracking-synth", truth: true, in: dir)
            #expect(t.status == 0, "\(t.stderr)")
            #expect(tracking.contains("Confidence of each track") && tracking.contains("success AUC"))
            // Tracks are drawn in colours far from the truth's cyan and orange.
            for colour in Self.strokes(inAnalyzerGroupsOf: tracking) {
                for truthColour in [(0, 230, 230), (255, 150, 0)] {
                    let d = [colour.0 - truthColour.0, colour.1 - truthColour.1, colour.2 - truthColour.2].map { $0 * $0 }.reduce(0, +)
                    #expect(d > 80 * 80, "a track drawn in rgb\(colour), near the truth's rgb\(truthColour)")
                }
            }
            #expect(!Self.strokes(inAnalyzerGroupsOf: tracking).isEmpty)
        }
    }

    @Test("a still of frames wider than the page shows is shrunk to at most 2200 pixels a side; one of frames that fit keeps their size")
    func stillOfLargeFrames() throws {
        try withScratchFolder("cli") { dir in
            for (width, height, expected) in [(4400, 48, (2200, 24)), (640, 48, (640, 48))] {
                let (stream, _) = CLI.y4m(width: width, height: height, count: 3)
                let record = try CLI.run(["record", "-", "-o", "w\(width).luma"], stdin: stream, cwd: dir)
                #expect(record.status == 0, "\(record.stderr)")
                let replay = try CLI.run(["replay", "w\(width).luma", "--analyzer", "differencing", "-o", "w\(width).events.jsonl"], cwd: dir)
                #expect(replay.status == 0, "\(replay.stderr)")
                let r = try CLI.run(["report", "w\(width).luma", "--events", "w\(width).events.jsonl", "-o", "w\(width).html"], cwd: dir)
                #expect(r.status == 0, "\(r.stderr)")
                let html = try String(contentsOfFile: "\(dir)/w\(width).html", encoding: .utf8)
                let base64 = try #require(html.components(separatedBy: "src=\"data:image/png;base64,").dropFirst().first?.prefix { $0 != "\"" })
                let png = try #require(Data(base64Encoded: String(base64)))
                // The PNG's IHDR: width and height, big-endian, at bytes 16 and 20.
                let size = [16, 20].map { at in png[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
                #expect(size == [expected.0, expected.1], "\(width)x\(height)")
            }
        }
    }

    @Test("headless Chromium renders every section, and the scene shows each analyzer's and the truth's colours")
    func inChromium() throws {
        let chromium = try ExternalTool.chromium.require()
        try withScratchFolder("cli") { dir in
            let clip = Self.recordings.appendingPathComponent("balls-synth.luma").path
            #expect(try CLI.run(["replay", clip, "-o", "\(dir)/all.events.jsonl"]).status == 0)
            let r = try CLI.run(["report", clip, "--events", "\(dir)/all.events.jsonl", "--truth",
                                 Self.recordings.appendingPathComponent("balls-synth.truth.json").path, "-o", "\(dir)/all.html"])
            #expect(r.status == 0, "\(r.stderr)")
            let browser = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--user-data-dir=\(dir)/profile"]
            // The DOM as the browser built it: every section is there.
            let dom = try ProgramRun.run(chromium, browser + ["--dump-dom", "file://\(dir)/all.html"])
            let sections = ["facts", "timeline", "scene", "truth"] + (try Self.analyzerNames(inLog: "\(dir)/all.events.jsonl")).map { "analyzer-\($0)" }
            for id in sections { #expect(dom.stdout.contains("id=\"\(id)\""), "section \(id) in the rendered DOM") }
            #expect(dom.stdout.contains("<svg class=\"overlay\"") && dom.stdout.contains("<img class=\"still\""))
            // The filters: unticking trajectory hides its layer, timeline rows and section, and nothing else.
            let page = try String(contentsOfFile: "\(dir)/all.html", encoding: .utf8)
            let untick = "<script>const box = document.querySelector('.filters input[value=trajectory]'); box.checked = false; box.dispatchEvent(new Event('change'));"
                + "const shown = a => [...document.querySelectorAll('[data-analyzer=' + a + ']')].map(e => getComputedStyle(e).display !== 'none' ? 1 : 0);"
                + "document.body.setAttribute('data-trajectory', shown('trajectory').join('')); document.body.setAttribute('data-differencing', shown('differencing').join(''));</script></body>"
            try page.replacingOccurrences(of: "</body>", with: untick).write(toFile: "\(dir)/filtered.html", atomically: true, encoding: .utf8)
            let filtered = try ProgramRun.run(chromium, browser + ["--dump-dom", "file://\(dir)/filtered.html"])
            let hidden = try #require(filtered.stdout.components(separatedBy: "data-trajectory=\"").dropFirst().first?.prefix { $0 != "\"" })
            let kept = try #require(filtered.stdout.components(separatedBy: "data-differencing=\"").dropFirst().first?.prefix { $0 != "\"" })
            #expect(hidden.count >= 3 && !hidden.contains("1"), "trajectory's elements shown after unticking: \(hidden)")
            #expect(kept.count >= 3 && !kept.contains("0"), "differencing's elements hidden: \(kept)")
            // The scene: trajectories' green paths and red points, rectangles' magenta, the truth's cyan.
            let shot = "\(dir)/shot.png"
            let c = try ProgramRun.run(chromium, browser + ["--window-size=1000,2000", "--screenshot=\(shot)", "file://\(dir)/all.html"])
            let image = try PNGFile.read(shot)
            try #require((image.width, image.height) == (1000, 2000), "\(c.stderr)")
            for (name, colour) in [("fitted path", RGBImage.Color.projected), ("trajectory point", .detected), ("rectangle", .rectangle),
                                   ("truth", RGBImage.Color(0, 230, 230))] {
                #expect(Self.count(colour, in: image) >= 20, "\(name) rgb(\(colour.r),\(colour.g),\(colour.b)): \(Self.count(colour, in: image)) pixels")
            }
        }
    }

    @Test("a portrait clip's scene fits the window in Chromium")
    func portraitFits() throws {
        let chromium = try ExternalTool.chromium.require()
        try withScratchFolder("cli") { dir in
            // 60 × 200, every pixel luma 7: the only (7, 7, 7) pixels on the page are the still's.
            let recording = "\(dir)/portrait.luma"
            let writer = try RecordingWriter(path: recording, header: RecordingHeader(width: 60, height: 200, timescale: 30, rateNumerator: 30))
            for i in 0..<10 { try writer.append([UInt8](repeating: 7, count: 60 * 200), ticks: Int64(i)) }
            try writer.close()
            #expect(try CLI.run(["replay", recording, "--analyzer", "differencing", "-o", "\(dir)/portrait.events.jsonl"]).status == 0)
            #expect(try CLI.run(["report", recording, "--events", "\(dir)/portrait.events.jsonl", "-o", "\(dir)/portrait.html"]).status == 0)
            // The browser measures the scene: a copy of the page with a script writing the sizes into the DOM.
            let page = try String(contentsOfFile: "\(dir)/portrait.html", encoding: .utf8)
            let measure = "<script>const r = document.querySelector('.scene').getBoundingClientRect(), i = document.querySelector('img.still').getBoundingClientRect();"
                + "document.body.setAttribute('data-measured', [r.width, r.height, i.height, innerWidth, innerHeight].map(Math.round).join(' '));</script></body>"
            try page.replacingOccurrences(of: "</body>", with: measure).write(toFile: "\(dir)/measured.html", atomically: true, encoding: .utf8)
            let dom = try ProgramRun.run(chromium, ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--user-data-dir=\(dir)/profile",
                                                    "--window-size=1000,800", "--dump-dom", "file://\(dir)/measured.html"])
            let measured = try #require(dom.stdout.components(separatedBy: "data-measured=\"").dropFirst().first?.prefix { $0 != "\"" })
            let v = measured.split(separator: " ").compactMap { Int($0) }
            try #require(v.count == 5, "\(measured)")
            let (width, height, still, windowWidth, windowHeight) = (v[0], v[1], v[2], v[3], v[4])
            #expect(height <= windowHeight && width <= windowWidth, "scene \(width)×\(height) in a \(windowWidth)×\(windowHeight) window")
            #expect(height >= windowHeight * 8 / 10, "the scene is shown large: \(height) of \(windowHeight)")
            #expect(still == height && abs(width * 200 - height * 60) <= 200, "the still fills the scene at the clip's aspect: \(measured)")
        }
    }

    static func count(_ colour: RGBImage.Color, in image: RGBImage) -> Int {
        stride(from: 0, to: image.pixels.count, by: 3).count { i in
            RGBImage.Color(image.pixels[i], image.pixels[i + 1], image.pixels[i + 2]) == colour
        }
    }

    @Test("times are the frames' own: a recording whose frames come faster than its nominal rate is reported at its real span")
    func realTimestamps() throws {
        try withScratchFolder("cli") { dir in
            // Nominally 30 frames/s, 30 frames: 1.000 s at that rate. Taken at 10 ms, then 40 ms steps: 0.740 s.
            let recording = "\(dir)/uneven.luma"
            let writer = try RecordingWriter(path: recording, header: RecordingHeader(width: 64, height: 48, timescale: 1000, rateNumerator: 30))
            for i in 0..<30 {
                var f = [UInt8](repeating: 40, count: 64 * 48)
                for y in 20..<28 { for x in i..<(i + 8) { f[y * 64 + x] = 220 } }
                try writer.append(f, ticks: Int64(i < 15 ? i * 10 : 140 + (i - 14) * 40))
            }
            try writer.close()
            let r = try CLI.run(["replay", recording, "--analyzer", "differencing", "-o", "\(dir)/uneven.events.jsonl"])
            #expect(r.status == 0, "\(r.stderr)")
            let report = try CLI.run(["report", recording, "--events", "\(dir)/uneven.events.jsonl", "-o", "\(dir)/uneven.html"])
            #expect(report.status == 0, "\(report.stderr)")
            let html = try String(contentsOfFile: "\(dir)/uneven.html", encoding: .utf8)
            #expect(html.contains("0.740 s from the first frame to the last"), "the duration from the timestamps")
            #expect(html.contains("(0.000 s … 0.740 s)"), "the replayed frames' times")
            #expect(!html.contains("1.000 s") && !html.contains(">1.0<") && !html.contains(">1.00<"), "nothing at the nominal rate's 1 s")
            // The time axis ends at the real span: ticks every 0.2 s up to 0.6, none at 0.8 (the nominal rate puts frame 29 at 0.967 s).
            let timeline = try #require(html.components(separatedBy: "<svg class=\"timeline\"").last?.components(separatedBy: "</svg>").first)
            #expect(timeline.contains(">0.6</text>") && !timeline.contains(">0.8</text>"))
            // The changed fraction is drawn over the whole recording, on the same axis.
            let changed = try #require(html.components(separatedBy: "Changed fraction of the frame").last?.components(separatedBy: "</svg>").first)
            #expect(changed.contains(">0.0</text>") && changed.contains(">0.6</text>") && !changed.contains(">0.8</text>"))
        }
    }

    @Test("a recording with damaged chunks, the first among them, still gets its report, the damaged frames placed at the nominal rate")
    func damagedChunk() throws {
        try withScratchFolder("cli") { dir in
            // 90 frames at 30/s in chunks of 15; chunks 0 and 1 (frames 0…29) damaged in their frame tables:
            // frame 30 is still 1.000 s after frame 0, and frame 89 2.967 s.
            let recording = "\(dir)/damaged.luma"
            try DamagedRecording.write(to: recording, width: 64, height: 48, frameCount: 90, damagedChunks: [0, 1]) { i, frame in
                for k in frame.indices { frame[k] = UInt8(40 + i) }
            }
            #expect(try CLI.run(["replay", recording, "--analyzer", "differencing", "--skip-damaged", "-o", "\(dir)/d.events.jsonl"]).status == 0)
            let r = try CLI.run(["report", recording, "--events", "\(dir)/d.events.jsonl", "-o", "\(dir)/d.html"])
            #expect(r.status == 0, "\(r.stderr)")
            let html = try String(contentsOfFile: "\(dir)/d.html", encoding: .utf8)
            #expect(html.contains("2.967 s from the first frame to the last"), "\(html.components(separatedBy: "<th>duration</th>").last?.prefix(80) ?? "")")
        }
    }

    @Test("a trajectory that matches no truth is drawn white, apart from the rectangles' magenta")
    func falseAlarmsInWhite() throws {
        try withScratchFolder("cli") { dir in
            // The bundled truth without its first ball segment: the trajectory along it becomes a false alarm.
            let truthPath = Self.recordings.appendingPathComponent("balls-synth.truth.json").path
            var truth = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: truthPath))) as? [String: Any])
            truth["ballSegments"] = Array(try #require(truth["ballSegments"] as? [Any]).dropFirst())
            try JSONSerialization.data(withJSONObject: truth).write(to: URL(fileURLWithPath: "\(dir)/less.truth.json"))
            let clip = Self.recordings.appendingPathComponent("balls-synth.luma").path
            let events = Self.recordings.appendingPathComponent("balls-synth.events.jsonl").path
            let r = try CLI.run(["report", clip, "--events", events, "--truth", "\(dir)/less.truth.json", "-o", "\(dir)/less.html"])
            #expect(r.status == 0, "\(r.stderr)")
            let html = try String(contentsOfFile: "\(dir)/less.html", encoding: .utf8)
            let overlay = try #require(html.components(separatedBy: "<svg class=\"overlay\"").last?.components(separatedBy: "</svg>").first)
            #expect(overlay.contains("<polyline fill=\"none\" stroke=\"rgb(255,255,255)\""), "a false alarm's fitted path in white")
            #expect(!overlay.contains("rgb(230,60,230)"), "no magenta without rectangles")
            #expect(html.contains("false alarms in white"))
        }
    }

    @Test("a trajectory's launch is the fit's velocity at its first point, in pixels' proportions; its apex the parabola's top within the flight")
    func launchAndApex() throws {
        // In a 200 × 100 frame, x = 0.1 + 0.5 t, y = 0.2 + 1.0 t − 2 t²: 0.5 widths/s across, 0.5 widths/s up (1.0 heights/s).
        let fit = PathTimeFit(x: [0.1, 0.5], y: [0.2, 1.0, -2.0])
        let flight = try #require(TrajectoryFlight(fit, span: 0.5, width: 200, height: 100))
        #expect(abs(flight.launchAngle - 45) < 1e-9 && abs(flight.launchSpeed - 0.5.squareRoot()) < 1e-9)
        let apex = try #require(flight.apex)
        #expect(abs(apex.seconds - 0.25) < 1e-12 && abs(apex.x - 0.225) < 1e-12 && abs(apex.y - 0.325) < 1e-12)
        #expect(TrajectoryFlight(fit, span: 0.2, width: 200, height: 100)?.apex == nil, "the top comes after the flight ends")
        #expect(TrajectoryFlight(PathTimeFit(x: [0, 1], y: [0, -1, 2]), span: 1, width: 100, height: 100)?.apex == nil, "a path that bends up has no top")
        #expect(TrajectoryFlight(nil, span: 1, width: 100, height: 100) == nil)
    }

    @Test("tick labels are distinct round numbers within the range, for any span")
    func distinctTicks() {
        for range in [0.0...0.74, 0.0...0.0333, 2.3...2.31, 0.0...1, -0.5...0.5, 0.000123...0.000125, 0.0...2999.9, 1.5...1.5] {
            let ticks = SVGPlot.ticks(range)
            let labels = ticks.map(\.label)
            #expect(Set(labels).count == labels.count, "\(range): \(labels)")
            #expect(!ticks.isEmpty && ticks.allSatisfy { range.lowerBound - 1e-9 <= $0.value && $0.value <= range.upperBound + 1e-9 }, "\(range): \(labels)")
            #expect(range.upperBound - range.lowerBound < 1e-6 || (3...6).contains(ticks.count), "\(range): \(labels)")
        }
        #expect(SVGPlot.ticks(0...0.74).map(\.label) == ["0.0", "0.2", "0.4", "0.6"])
    }

    @Test("every analyzer has its section: configuration table, events, changed fraction, rectangles, trajectories table, tracks; the scene labels ids")
    func everyAnalyzer() throws {
        try withScratchFolder("cli") { dir in
            let clip = Self.recordings.appendingPathComponent("balls-synth.luma").path
            let r = try CLI.run(["replay", clip, "-o", "\(dir)/all.events.jsonl"])
            #expect(r.status == 0, "\(r.stderr)")
            let names = try Self.analyzerNames(inLog: "\(dir)/all.events.jsonl")
            #expect(names.count >= 4, "\(names)")
            let out = try CLI.run(["report", clip, "--events", "\(dir)/all.events.jsonl", "--truth",
                                   Self.recordings.appendingPathComponent("balls-synth.truth.json").path, "-o", "\(dir)/all.html"])
            #expect(out.status == 0, "\(out.stderr)")
            let html = try String(contentsOfFile: "\(dir)/all.html", encoding: .utf8)
            for name in names {
                #expect(html.contains("<section class=\"analyzer\" id=\"analyzer-\(name)\" data-analyzer=\"\(name)\">"), "\(name)'s section")
                #expect(html.contains("<input type=\"checkbox\" checked value=\"\(name)\">"), "\(name)'s filter")
                #expect(html.contains("<g data-analyzer=\"\(name)\">"), "\(name) on the scene and the timeline")
            }
            // Tracking without seeds has nothing to follow, and its section says so.
            let tracking = try #require(html.components(separatedBy: "id=\"analyzer-tracking\"").last?.components(separatedBy: "</section>").first)
            #expect(tracking.contains("<h3>Events</h3>\n<p>None. With these settings it logs nothing: it has no seeds"))
            #expect(html.contains("<th>threshold</th>"), "the configuration as a table")
            #expect(html.contains("Changed fraction of the frame"))
            #expect(html.contains("<th>launch angle (°)</th>") && html.contains("<th>apex</th>") && html.contains("<th>ended</th>"))
            #expect(html.contains("This page holds") && html.contains(names.joined(separator: ", ")), "the caption names what the page holds")
            // Each trajectory's id is written on the scene and in its table.
            let overlay = try #require(html.components(separatedBy: "<svg class=\"overlay\"").last?.components(separatedBy: "</svg>").first)
            let ids = try Self.trajectoryIds(inLog: "\(dir)/all.events.jsonl")
            #expect(!ids.isEmpty)
            for id in ids {
                #expect(overlay.contains(">\(id.prefix(8))</text>") && html.contains("<td>\(id.prefix(8))</td>"), "\(id)")
            }
            // The same inputs give the same bytes.
            let again = try CLI.run(["report", clip, "--events", "\(dir)/all.events.jsonl", "--truth",
                                     Self.recordings.appendingPathComponent("balls-synth.truth.json").path, "-o", "\(dir)/all.html", "--force"])
            #expect(again.status == 0)
            #expect(try String(contentsOfFile: "\(dir)/all.html", encoding: .utf8) == html)
        }
    }

    @Test("a log of another recording, a missing folder and a non-HTML name are refused before any work")
    func refusals() throws {
        try withScratchFolder("cli") { dir in
            let toss = Self.recordings.appendingPathComponent("toss-real.luma").path
            let other = Self.recordings.appendingPathComponent("balls-synth.events.jsonl").path
            let own = Self.recordings.appendingPathComponent("toss-real.events.jsonl").path
            for (arguments, message) in [
                (["report", toss, "--events", other, "-o", "\(dir)/a.html"], "is a log of another recording"),
                (["report", toss, "--events", own, "-o", "\(dir)/nope/a.html"], "does not exist"),
                (["report", toss, "--events", own, "-o", "\(dir)/a.pdf"], "a report is an .html file"),
            ] {
                let r = try CLI.run(arguments)
                #expect(r.status != 0)
                #expect(r.stderr.contains(message), "\(r.stderr)")
            }
        }
    }

    /// The instance names in a log's header, in order.
    static func analyzerNames(inLog path: String) throws -> [String] {
        let header = try String(contentsOfFile: path, encoding: .utf8).prefix { $0 != "\n" }
        let json = try #require(try JSONSerialization.jsonObject(with: Data(header.utf8)) as? [String: Any])
        return ((json["analyzers"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String }
    }

    /// The ids of a log's `trajectory.end` events.
    static func trajectoryIds(inLog path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").filter { $0.contains("\"kind\":\"trajectory.end\"") }.compactMap { line in
            let json = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return (json?["data"] as? [String: Any])?["id"] as? String
        }
    }

    /// The `rgb(…)` stroke colours of polylines drawn for analyzers (not truth) on a page's scene.
    static func strokes(inAnalyzerGroupsOf html: String) -> [(Int, Int, Int)] {
        guard let overlay = html.components(separatedBy: "<svg class=\"overlay\"").last?.components(separatedBy: "</svg>").first else { return [] }
        return overlay.components(separatedBy: "<g data-analyzer=\"").dropFirst().filter { !$0.hasPrefix("truth\"") }.flatMap { group in
            group.components(separatedBy: "<polyline fill=\"none\" stroke=\"rgb(").dropFirst().compactMap { rest -> (Int, Int, Int)? in
                let v = rest.prefix { $0 != ")" }.split(separator: ",").compactMap { Int($0) }
                return v.count == 3 ? (v[0], v[1], v[2]) : nil
            }
        }
    }
}
