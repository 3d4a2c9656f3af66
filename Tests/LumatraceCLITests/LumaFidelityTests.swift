import Foundation
import LumaAnalysis
import LumaEngine
import Testing
import LumaTestSupport

/// A recording holds the frames as decoded, the same way from every input: the codes of the Y plane,
/// with what they mean (range, matrix) written beside them.
@Suite("Luma fidelity: one source, one set of frames, by every input path")
struct LumaFidelityTests {
    /// A limited-range ("tv") H.264 clip, 1280×720 at 179/6 frames/s.
    static func limitedRangeClip() throws -> String {
        let data = try ClipCorpus.require()
        _ = try ExternalTool.ffmpeg.require()
        return data.appendingPathComponent("ball-vertical-toss/ball.mp4").path
    }

    /// Runs a shell pipeline, failing the test with its stderr when it fails.
    @discardableResult
    static func shell(_ command: String) throws -> ProgramResult {
        let result = try ProgramRun.run("/bin/sh", ["-c", command])
        #expect(result.status == 0, "\(command): \(result.stderr)")
        return result
    }

    static func info(_ recording: String) throws -> JSONValue {
        let info = try CLI.run(["info", recording, "--json"])
        #expect(info.status == 0, "\(info.stderr)")
        return try JSONParser.parse(info.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The pixels of every frame of a recording, concatenated (its Y4M export without the markers).
    static func pixels(of recording: String, width: Int, height: Int) throws -> (header: String, pixels: Data) {
        try shell("'\(CLI.binary)' export '\(recording)' --format y4m -o '\(recording).y4m'")
        let y4m = try Data(contentsOf: URL(fileURLWithPath: "\(recording).y4m"))
        let headerEnd = try #require(y4m.firstIndex(of: 10))
        var pixels = Data()
        var offset = headerEnd + 1
        let marker = Data("FRAME\n".utf8)
        while offset < y4m.count {
            #expect(y4m[offset..<(offset + marker.count)] == marker)
            offset += marker.count
            pixels.append(y4m[offset..<(offset + width * height)])
            offset += width * height
        }
        return (String(decoding: y4m[..<headerEnd], as: UTF8.self), pixels)
    }

    @Test("a limited-range H.264 clip gives one frames digest through the file and the pipe, equal to ffmpeg's extracted Y plane", .clipCorpus)
    func filePathEqualsPipePath() throws {
        let clip = try Self.limitedRangeClip()
        try withScratchFolder("cli") { dir in
            // Y4M carries no timestamps: both paths get the clip's own constant rate so the digest
            // (which covers timestamps too) compares the frames alone.
            try Self.shell("'\(CLI.binary)' record '\(clip)' --fps 179/6 -o '\(dir)/file.luma'")
            try Self.shell("ffmpeg -v error -i '\(clip)' -f yuv4mpegpipe - | '\(CLI.binary)' record - -o '\(dir)/pipe.luma'")
            try Self.shell("ffmpeg -v error -i '\(clip)' -vf extractplanes=y -f rawvideo '\(dir)/y.raw'")

            let file = try Self.info("\(dir)/file.luma"), pipe = try Self.info("\(dir)/pipe.luma")
            #expect(file["sha256"]?.stringValue == pipe["sha256"]?.stringValue, "the file and the pipe give different frames")
            let y = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/y.raw"))
            let recorded = try Self.pixels(of: "\(dir)/file.luma", width: 1280, height: 720)
            #expect(recorded.pixels.count == y.count)
            #expect(recorded.pixels == y, "the recorded frames are not the coded Y plane")
            // Limited range means codes below 16 exist only as noise; a stretched recording has 0s.
            #expect(recorded.pixels.min()! > 0)

            for json in [file, pipe] {
                #expect(json["metadata"]?["luma.range"]?.stringValue == "limited")
            }
            #expect(file["metadata"]?["luma.matrix"]?.stringValue == "bt709")
            #expect(file["metadata"]?["luma.origin"]?.stringValue == "Y plane of yuv420p")
        }
    }

    @Test("export hands the range back: Y4M XCOLORRANGE, which ffmpeg reads as the clip's own range", .clipCorpus)
    func exportKeepsTheRange() throws {
        let clip = try Self.limitedRangeClip()
        try withScratchFolder("cli") { dir in
            try Self.shell("'\(CLI.binary)' record '\(clip)' -o '\(dir)/clip.luma'")
            let exported = try Self.pixels(of: "\(dir)/clip.luma", width: 1280, height: 720)
            #expect(exported.header.hasSuffix(" XCOLORRANGE=LIMITED"), "\(exported.header)")
            let probe = try Self.shell("ffprobe -v error -show_entries stream=color_range -of csv=p=0 '\(dir)/clip.luma.y4m'")
            #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "tv")
        }
    }

    @Test("RGB video (a GIF) gives the same luma as the same frames recorded as PNG files", .clipCorpus)
    func colourVideoEqualsImageFiles() throws {
        let data = try ClipCorpus.require()
        _ = try ExternalTool.ffmpeg.require()
        let gif = data.appendingPathComponent("mizuno-golf-swing-gif/golf.gif").path
        try withScratchFolder("cli") { dir in
            try FileManager.default.createDirectory(atPath: "\(dir)/png", withIntermediateDirectories: true)
            try Self.shell("ffmpeg -v error -i '\(gif)' -fps_mode passthrough '\(dir)/png/frame%04d.png'")
            try Self.shell("'\(CLI.binary)' record '\(gif)' -o '\(dir)/gif.luma'")
            try Self.shell("'\(CLI.binary)' record '\(dir)/png' --fps 30 -o '\(dir)/png.luma'")
            let fromVideo = try Self.pixels(of: "\(dir)/gif.luma", width: 480, height: 360).pixels
            let fromFiles = try Self.pixels(of: "\(dir)/png.luma", width: 480, height: 360).pixels
            #expect(fromVideo.count == 86 * 480 * 360)
            #expect(fromVideo == fromFiles, "the GIF's luma differs from its frames' as PNG files")
            let json = try Self.info("\(dir)/gif.luma")
            #expect(json["metadata"]?["luma.range"]?.stringValue == "full")
            #expect(json["metadata"]?["luma.matrix"]?.stringValue == "bt601")
        }
    }
}

/// Export keeps time: a variable-frame-rate recording is never squeezed into one rate without a word.
@Suite("Export of variable-frame-rate recordings")
struct VariableRateExportTests {
    /// 30 frames at 30 fps, then 30 at 10 fps (every third frame of a 30 fps test pattern).
    static func variableRateRecording(in dir: String) throws -> String {
        _ = try ExternalTool.ffmpeg.require()
        try LumaFidelityTests.shell("ffmpeg -v error -f lavfi -i testsrc=size=160x120:rate=30 -t 4 -vf \"select='lt(n\\,30)+not(mod(n\\,3))'\" -fps_mode vfr -c:v ffv1 '\(dir)/vfr.mkv'")
        try LumaFidelityTests.shell("'\(CLI.binary)' record '\(dir)/vfr.mkv' -o '\(dir)/vfr.luma'")
        return "\(dir)/vfr.luma"
    }

    @Test("Y4M export says the rate is forced and writes the real times beside it (mkvmerge v2)")
    func y4mExportWarnsAndKeepsTimes() throws {
        try withScratchFolder("cli") { dir in
            let recording = try Self.variableRateRecording(in: dir)
            let export = try CLI.run(["export", recording, "--format", "y4m", "-o", "\(dir)/out.y4m"])
            #expect(export.status == 0, "\(export.stderr)")
            #expect(export.stderr.contains("variable frame rate"), "\(export.stderr)")
            #expect(export.stderr.contains("1.967 s instead of 3.900 s"), "\(export.stderr)")
            let times = try String(contentsOfFile: "\(dir)/out.y4m.timestamps.txt", encoding: .utf8).split(separator: "\n")
            #expect(times.first == "# timestamp format v2")
            #expect(times.count == 61)
            #expect(Array(times[1...3]) == ["0.000", "33.000", "67.000"])
            #expect(Array(times[30...32]) == ["967.000", "1000.000", "1100.000"])
            #expect(times.last == "3900.000")

            // To stdout there is nowhere beside: the warning says how to keep the times.
            let piped = try LumaFidelityTests.shell("'\(CLI.binary)' export '\(recording)' --format y4m | wc -c")
            #expect(piped.stderr.contains("pass --timestamps FILE"), "\(piped.stderr)")
        }
    }

    @Test("a constant-rate recording exports without a warning or a timestamps file")
    func constantRateIsQuiet() throws {
        try withScratchFolder("cli") { dir in
            try #require(CLI.run(["record", "-", "-o", "\(dir)/cfr.luma"], stdin: CLI.y4m(width: 32, height: 16, count: 20).stream).status == 0)
            let export = try CLI.run(["export", "\(dir)/cfr.luma", "--format", "y4m", "-o", "\(dir)/out.y4m"])
            #expect(export.status == 0 && !export.stderr.contains("variable"), "\(export.stderr)")
            #expect(!FileManager.default.fileExists(atPath: "\(dir)/out.y4m.timestamps.txt"))
        }
    }

    @Test("a PGM folder's frames.ffconcat plays back through ffmpeg at the recording's own times: same frames digest")
    func pgmFolderRoundTripKeepsTime() throws {
        try withScratchFolder("cli") { dir in
            let recording = try Self.variableRateRecording(in: dir)
            try LumaFidelityTests.shell("'\(CLI.binary)' export '\(recording)' --format pgm -o '\(dir)/frames'")
            try LumaFidelityTests.shell("ffmpeg -v error -safe 0 -f concat -i '\(dir)/frames/frames.ffconcat' -fps_mode passthrough -c:v ffv1 '\(dir)/back.mkv'")
            try LumaFidelityTests.shell("'\(CLI.binary)' record '\(dir)/back.mkv' -o '\(dir)/back.luma'")
            let original = try LumaFidelityTests.info(recording), back = try LumaFidelityTests.info("\(dir)/back.luma")
            #expect(back["frames"]?.intValue == 60)
            #expect(original["sha256"]?.stringValue == back["sha256"]?.stringValue, "the round trip changed frames or times")
        }
    }
}
