import Foundation
import LumaAnalysis
import LumaEngine
import LumaRender
import Testing
import LumaTestSupport

/// `lumatrace render`: the log drawn over the frames, checked by decoding what was written.
@Suite("render: overlays as PNG frames, contact sheets, GIF and MP4")
struct RenderTests {
    static let recordings = PackageLayout.root.appendingPathComponent("Recordings")
    static let toss = recordings.appendingPathComponent("toss-real.luma").path
    static let tossLog = recordings.appendingPathComponent("toss-real.events.jsonl").path

    /// Is `c` the overlay's red, green, …, allowing for nothing (PNG is lossless)?
    func isColor(_ c: RGBImage.Color, _ expected: RGBImage.Color) -> Bool { c == expected }

    @Test("PNG frames: a red dot at every detected trajectory point, a green fitted path, frame size kept")
    func pngFrames() throws {
        try withScratchFolder("cli") { dir in
            let r = try CLI.run(["render", Self.toss, "--events", Self.tossLog, "-o", "\(dir)/frames/", "--from", "26", "--to", "28"])
            #expect(r.status == 0, "\(r.stderr)")
            let files = try FileManager.default.contentsOfDirectory(atPath: "\(dir)/frames").sorted()
            #expect(files == ["frame-000026.png", "frame-000027.png", "frame-000028.png"])
            let image = try PNGFile.read("\(dir)/frames/frame-000028.png")
            #expect((image.width, image.height) == (640, 360))
            let log = try EventLog.read(Self.tossLog)
            let event = try #require(log.events.first { $0.frame == 28 && $0.kind == "trajectory" })
            let points = try #require(event.data["detectedPoints"]?.arrayValue).compactMap { $0.arrayValue?.compactMap { $0.doubleValue } }
            #expect(points.count == 10)
            for p in points {
                let (x, y) = (Int(p[0] * 640), Int((1 - p[1]) * 360))
                #expect(isColor(image[x, y], .detected), "no red dot at the detected point (\(x), \(y))")
            }
            #expect(image.pixels.count == 640 * 360 * 3)
            let green = stride(from: 0, to: image.pixels.count, by: 3).filter {
                RGBImage.Color(image.pixels[$0], image.pixels[$0 + 1], image.pixels[$0 + 2]) == .projected
            }
            #expect(green.count > 20, "the fitted path is drawn in green")
            // A frame without events is the recording's frame, grey.
            let plain = try PNGFile.read("\(dir)/frames/frame-000026.png")
            #expect(plain[10, 10].r == plain[10, 10].g && plain[10, 10].g == plain[10, 10].b)
        }
    }

    @Test("a contact sheet has one labelled tile per --every'th frame; tracked boxes keep their track's colour")
    func contactSheet() throws {
        try withScratchFolder("cli") { dir in
            let recording = Self.recordings.appendingPathComponent("tracking-synth.luma").path
            let log = Self.recordings.appendingPathComponent("tracking-synth.events.jsonl").path
            let r = try CLI.run(["render", recording, "--events", log, "-o", "\(dir)/sheet.png", "--every", "30", "--columns", "3"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("drew 3 frames"))
            let sheet = try PNGFile.read("\(dir)/sheet.png")
            // 3 tiles of 320×180 in one row, 4-pixel gaps.
            #expect((sheet.width, sheet.height) == (3 * 324 + 4, 184 + 4))
            // Frame 0's box of object2 (the second track, alone on the left): its top edge in its colour.
            let first = try #require(try EventLog.read(log).events.first { $0.kind == "track" && $0.data["label"]?.stringValue == "object2" })
            let box = try #require(first.data["boundingBox"]?.arrayValue).compactMap { $0.doubleValue }
            let (x, y) = (4 + Int(box[0] * 320) + 3, 4 + Int((1 - box[1] - box[3]) * 180))
            #expect(sheet[x, y] == RGBImage.Color.tracks[1], "expected the second track's colour at (\(x), \(y)), found \(sheet[x, y])")
            // The label "0" in white on a black backing at the tile's top left.
            #expect(sheet[6, 6] == .black)
            #expect((7..<12).contains { gx in (7..<14).contains { gy in sheet[gx, gy] == .white } }, "the tile is labelled with its frame number")
        }
    }

    @Test("GIF and MP4 hold one frame per drawn frame (ffprobe)", arguments: ["gif", "mp4"])
    func video(format: String) throws {
        let ffprobe = try ExternalTool.ffprobe.require()
        _ = try ExternalTool.ffmpeg.require()
        try withScratchFolder("cli") { dir in
            let out = "\(dir)/toss.\(format)"
            let r = try CLI.run(["render", Self.toss, "--events", Self.tossLog, "-o", out, "--from", "10", "--to", "39"])
            #expect(r.status == 0, "\(r.stderr)")
            let probe = try ProgramRun.run(ffprobe, ["-v", "error", "-count_frames", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", out])
            #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "30")
        }
    }

    @Test("refused before any work: a log of another recording, a missing folder, an unknown format, no ffmpeg")
    func refusals() throws {
        try withScratchFolder("cli") { dir in
            let otherLog = Self.recordings.appendingPathComponent("balls-synth.events.jsonl").path
            let cases: [([String], String, [String: String]?)] = [
                (["render", Self.toss, "--events", otherLog, "-o", "\(dir)/a.png"], "is a log of another recording", nil),
                (["render", Self.toss, "--events", Self.tossLog, "-o", "\(dir)/missing/a.png"], "the folder \(dir)/missing does not exist", nil),
                (["render", Self.toss, "--events", Self.tossLog, "-o", "\(dir)/a.bmp"], "cannot write .bmp", nil),
                (["render", Self.toss, "--events", Self.tossLog, "-o", "\(dir)/a.gif"], "ffmpeg is not installed, and it is needed to write GIF and MP4. Install it with `sudo apt-get install ffmpeg`",
                 ["PATH": "/nonexistent"]),
            ]
            for (arguments, message, environment) in cases {
                let r = try CLI.run(arguments, environment: environment)
                #expect(r.status != 0, "\(arguments)")
                #expect(r.stderr.contains(message), "\(arguments): \(r.stderr)")
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty, "nothing was written")
            let forced = try CLI.run(["render", Self.toss, "--events", otherLog, "-o", "\(dir)/forced.png", "--force", "--to", "3"])
            #expect(forced.status == 0, "\(forced.stderr)")
        }
    }

    /// The overlay's colours in an image, counted.
    func count(_ color: RGBImage.Color, in image: RGBImage) -> Int {
        stride(from: 0, to: image.pixels.count, by: 3).filter {
            RGBImage.Color(image.pixels[$0], image.pixels[$0 + 1], image.pixels[$0 + 2]) == color
        }.count
    }

    @Test("a trajectory stays drawn between its updates until its end event: no blinking, gone after the end")
    func objectsDrawnForTheirWholeLife() throws {
        // toss-real logs the throw at frames 25...36 and ends it at frame 45; the only other path
        // (the hand, one observation at frame 25) ends at frame 34.
        let log = try EventLog.read(Self.tossLog)
        let observations = log.events.filter { $0.kind == "trajectory" }
        let ids = Dictionary(grouping: observations) { $0.data["id"]?.stringValue ?? "" }
        let toss = try #require(ids.max { $0.value.count < $1.value.count })
        #expect(toss.value.map(\.frame) == Array(25...36))
        let ends = log.events.filter { $0.kind == "trajectory.end" }
        #expect(ends.map(\.frame) == [34, 45])
        #expect(ends.last?.data["id"]?.stringValue == toss.key)
        try withScratchFolder("cli") { dir in
            let r = try CLI.run(["render", Self.toss, "--events", Self.tossLog, "-o", "\(dir)/frames/", "--from", "36", "--to", "45"])
            #expect(r.status == 0, "\(r.stderr)")
            let last = try PNGFile.read("\(dir)/frames/frame-000036.png")
            for frame in 37...44 {
                let image = try PNGFile.read(String(format: "\(dir)/frames/frame-%06d.png", frame))
                #expect(count(.detected, in: image) == count(.detected, in: last), "frame \(frame): the trajectory's points blink off")
                #expect(count(.projected, in: image) == count(.projected, in: last), "frame \(frame): the fitted path blinks off")
            }
            let ended = try PNGFile.read("\(dir)/frames/frame-000045.png")
            #expect(count(.detected, in: ended) == 0 && count(.projected, in: ended) == 0, "drawn after its end event")
        }
    }

    @Test("a GIF of a variable-frame-rate recording lasts as long as the recording, and says the rate varies")
    func gifAtTheRecordingsOwnPace() throws {
        _ = try ExternalTool.ffmpeg.require()
        try withScratchFolder("cli") { dir in
            // 30 frames at 30 fps, then 30 at 10 fps: 3.9 s, nominal rate 30 fps (which would give 2 s).
            let recording = try VariableRateExportTests.variableRateRecording(in: dir)
            let empty = try CLI.run(["replay", recording, "--analyzer", "differencing", "-o", "\(dir)/vfr.events.jsonl"])
            #expect(empty.status == 0, "\(empty.stderr)")
            let r = try CLI.run(["render", recording, "--events", "\(dir)/vfr.events.jsonl", "-o", "\(dir)/vfr.gif"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stderr.contains("variable frame rate"), "\(r.stderr)")
            let probe = try ProgramRun.run(.ffprobe, ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", "\(dir)/vfr.gif"])
            let duration = try #require(Double(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
            // 60 frames over 3.9 s: 3.9 s plus the last frame's 1/15 s, to GIF's 1/100 s.
            #expect(abs(duration - 3.965) <= 0.02, "GIF lasts \(duration) s")
        }
    }
}
