import Foundation
import LumaFormat
import Testing
import LumaTestSupport

/// Inputs ffmpeg opens as it goes (network streams, cameras, `lavfi`, a file at its own pace):
/// `record` starts ffmpeg itself and keeps each frame's presentation timestamp (issue 19, item 4).
@Suite("Live inputs through ffmpeg: the stream's own timestamps, size changes, unopenable inputs")
struct LiveInputTests {
    static func timestamps(_ path: String) throws -> [Int64] {
        try decodedFrames(RecordingReader(path: path)).map(\.ticks)
    }

    @Test("a lavfi source is recorded with its presentation timestamps, and a dropped frame shows as a gap")
    func timestampsFromTheSource() throws {
        _ = try ExternalTool.ffmpeg.require()
        try withScratchFolder("live-input") { dir in
            let whole = try CLI.run(["record", "testsrc2=size=160x120:rate=30:duration=2", "--input-format", "lavfi", "-o", "whole.luma",
                                     "--analyzer", "differencing", "--events", "whole.events.jsonl"], cwd: dir)
            #expect(whole.status == 0, "\(whole.stderr)")
            #expect(try Self.timestamps("\(dir)/whole.luma") == (0..<60).map(Int64.init))
            let info = try CLI.run(["info", "whole.luma"], cwd: dir)
            #expect(info.stdout.contains("presentation timestamps (time base 1/30)"), "\(info.stdout)")
            let replay = try CLI.run(["replay", "whole.luma", "--pipeline", "whole.events.jsonl", "-o", "replay.events.jsonl"], cwd: dir)
            #expect(replay.status == 0, "\(replay.stderr)")
            #expect(FileManager.default.contents(atPath: "\(dir)/whole.events.jsonl") == FileManager.default.contents(atPath: "\(dir)/replay.events.jsonl"))

            // A camera that drops frame 10: its timestamps go 9, 11.
            let dropped = try CLI.run(["record", "testsrc2=size=160x120:rate=30:duration=2,select=not(eq(n\\,10))", "--input-format", "lavfi",
                                       "-o", "dropped.luma"], cwd: dir)
            #expect(dropped.status == 0, "\(dropped.stderr)")
            #expect(try Self.timestamps("\(dir)/dropped.luma") == (0..<60).filter { $0 != 10 }.map(Int64.init))
        }
    }

    @Test("a stream whose frame size changes ends the recording cleanly at the change, every earlier frame kept, and says so")
    func sizeChange() throws {
        let ffmpeg = try ExternalTool.ffmpeg.require()
        try withScratchFolder("live-input") { dir in
            for (name, size) in [("a", "160x120"), ("b", "96x64")] {
                let made = try ProgramRun.run(ffmpeg, ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=30:duration=1",
                                                       "-c:v", "mpeg2video", "-q:v", "2", "-f", "mpegts", "\(dir)/\(name).ts"])
                #expect(made.status == 0, "\(made.stderr)")
            }
            var joined = try #require(FileManager.default.contents(atPath: "\(dir)/a.ts"))
            joined.append(try #require(FileManager.default.contents(atPath: "\(dir)/b.ts")))
            try joined.write(to: URL(fileURLWithPath: "\(dir)/joined.ts"))
            // How many frames a decoder delivers at the first size (the join may cost one at the seam).
            let ffprobe = try ExternalTool.ffprobe.require()
            let widths = try ProgramRun.run(ffprobe, ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=width", "-of", "csv=p=0",
                                                      "\(dir)/joined.ts"]).stdout
                .split(separator: "\n").compactMap { Int($0.prefix { $0.isNumber }) }
            let before = widths.prefix { $0 == 160 }.count
            #expect(before >= 28 && widths.count > before, "\(widths)")
            let r = try CLI.run(["record", "joined.ts", "--input-format", "mpegts", "-o", "joined.luma"], cwd: dir)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stderr.contains("the frame size changed to 96x64 at frame \(before)"), "\(r.stderr)")
            let reader = try RecordingReader(path: "\(dir)/joined.luma")
            #expect(reader.frameCount == before)
            #expect(reader.header.width == 160 && reader.header.height == 120)
        }
    }

    @Test("an input ffmpeg cannot open is refused with ffmpeg's own reason, and nothing is written")
    func unopenable() throws {
        _ = try ExternalTool.ffmpeg.require()
        try withScratchFolder("live-input") { dir in
            let refused = try CLI.run(["record", "rtsp://127.0.0.1:9/nothing-here", "-o", "cam.luma"], cwd: dir)
            #expect(refused.status == 2)
            #expect(refused.stderr.contains("rtsp://127.0.0.1:9/nothing-here: ffmpeg cannot read it: ") && refused.stderr.contains("Connection refused"),
                    "\(refused.stderr)")
            let badGraph = try CLI.run(["record", "nosuchsource=1", "--input-format", "lavfi", "-o", "graph.luma"], cwd: dir)
            #expect(badGraph.status == 2)
            #expect(badGraph.stderr.contains("nosuchsource=1: ffmpeg cannot read it"), "\(badGraph.stderr)")
            #expect(!FileManager.default.fileExists(atPath: "\(dir)/cam.luma"))
            #expect(!FileManager.default.fileExists(atPath: "\(dir)/graph.luma"))
        }
    }

    @Test("a live stream that stalls after some frames still ends on Ctrl-C, every frame received kept")
    func stalledStreamEndsOnInterrupt() throws {
        _ = try ExternalTool.ffmpeg.require()
        try withScratchFolder("cli") { dir in
            let fifo = dir + "/camera.y4m", output = dir + "/camera.luma"
            #expect(mkfifo(fifo, 0o644) == 0)
            let recorder = try CLI.start(["record", fifo, "--input-format", "yuv4mpegpipe", "-o", output, "--chunk-seconds", "0.2"],
                                         stdout: .collected)
            // The test is the camera: it opens the FIFO once ffmpeg reads it (a non-blocking open
            // finds no reader until then), sends 40 frames, then nothing, holding the stream open.
            var camera: Int32 = -1
            let opened = AwaitedEvent.wait(while: { recorder.isRunning }) {
                camera = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
                return camera >= 0
            }
            let ended = opened ? nil : try recorder.wait()
            try #require(opened, "ffmpeg never opened the FIFO: \(ended.map(\.description) ?? "")")
            defer { close(camera) }
            _ = fcntl(camera, F_SETFL, 0)  // blocking writes from here on
            var stream = Array("YUV4MPEG2 W64 H48 F30:1 Cmono\n".utf8)
            for k in 0..<40 { stream += Array("FRAME\n".utf8) + [UInt8](repeating: UInt8(k * 5), count: 64 * 48) }
            let written = stream.withUnsafeBytes { write(camera, $0.baseAddress!, $0.count) }
            #expect(written == stream.count)
            // Ctrl-C once six chunks (36 frames) are in the file: the stream has stalled, with every
            // frame it carried taken in, and the recorder waits for a frame that never comes.
            let recorded = AwaitedEvent.wait(while: { recorder.isRunning }) {
                ((try? RecordingReader(path: output))?.frameCount ?? 0) >= 36
            }
            #expect(recorded, "the recorder did not get the frames")
            recorder.signal(SIGINT)
            // Before a stalled stream heard Ctrl-C, this wait ran out: the patience is a hang guard.
            let result = try recorder.wait(patience: 60)
            #expect(result.status == 0 && result.stdout.contains("stopped by signal"), "\(result)")
            let reader = try RecordingReader(path: output)
            #expect(reader.hasIndex && reader.frameCount == 40 && reader.verify().isEmpty, "\(reader.frameCount) frames, \(reader.damage)")
        }
    }
}
