import Foundation
import LumaFormat
import LumaRender
import Testing
import LumaTestSupport

/// Render's video half as library types: pictures piped to ffmpeg, and the rate they play at.
@Suite("VideoEncoder and PlaybackRate: pictures encoded by ffmpeg at the recording's own pace")
struct VideoEncoderTests {
    /// A 32×24 picture of one grey level.
    static func picture(_ level: UInt8) -> RGBImage {
        let luma = [UInt8](repeating: level, count: 32 * 24)
        return luma.withUnsafeBufferPointer { RGBImage(luma: $0, width: 32, height: 24) }
    }

    @Test("Every picture written is a frame of the video", arguments: [VideoEncoder.Container.gif, .mp4])
    func framesInVideo(container: VideoEncoder.Container) throws {
        let ffmpeg = try ExternalTool.ffmpeg.require()
        try withScratchFolder("video") { dir in
            let path = "\(dir)/out.\(container == .gif ? "gif" : "mp4")"
            let video = try VideoEncoder(ffmpeg: ffmpeg, output: "out", writingTo: path, width: 32, height: 24, rate: 10, container: container)
            for level in stride(from: 0, to: 250, by: 50) { try video.write(Self.picture(UInt8(level))) }
            try video.finish()
            let probe = try ProgramRun.run(.ffprobe, ["-v", "error", "-count_frames", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", path])
            #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "5")
        }
    }

    @Test("ffmpeg unable to write is an error naming the output and quoting ffmpeg")
    func failureNamesOutput() throws {
        let ffmpeg = try ExternalTool.ffmpeg.require()
        try withScratchFolder("video") { dir in
            let video = try VideoEncoder(ffmpeg: ffmpeg, output: "clip.mp4", writingTo: "\(dir)/missing/clip.mp4", width: 32, height: 24,
                                         rate: 10, container: .mp4)
            let error = try #require(throws: VideoEncoderError.self) {
                for _ in 0..<200 { try video.write(Self.picture(128)) }
                try video.finish()
            }
            switch error {
            case .stoppedTakingFrames(let output, let said), .failed(let output, _, let said):
                #expect(output == "clip.mp4")
                #expect(said.contains("missing/clip.mp4"), "ffmpeg's own words: \(said)")
            case .program(let problem):
                Issue.record("waiting for ffmpeg failed: \(problem)")
            }
            #expect("\(error)".hasPrefix("clip.mp4: ffmpeg "))
        }
    }

    /// Ten frames at 1000 ticks a second: five 100 ms apart, then five 200 ms apart (nominal 25/s).
    static func unevenRecording(in dir: String) throws -> RecordingReader {
        let path = "\(dir)/uneven.luma"
        let header = RecordingHeader(width: 8, height: 8, timescale: 1000, rateNumerator: 25)
        let writer = try RecordingWriter(path: path, header: header, options: RecordingWriterOptions(), overwrite: false)
        for (n, ticks) in [0, 100, 200, 300, 400, 600, 800, 1000, 1200, 1400].enumerated() {
            try writer.append([UInt8](repeating: UInt8(n * 20), count: 64), ticks: Int64(ticks))
        }
        try writer.close()
        return try RecordingReader(path: path)
    }

    @Test("The frames play in the time they were taken in: intervals over span, at any stride")
    func meanRate() throws {
        try withScratchFolder("video") { dir in
            let reader = try Self.unevenRecording(in: dir)
            #expect(try PlaybackRate.mean(of: Array(0...9), in: reader) == 9 / 1.4)
            #expect(try PlaybackRate.mean(of: [0, 3, 6, 9], in: reader) == 3 / 1.4)
            #expect(try PlaybackRate.mean(of: Array(0...4), in: reader) == 4 / 0.4)
        }
    }

    @Test("A single frame plays at the nominal rate")
    func singleFrame() throws {
        try withScratchFolder("video") { dir in
            let reader = try Self.unevenRecording(in: dir)
            #expect(try PlaybackRate.mean(of: [7], in: reader) == 25)
        }
    }
}
