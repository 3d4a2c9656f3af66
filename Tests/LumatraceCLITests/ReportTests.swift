import Foundation
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

    @Test("the page is self-contained: facts, counts, an inline still, one plot per trajectory, the scores")
    func selfContained() throws {
        try withScratchFolder("cli") { dir in
            let (r, html) = try report("balls-synth", truth: true, in: dir)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(html.hasPrefix("<!doctype html>"))
            #expect(!html.contains("<script") && !html.contains("<link") && !html.contains("src=\"http"), "nothing is fetched")
            #expect(html.components(separatedBy: "src=\"data:image/png;base64,").count == 2, "one inline still")
            // One height-against-time plot per trajectory (10 in the golden log) plus none for tracks.
            #expect(html.components(separatedBy: "<svg ").count - 1 == 10)
            #expect(html.contains("trajectory.trajectory.end</td><td>10</td>"))
            #expect(html.contains("Against ground truth") && html.contains("missed: ball5.1"))

            let (t, tracking) = try report("tracking-synth", truth: true, in: dir)
            #expect(t.status == 0, "\(t.stderr)")
            #expect(tracking.contains("Confidence of each track") && tracking.contains("success AUC"))
        }
    }

    @Test("headless Chromium renders the report to a screenshot that is not blank")
    func screenshot() throws {
        let chromium = try ExternalTool.chromium.require()
        try withScratchFolder("cli") { dir in
            let (r, _) = try report("balls-synth", truth: true, in: dir)
            #expect(r.status == 0, "\(r.stderr)")
            let shot = "\(dir)/shot.png"
            let c = try ProgramRun.run(chromium, ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1000,1400",
                                               "--user-data-dir=\(dir)/profile", "--screenshot=\(shot)", "file://\(dir)/balls-synth.html"])
            let image = try PNGFile.read(shot)
            #expect((image.width, image.height) == (1000, 1400), "\(c.stderr)")
            // Not blank: many distinct colours (text, the still, the plots), and some dark (text) pixels.
            var colours = Set<RGBImage.Color>()
            var dark = 0
            for i in stride(from: 0, to: image.pixels.count, by: 3) {
                let color = RGBImage.Color(image.pixels[i], image.pixels[i + 1], image.pixels[i + 2])
                colours.insert(color)
                if Int(color.r) + Int(color.g) + Int(color.b) < 150 { dark += 1 }
            }
            #expect(colours.count > 200, "\(colours.count) colours")
            #expect(dark > 2000, "\(dark) dark pixels")
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
}
