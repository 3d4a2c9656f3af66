import Foundation
import Testing
import LumaTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// What a file from someone else says (paths, sizes, counts, times, kinds) is checked where it
/// enters, and nothing done in place loses frames: the defects of the third attack run, each as the
/// rule it broke.
@Suite("What a file says is checked where it enters; nothing done in place loses frames")
struct FileClaimTests {
    static let recordings = PackageLayout.root.appendingPathComponent("Recordings")
    static let toss = recordings.appendingPathComponent("toss-real.luma").path
    static let tossLog = recordings.appendingPathComponent("toss-real.events.jsonl").path

    /// A small version-3 recording of several chunks, made by `synth`.
    static func recording(in dir: String, name: String = "m.luma", size: String = "160x120", frames: Int = 90) throws -> String {
        try CLI.synth("balls", to: "\(dir)/\(name)", size: size, frames: frames)
    }

    /// `bytes` with the header record at `offset` (magic, lengths, fields, CRC) holding another
    /// width, height or format version, its CRC made good.
    static func rewritingHeader(_ bytes: [UInt8], at offset: Int, width: UInt32? = nil, height: UInt32? = nil, version: UInt16? = nil) -> [UInt8] {
        var b = bytes
        #expect(Array(b[offset..<offset + 4]) == Array("LUMA".utf8))
        let fieldsLength = Int(b[offset + 4]) | Int(b[offset + 5]) << 8 | Int(b[offset + 6]) << 16 | Int(b[offset + 7]) << 24
        let fields = offset + 16
        func put<T: FixedWidthInteger>(_ value: T, at position: Int) {
            withUnsafeBytes(of: value.littleEndian) { for (i, byte) in $0.enumerated() { b[position + i] = byte } }
        }
        if let version { put(version, at: fields) }
        if let width { put(width, at: fields + 4) }
        if let height { put(height, at: fields + 8) }
        put(CraftedBytes.crc32(Array(b[offset..<fields + fieldsLength])), at: fields + fieldsLength)
        return b
    }

    /// Where the header's copy after the first chunk starts (format version 2 and later).
    static func headerCopyOffset(_ bytes: [UInt8]) throws -> Int {
        let magic = Array("LUMA".utf8)
        let found = (1..<(bytes.count - 4)).first { bytes[$0] == magic[0] && Array(bytes[$0..<$0 + 4]) == magic }
        return try #require(found, "no header copy")
    }

    // MARK: - 1. regress merge

    @Test("a part file whose staged golden names a file outside its corpus is refused, and that file is left alone")
    func tamperedPartIsRefused() throws {
        try withScratchFolder("claims") { dir in
            let corpus = try ShardedRegressTests.copyOfRecordings(in: dir)
            let before = try ShardedUpdateTests.goldens(corpus)
            let parts = try ShardedUpdateTests.shards(corpus, count: 2, stage: "\(dir)/stage", in: dir)
            // The outside file has the bytes of the golden the shard staged for, so its digest is the one the part records.
            var tampered: String?
            let outside = "\(dir)/precious.events.jsonl"
            for part in parts where tampered == nil {
                let text = try String(contentsOfFile: part, encoding: .utf8)
                let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
                let outcomes = try #require(json["outcomes"] as? [[String: Any]])
                guard let staged = outcomes.lazy.compactMap({ ($0["outcome"] as? [String: Any])?["staged"] as? [String: Any] }).first,
                      let golden = staged["golden"] as? String else { continue }
                try FileManager.default.copyItem(atPath: golden, toPath: outside)
                // Only that path changes, byte for byte as the shard wrote the rest.
                let edited = text.replacingOccurrences(of: #""golden":"\#(golden)""#, with: #""golden":"\#(outside)""#)
                #expect(edited != text, "the staged golden's path is not in the part as written")
                try edited.write(toFile: part, atomically: true, encoding: .utf8)
                tampered = part
            }
            try #require(tampered != nil, "no shard staged a log: the change must replace a golden for this test to say anything")
            let outsideBytes = try Data(contentsOf: URL(fileURLWithPath: outside))
            let merged = try CLI.run(["regress", "merge"] + parts)
            #expect(merged.status == 2, "\(merged.stderr)")
            #expect(merged.stderr.contains("no golden log was replaced: \(tampered!): its outcome of golden") && merged.stderr.contains(outside),
                    "\(merged.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: outside)) == outsideBytes, "the file outside the corpus was replaced")
            #expect(try ShardedUpdateTests.goldens(corpus) == before)
        }
    }

    // MARK: - 2. recover

    @Test("an intact header at byte 0 that disagrees with its copy (size, version) is resolved by the chunks: recover restores the file byte for byte",
          arguments: ["1x1", "16384x16384", "version 2"])
    func disagreeingHeaders(_ claim: String) throws {
        try withScratchFolder("claims") { dir in
            let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: try Self.recording(in: dir))))
            let crafted = switch claim {
            case "1x1": Self.rewritingHeader(original, at: 0, width: 1, height: 1)
            case "16384x16384": Self.rewritingHeader(original, at: 0, width: 16384, height: 16384)
            default: Self.rewritingHeader(original, at: 0, version: 2)
            }
            let path = "\(dir)/crafted.luma"
            try Data(crafted).write(to: URL(fileURLWithPath: path))
            let info = try CLI.run(["info", path])
            #expect(info.stdout.contains("frames        90"), "\(info.stdout)")
            #expect(info.stdout.contains("disagree"), "\(info.stdout)")
            let r = try CLI.run(["recover", path])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("kept 90 frames"), "\(r.stdout)")
            #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) == original)
        }
    }

    @Test("when no chunk decodes with either header, recover in place replaces nothing")
    func noFrameIsNeverWorthIt() throws {
        try withScratchFolder("claims") { dir in
            let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: try Self.recording(in: dir))))
            let both = Self.rewritingHeader(Self.rewritingHeader(original, at: 0, width: 1, height: 1), at: try Self.headerCopyOffset(original),
                                            width: 1, height: 1)
            let path = "\(dir)/both.luma"
            try Data(both).write(to: URL(fileURLWithPath: path))
            let r = try CLI.run(["recover", path])
            #expect(r.status == 2)
            #expect(r.stderr.contains("none of the") && r.stderr.contains("chunks found decodes"), "\(r.stderr)")
            #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) == both, "recover replaced the file")
        }
    }

    @Test("a recording recover removed a damaged chunk from exports and replays whole; the removed frames are a logged gap")
    func recoveredFileIsWhole() throws {
        try withScratchFolder("claims") { dir in
            // Chunks hold about 16 MiB of frames: 150 frames of 640x360 make three.
            var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: try Self.recording(in: dir, size: "640x360", frames: 150))))
            let info = try CLI.run(["info", "\(dir)/m.luma", "--json"])
            let chunks = try #require((try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any])?["chunks"] as? Int)
            try #require(chunks >= 3, "the recording needs a middle chunk to damage (\(chunks) chunks)")
            for i in (bytes.count / 2)..<(bytes.count / 2 + 64) { bytes[i] ^= 0x5A }
            let damaged = "\(dir)/damaged.luma"
            try Data(bytes).write(to: URL(fileURLWithPath: damaged))
            let recovered = "\(dir)/recovered.luma"
            let r = try CLI.run(["recover", damaged, "-o", recovered])
            #expect(r.status == 0, "\(r.stderr)")
            let replay = try CLI.run(["replay", recovered, "--analyzer", "differencing", "-o", "\(dir)/r.events.jsonl"])
            #expect(replay.status == 0, "\(replay.stderr)")
            #expect(!replay.stderr.contains("chunk -1"), "\(replay.stderr)")
            #expect(try String(contentsOfFile: "\(dir)/r.events.jsonl", encoding: .utf8).contains(#""kind":"gap""#))
            let export = try CLI.run(["export", recovered, "--format", "y4m", "-o", "\(dir)/r.y4m"])
            #expect(export.status == 0, "\(export.stderr)")
            #expect(FileManager.default.fileExists(atPath: "\(dir)/r.y4m"))
            // The damaged file itself still needs --skip-damaged, naming the chunk.
            let unrecovered = try CLI.run(["replay", damaged, "--analyzer", "differencing", "-o", "\(dir)/d.events.jsonl"])
            #expect(unrecovered.status == 2)
            #expect(unrecovered.stderr.contains("--skip-damaged"), "\(unrecovered.stderr)")
        }
    }

    // MARK: - 3. times

    @Test("an event time beyond any recording's (±1e300) is refused on its line by every reader; play never traps",
          arguments: ["1e300", "-1e300"])
    func extremeTimes(_ time: String) throws {
        try withScratchFolder("claims") { dir in
            var lines = try String(contentsOfFile: Self.tossLog, encoding: .utf8).split(separator: "\n").map(String.init)
            lines[1] = lines[1].replacingOccurrences(of: #""t":[0-9.]+"#, with: "\"t\":\(time)", options: .regularExpression)
            let log = "\(dir)/times.events.jsonl"
            try (lines.joined(separator: "\n") + "\n").write(toFile: log, atomically: true, encoding: .utf8)
            for command in [["play", log, "--rate", "1000"], ["verify", log], ["diff", log, log]] {
                let r = try MeasuredRun.run(command)
                #expect(!r.crashed, "\(command): \(r.stderr)")
                #expect(r.status == 2, "\(command): \(r.stderr)")
                #expect(r.stderr.contains("times.events.jsonl:2: event time"), "\(command): \(r.stderr)")
            }
        }
    }

    // MARK: - 4, 5. counts and sizes

    @Test("a pipeline naming more analyzer instances than the limit is refused before any is made; the limit can be raised")
    func instanceLimit() throws {
        try withScratchFolder("claims") { dir in
            func pipeline(_ count: Int) throws -> String {
                let path = "\(dir)/p\(count).json"
                let entries = (0..<count).map { #"{"name":"d\#($0)","analyzer":"differencing"}"# }
                try #"{"analyzers":[\#(entries.joined(separator: ","))]}"#.write(toFile: path, atomically: true, encoding: .utf8)
                return path
            }
            let many = try MeasuredRun.run(["replay", Self.toss, "--pipeline", try pipeline(1000), "-o", "\(dir)/many.events.jsonl"])
            #expect(many.status == 2, "\(many.stderr)")
            #expect(many.stderr.contains("1000 analyzer instances, more than the limit of 64") && many.stderr.contains("LUMATRACE_MAX_ANALYZERS"), "\(many.stderr)")
            #expect(many.maxResidentMiB < 64, "refusing 1000 instances held \(many.maxResidentMiB) MiB")
            let raised = try CLI.run(["replay", Self.toss, "--pipeline", try pipeline(70), "--to", "3", "-o", "\(dir)/raised.events.jsonl"],
                                     environment: ProcessInfo.processInfo.environment.merging(["LUMATRACE_MAX_ANALYZERS": "70"]) { $1 })
            #expect(raised.status == 0, "\(raised.stderr)")
            // A log whose header names more is refused the same way by verify.
            let verify = try CLI.run(["verify", "\(dir)/raised.events.jsonl", "--recording", Self.toss])
            #expect(verify.status == 2, "\(verify.stderr)")
            #expect(verify.stderr.contains("70 analyzer instances, more than the limit of 64"), "\(verify.stderr)")
        }
    }

    @Test("a pipeline file is read no further than 4 MiB, as verify and play read a log's line")
    func pipelineSize() throws {
        try withScratchFolder("claims") { dir in
            let path = "\(dir)/huge.json"
            let line = "{\"analyzers\":[" + String(repeating: "0,", count: 24 << 20) + "0]}"
            try line.write(toFile: path, atomically: false, encoding: .utf8)
            let r = try MeasuredRun.run(["replay", Self.toss, "--pipeline", path, "-o", "\(dir)/x.events.jsonl"])
            #expect(r.status == 2, "\(r.stderr)")
            #expect(r.stderr.contains("huge.json: is larger than 4 MiB"), "\(r.stderr)")
            #expect(r.maxResidentMiB < 64, "a 48 MiB pipeline held \(r.maxResidentMiB) MiB before its error")
        }
    }

    // MARK: - 6. --force and kinds

    @Test("--force replaces a result of the same kind only: a recording is never replaced by a log, nor a golden by truth", .clipCorpus)
    func forceKeepsKinds() throws {
        try withScratchFolder("claims") { dir in
            let luma = "\(dir)/other.luma", golden = "\(dir)/golden.events.jsonl"
            try FileManager.default.copyItem(atPath: Self.toss, toPath: luma)
            try FileManager.default.copyItem(atPath: Self.tossLog, toPath: golden)
            let labels = "\(dir)/labels.txt"
            try "1,1,4,4\n".write(toFile: labels, atomically: true, encoding: .utf8)
            let video = try ClipCorpus.require().appendingPathComponent("ball-vertical-toss/ball.mp4").path
            let cases: [(arguments: [String], target: String, found: String)] = [
                (["replay", Self.toss, "--analyzer", "differencing", "-o", luma, "--force"], luma, "a recording"),
                (["truth", "import", "otb", labels, "--size", "64x64", "-o", luma, "--force"], luma, "a recording"),
                (["synth", "balls", "-o", "\(dir)/s.luma", "--frames", "5", "--truth", golden, "--force"], golden, "an event log"),
                (["record", video, "-o", "\(dir)/rec.luma", "--events", luma, "--analyzer", "differencing", "--force"], luma, "a recording"),
            ]
            for c in cases {
                let before = try Data(contentsOf: URL(fileURLWithPath: c.target))
                let r = try CLI.run(c.arguments)
                #expect(r.status == 2, "\(c.arguments): \(r.stderr)")
                #expect(r.stderr.contains("is \(c.found), not "), "\(c.arguments): \(r.stderr)")
                #expect(try Data(contentsOf: URL(fileURLWithPath: c.target)) == before, "\(c.arguments) replaced \(c.target)")
            }
            // The same kind is replaced, as before.
            let same = try CLI.run(["replay", Self.toss, "--analyzer", "differencing", "-o", golden, "--force"])
            #expect(same.status == 0, "\(same.stderr)")
        }
    }

    // MARK: - 7, 11. info

    @Test("info of a file with no readable frame says so in one line; info of a FIFO returns at once naming it")
    func infoSaysWhy() throws {
        try withScratchFolder("claims") { dir in
            let bytes = try Data(contentsOf: URL(fileURLWithPath: try Self.recording(in: dir)))
            let cut = "\(dir)/cut.luma"
            try bytes.prefix(3000).write(to: URL(fileURLWithPath: cut))
            let r = try CLI.run(["info", cut])
            #expect(r.status == 2)
            #expect(r.stderr == "lumatrace: error: \(cut): no frame is readable (1 damaged range listed above)\n", "\(r.stderr)")
            let fifo = "\(dir)/fifo"
            #expect(mkfifo(fifo, 0o600) == 0)
            let f = try CLI.run(["info", fifo])
            #expect(f.status == 2)
            #expect(f.stderr.contains("\(fifo): is a pipe, not a recording"), "\(f.stderr)")
        }
    }

    // MARK: - 9. timescales

    @Test("logs of one video recorded from the file and from a Y4M pipe (two timescales) render, report and diff against each other", .clipCorpus)
    func timescaleIsNotIdentity() throws {
        let ffmpeg = try ExternalTool.ffmpeg.require()
        try withScratchFolder("claims") { dir in
            let video = try ClipCorpus.require().appendingPathComponent("ball-vertical-toss/ball.mp4").path
            let y4m = try ProgramRun.run(ffmpeg, ["-loglevel", "error", "-i", video, "-vf", "extractplanes=y", "-f", "yuv4mpegpipe", "-pix_fmt", "gray", "\(dir)/ball.y4m"])
            #expect(y4m.status == 0, "\(y4m.stderr)")
            for (input, name) in [(video, "file"), ("\(dir)/ball.y4m", "pipe")] {
                let r = try CLI.run(["record", input, "-o", "\(dir)/\(name).luma"])
                #expect(r.status == 0, "\(r.stderr)")
                let l = try CLI.run(["replay", "\(dir)/\(name).luma", "--analyzer", "differencing", "-o", "\(dir)/\(name).events.jsonl"])
                #expect(l.status == 0, "\(l.stderr)")
            }
            let info = try CLI.run(["info", "\(dir)/pipe.luma", "--quick"])
            #expect(!info.stdout.contains("timescale 11456/s"), "the pipe's recording should count time otherwise: \(info.stdout)")
            let render = try CLI.run(["render", "\(dir)/pipe.luma", "--events", "\(dir)/file.events.jsonl", "-o", "\(dir)/sheet.png"])
            #expect(render.status == 0, "\(render.stderr)")
            let plain = try CLI.run(["diff", "\(dir)/file.events.jsonl", "\(dir)/pipe.events.jsonl"])
            #expect(plain.status == 2 && plain.stderr.contains("--recording"), "\(plain.stderr)")
            let checked = try CLI.run(["diff", "\(dir)/file.events.jsonl", "\(dir)/pipe.events.jsonl", "--recording", "\(dir)/pipe.luma"])
            #expect(checked.status == 0, "\(checked.stderr)")
            // Another recording is still another recording.
            let other = try CLI.run(["render", Self.toss, "--events", "\(dir)/file.events.jsonl", "-o", "\(dir)/other.png"])
            #expect(other.status == 2 && other.stderr.contains("is a log of another recording"), "\(other.stderr)")
        }
    }

    // MARK: - 12, 13. messages and rules

    @Test("outputs that collide are refused before anything runs: synth's truth on its recording, record's log on its recording", .clipCorpus)
    func collidingOutputs() throws {
        try withScratchFolder("claims") { dir in
            let synth = try CLI.run(["synth", "balls", "-o", "\(dir)/x.luma", "--truth", "\(dir)/./x.luma", "--frames", "5"])
            #expect(synth.status == 64, "\(synth.stderr)")
            #expect(synth.stderr.contains("name the same file"), "\(synth.stderr)")
            let video = try ClipCorpus.require().appendingPathComponent("ball-vertical-toss/ball.mp4").path
            let record = try CLI.run(["record", video, "-o", "\(dir)/y.luma", "--events", "\(dir)/./y.luma", "--analyzer", "differencing"])
            #expect(record.status == 64, "\(record.stderr)")
            #expect(record.stderr.contains("name the same file"), "\(record.stderr)")
            #expect(!record.stderr.contains("stopped after"), "refused only after recording: \(record.stderr)")
            #expect(!FileManager.default.fileExists(atPath: "\(dir)/y.luma"), "something was recorded before the refusal")
            // A device takes a live log as it takes a replay's.
            let devnull = try CLI.run(["record", video, "-o", "\(dir)/z.luma", "--events", "/dev/null", "--analyzer", "differencing"])
            #expect(devnull.status == 0, "\(devnull.stderr)")
        }
    }

    @Test("a pipeline entry that --set completes runs; a configuration value of the wrong type names the option and what it must be")
    func pipelineMessages() throws {
        try withScratchFolder("claims") { dir in
            try #"{"analyzers":[{"name":"differencing"},{"name":"external"}]}"#.write(toFile: "\(dir)/p.json", atomically: true, encoding: .utf8)
            let program = try PythonPlugin.write("quiet", in: dir, perFrame: "")
            let completed = try CLI.run(["replay", Self.toss, "--pipeline", "\(dir)/p.json", "--set", "external.command=\(program)", "--to", "3",
                                         "-o", "\(dir)/c.events.jsonl"])
            #expect(completed.status == 0, "\(completed.stderr)")
            try #"{"analyzers":[{"name":"external","configuration":{"command":["python3","x.py"]}}]}"#.write(toFile: "\(dir)/a.json", atomically: true, encoding: .utf8)
            let array = try CLI.run(["replay", Self.toss, "--pipeline", "\(dir)/a.json", "-o", "\(dir)/a.events.jsonl"])
            #expect(array.status == 2)
            #expect(array.stderr == "lumatrace: error: option external.command: must be a string (found an array)\n", "\(array.stderr)")
        }
    }

    @Test("a wrong command line is one line: play --from -1 says what a position is; --from after --to is a usage error as in replay")
    func usageInOneLine() throws {
        let negative = try CLI.run(["play", Self.tossLog, "--from", "-1"])
        #expect(negative.status == 64)
        #expect(negative.stderr.contains("a frame index (0, 1, …) or a time in seconds (4.5s), never negative"), "\(negative.stderr)")
        let backwards = try CLI.run(["play", Self.tossLog, "--from", "5", "--to", "2"])
        #expect(backwards.status == 64, "\(backwards.stderr)")
        for r in [negative, backwards, try CLI.run(["replay", Self.toss, "--frobnicate"])] {
            #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
            #expect(r.stderr.hasPrefix("lumatrace: error: ") && r.stderr.contains("--help`)"), "\(r.stderr)")
        }
    }

    @Test("a stream that fails at its first frame gets one line, its error (the note that colour is not kept waits for a frame)")
    func failedFirstFrameIsOneLine() throws {
        try withScratchFolder("claims") { dir in
            let cut = PackageLayout.root.appendingPathComponent("Fuzz/Corpus/FuzzY4M/cut-frame.y4m").path
            let r = try CLI.run(["record", cut, "-o", "\(dir)/c.luma"])
            #expect(r.status == 2)
            #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains("frame 0: frame is shorter than declared"), "\(r.stderr)")
        }
    }

    @Test("a log names its recording by a file name beside it: a path in recording.file is refused by every command that reads it")
    func recordingNameIsAFileName() throws {
        try withScratchFolder("claims") { dir in
            let text = try String(contentsOfFile: Self.tossLog, encoding: .utf8)
            // The log in a folder of its own, the recording it names one level up: there, but not beside it.
            try FileManager.default.createDirectory(atPath: "\(dir)/logs", withIntermediateDirectories: false)
            let log = "\(dir)/logs/up.events.jsonl"
            try text.replacingOccurrences(of: #""file":"toss-real.luma""#, with: #""file":"../toss-real.luma""#).write(toFile: log, atomically: true, encoding: .utf8)
            try FileManager.default.copyItem(atPath: Self.toss, toPath: "\(dir)/toss-real.luma")
            for command in [["verify", log], ["score", log, "--truth", Self.recordings.appendingPathComponent("toss-real.truth.json").path], ["play", log]] {
                let r = try CLI.run(command)
                #expect(r.status == 2, "\(command): \(r.stderr)")
                #expect(r.stderr.contains("recording.file \"../toss-real.luma\" is not a file name"), "\(command): \(r.stderr)")
            }
        }
    }
}
