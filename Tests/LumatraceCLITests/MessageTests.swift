import Foundation
import LumaAnalysis
import LumaEngine
import Testing
import LumaTestSupport

/// Everyday messages: one error style, one table of exit statuses, and errors that say what to do.
@Suite("Messages and exit statuses")
struct MessageTests {
    static let recordings = PackageLayout.root.appendingPathComponent("Recordings")

    @Test("every error is one 'lumatrace: error:' line, with the exit status of the documented table")
    func oneErrorStyle() throws {
        let help = try CLI.run(["--help"])
        #expect(help.status == 0)
        for row in ["0   done", "1   done, and the answer is a difference", "2   error", "64  usage"] {
            #expect(help.stdout.contains(row), "the exit status table lacks '\(row)'")
        }
        try withScratchFolder("cli") { dir in
            // Usage errors (ArgumentParser's own) and errors found while working, in one style.
            let cases: [(arguments: [String], status: Int32)] = [
                (["record"], 64),
                (["replay", "x.luma", "--jobs", "0"], 64),
                (["frobnicate"], 64),
                (["info", "\(dir)/missing.luma"], 2),
                (["replay", "\(dir)/missing.luma", "-o", "\(dir)/x.jsonl"], 2),
                (["export", "\(dir)/missing.luma", "--format", "y4m", "-o", "\(dir)/x.y4m"], 2),
            ]
            for c in cases {
                let r = try CLI.run(c.arguments)
                #expect(r.status == c.status, "\(c.arguments): status \(r.status): \(r.stderr)")
                #expect(r.stderr.hasPrefix("lumatrace: error: "), "\(c.arguments): \(r.stderr)")
                #expect(!r.stderr.contains("Error:"), "\(c.arguments): \(r.stderr)")
            }
        }
    }

    @Test("record names what it was given: a recording; a camera it cannot open, with ffmpeg's reason")
    func recordSaysWhatItWasGiven() throws {
        try withScratchFolder("cli") { dir in
            let recording = Self.recordings.appendingPathComponent("toss-real.luma").path
            let again = try CLI.run(["record", recording, "-o", "\(dir)/again.luma"])
            #expect(again.status == 2)
            #expect(again.stderr.contains("is already a Lumatrace recording"), "\(again.stderr)")
            let camera = try CLI.run(["record", "/dev/video7", "-o", "\(dir)/cam.luma"])
            #expect(camera.status == 2)
            #expect(camera.stderr.contains("/dev/video7: ffmpeg cannot read it: "), "\(camera.stderr)")
            let file = Self.recordings.appendingPathComponent("../README.md").path
            let notLive = try CLI.run(["record", file, "--live", "-o", "\(dir)/x.luma"])
            #expect(notLive.stderr.contains("add --realtime"), "\(notLive.stderr)")
        }
    }

    @Test("regress, which has no --recording, never suggests it")
    func regressSuggestsWhatItHas() throws {
        try withScratchFolder("cli") { dir in
            try FileManager.default.copyItem(atPath: Self.recordings.appendingPathComponent("toss-real.events.jsonl").path,
                                             toPath: "\(dir)/toss-real.events.jsonl")
            let r = try CLI.run(["regress", dir])
            #expect(r.status == 2)
            #expect(r.stdout.contains("is not next to it") && r.stdout.contains("beside its golden log"), "\(r.stdout)")
            #expect(!(r.stdout + r.stderr).contains("--recording"))
        }
    }

    @Test("the libraries name no flag; each command adds the flags it has (--force, --recording, --skip-damaged)")
    func flagsComeFromTheCommand() throws {
        try withScratchFolder("cli") { dir in
            let balls = Self.recordings.appendingPathComponent("balls-synth.events.jsonl").path
            let tracking = Self.recordings.appendingPathComponent("tracking-synth.events.jsonl").path
            let other = try CLI.run(["diff", balls, tracking])
            #expect(other.status == 2 && other.stderr.contains("is a log of another recording") && other.stderr.contains("use --force to compare anyway"))
            try FileManager.default.copyItem(atPath: balls, toPath: "\(dir)/balls-synth.events.jsonl")
            let verify = try CLI.run(["verify", "\(dir)/balls-synth.events.jsonl"])
            #expect(verify.status == 2 && verify.stderr.contains("is not next to it") && verify.stderr.contains("pass --recording PATH"), "\(verify.stderr)")
            let recording = Self.recordings.appendingPathComponent("balls-synth.luma").path
            let exists = try CLI.run(["replay", recording, "--analyzer", "differencing", "-o", "\(dir)/balls-synth.events.jsonl"])
            #expect(exists.status == 2 && exists.stderr.contains("already exists; pass --force to replace it"), "\(exists.stderr)")
            let unknown = try CLI.run(["replay", recording, "--analyzer", "nosuch", "-o", "\(dir)/x.events.jsonl"])
            #expect(unknown.stderr.contains("option --analyzer: unknown analyzer 'nosuch'"), "\(unknown.stderr)")
        }
    }

    @Test("tracking seeds in pixels (px:x,y,w,h from the top-left corner) track the same as their normalized form")
    func pixelSeeds() throws {
        try withScratchFolder("cli") { dir in
            let recording = Self.recordings.appendingPathComponent("tracking-synth.luma").path  // 320×180
            // px:32,18,32,36 is x 0.1, y 1 - (18 + 36)/180 = 0.7, w 0.1, h 0.2.
            let pixels = try CLI.run(["replay", recording, "--analyzer", "tracking", "--set", "tracking.seeds=px:32,18,32,36", "-o", "\(dir)/px.jsonl"])
            let normalized = try CLI.run(["replay", recording, "--analyzer", "tracking", "--set", "tracking.seeds=0.1,0.7,0.1,0.2", "-o", "\(dir)/n.jsonl"])
            #expect(pixels.status == 0 && normalized.status == 0, "\(pixels.stderr)\(normalized.stderr)")
            let events = { (path: String) throws -> [Substring] in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst().map { $0 } }
            let a = try events("\(dir)/px.jsonl"), b = try events("\(dir)/n.jsonl")
            #expect(a.count > 10 && a == b)
            // Pixel numbers given as normalized are refused with the way to write them.
            let wrong = try CLI.run(["replay", recording, "--analyzer", "tracking", "--set", "tracking.seeds=32,18,32,36", "-o", "\(dir)/w.jsonl"])
            #expect(wrong.status == 64 && wrong.stderr.contains("px:x,y,w,h"), "\(wrong.stderr)")
            let outside = try CLI.run(["replay", recording, "--analyzer", "tracking", "--set", "tracking.seeds=px:300,18,32,36", "-o", "\(dir)/o.jsonl"])
            #expect(outside.status == 2 && outside.stderr.contains("does not fit the 320×180 frame"), "\(outside.stderr)")
        }
    }

    @Test("a bad --set KEY=@FILE names the file and quotes a little of it, never the whole file")
    func optionFromFileIsNotDumped() throws {
        try withScratchFolder("cli") { dir in
            let file = "\(dir)/seeds.txt"
            try (0..<5000).map { "\($0),\($0),10,10" }.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
            let recording = Self.recordings.appendingPathComponent("tracking-synth.luma").path
            for option in ["tracking.seeds", "differencing.threshold"] {
                let analyzer = String(option.prefix { $0 != "." })
                let r = try CLI.run(["replay", recording, "--analyzer", analyzer, "--set", "\(option)=@\(file)", "-o", "\(dir)/x.jsonl"])
                #expect(r.status == 64)
                #expect(r.stderr.hasPrefix("lumatrace: error: --set \(option)=@\(file): "), "\(r.stderr.prefix(300))")
                #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.count < 500, "\(r.stderr.count) bytes: \(r.stderr.prefix(300))")
            }
        }
    }

    @Test("counts read as English: 1 frame, 1 chunk, 1 event")
    func singularCounts() throws {
        try withScratchFolder("cli") { dir in
            let record = try CLI.run(["record", "-", "-o", "\(dir)/one.luma"], stdin: CLI.y4m(width: 16, height: 16, count: 1).stream)
            #expect(record.stdout.contains("recorded 1 frame 16x16 in 1 chunk →"), "\(record.stdout)")
            let replay = try CLI.run(["replay", "\(dir)/one.luma", "--analyzer", "differencing", "-o", "\(dir)/one.events.jsonl"])
            #expect(replay.stdout.contains("replayed 1 frame of"), "\(replay.stdout)")
        }
    }
}

/// An empty result is never a silent surprise, and a new user can find the tool and its completion.
@Suite("Getting started: nothing silently idle, the binary on PATH, shell completion")
struct GettingStartedTests {
    @Test("an analyzer chosen with nothing to do says so once, with what to set")
    func idleAnalyzerSaysSo() throws {
        try withScratchFolder("cli") { dir in
            let recording = MessageTests.recordings.appendingPathComponent("tracking-synth.luma").path
            let idle = try CLI.run(["replay", recording, "--analyzer", "tracking", "-o", "\(dir)/idle.jsonl"])
            #expect(idle.status == 0)
            let notes = idle.stderr.split(separator: "\n").filter { $0.contains("tracking will log nothing") }
            #expect(notes.count == 1, "\(idle.stderr)")
            #expect(notes.first?.contains("tracking.seeds=") == true && notes.first?.contains("tracking.nominate=motion") == true)
            let busy = try CLI.run(["replay", recording, "--analyzer", "tracking", "--set", "tracking.nominate=motion", "-o", "\(dir)/busy.jsonl"])
            #expect(busy.status == 0 && !busy.stderr.contains("will log nothing"), "\(busy.stderr)")
        }
    }

    @Test("record says once what a luma recording leaves out: colour, audio", .clipCorpus)
    func recordSaysWhatItLeavesOut() throws {
        let data = try ClipCorpus.require()
        _ = try ExternalTool.ffmpeg.require()
        try withScratchFolder("cli") { dir in
            let clip = data.appendingPathComponent("ball-vertical-toss/ball.mp4").path  // H.264 with an AAC track
            let r = try CLI.run(["record", clip, "-o", "\(dir)/ball.luma"])
            #expect(r.status == 0, "\(r.stderr)")
            let notes = r.stderr.split(separator: "\n").filter { $0.contains("keeps luma only") }
            #expect(notes.count == 1 && notes[0].hasSuffix("colour and the audio stream are not recorded"), "\(r.stderr)")
            let gray = try CLI.run(["record", "-", "-o", "\(dir)/gray.luma"], stdin: CLI.y4m(width: 16, height: 16, count: 2).stream)
            #expect(gray.status == 0 && !gray.stderr.contains("keeps luma only"), "\(gray.stderr)")
        }
    }

    @Test("the README says how to put lumatrace on PATH, and its shell completion command works")
    func pathAndCompletion() throws {
        let readme = try String(contentsOf: PackageLayout.root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("swift build -c release --product lumatrace"))
        #expect(readme.contains(".build/release/lumatrace"))
        #expect(readme.contains("lumatrace --generate-completion-script bash"))
        for shell in ["bash", "zsh", "fish"] {
            let r = try CLI.run(["--generate-completion-script", shell])
            #expect(r.status == 0 && r.stdout.contains("replay"), "\(shell): \(r.stderr)")
        }
    }
}
