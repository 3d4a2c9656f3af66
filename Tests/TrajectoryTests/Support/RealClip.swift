import Foundation
import LumaTestSupport
import TrajectoryAnalyzer

/// The real clips of `../shared/data`, decoded to luma by ffmpeg and run through the analyzer.
enum RealClip {
    /// `Tests/TrajectoryTests/RealTruth`: ball truth made from the colour video (see its README).
    static let truthFolder: String = {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        return here.appendingPathComponent("RealTruth").path
    }()

    /// The clip corpus (``ClipCorpus``), or an error saying where it was looked for.
    static func corpus() throws -> String { try ClipCorpus.require().path }

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// Decodes the clip in `folder` (its one video file) with ffmpeg, frame by frame, to the luma
    /// `lumatrace record` keeps (the coded Y plane, `extractplanes=y`: no range stretch), and runs
    /// the analyzer over it at the clip's average frame rate.
    static func run(folder: String, configuration: TrajectoryConfiguration = .measured) throws -> TrajectoryRun {
        try decode(folder: folder) { clip, render in
            try TrajectoryRunner.run(width: clip.width, height: clip.height, frameCount: clip.frameCount,
                                     framesPerSecond: Int(clip.framesPerSecond.rounded()), configuration: configuration, render: render)
        }
    }

    /// The size, length and average frame rate of a clip.
    struct Clip { var width: Int, height: Int, frameCount: Int, framesPerSecond: Double }

    /// Starts ffmpeg decoding the clip in `folder` to luma and hands `body` the clip and a
    /// function that reads frame after frame into a buffer (in order, each once).
    static func decode<T>(folder: String, scaledTo size: (width: Int, height: Int)? = nil, _ body: (Clip, (Int, UnsafeMutableBufferPointer<UInt8>) throws -> Void) throws -> T) throws -> T {
        let files = try FileManager.default.contentsOfDirectory(atPath: folder)
        guard let video = files.sorted().first(where: { [".mp4", ".avi", ".mov", ".mkv"].contains(where: $0.hasSuffix) }) else {
            throw Failure(description: "\(folder): no video file")
        }
        let path = folder + "/" + video
        let probe = try output(.ffprobe, ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height,avg_frame_rate",
                                "-of", "csv=p=0", path]).split(separator: ",").map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) }
        guard probe.count >= 3, var width = Int(probe[0]), var height = Int(probe[1]) else { throw Failure(description: "\(path): ffprobe said \(probe)") }
        var filter = "extractplanes=y"
        if let size {
            (width, height) = size
            filter += ",scale=\(width):\(height)"
        }
        let rate = probe[2].split(separator: "/").compactMap { Double($0) }
        let fps = rate.count == 2 && rate[1] > 0 ? rate[0] / rate[1] : 30
        let frameCount = Int(try output(.ffprobe, ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                                         "stream=nb_read_frames", "-of", "csv=p=0", path]).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0

        let ffmpeg = try RunningProgram(try ExternalTool.ffmpeg.require(),
                                        ["-nostdin", "-v", "error", "-i", path, "-map", "0:v:0", "-fps_mode", "passthrough",
                                         "-vf", filter, "-pix_fmt", "gray", "-f", "rawvideo", "-"], stdout: .pipe)
        defer { ffmpeg.stop() }  // the body may read fewer frames than the clip has
        let reader = ffmpeg.output!
        return try body(Clip(width: width, height: height, frameCount: frameCount, framesPerSecond: fps)) { index, pixels in
            var filled = 0
            while filled < pixels.count {
                let chunk = reader.readData(ofLength: pixels.count - filled)
                if chunk.isEmpty { throw Failure(description: "\(path): frame \(index) ends early") }
                _ = chunk.copyBytes(to: UnsafeMutableBufferPointer(rebasing: pixels[filled...]))
                filled += chunk.count
            }
        }
    }

    private static func output(_ tool: ExternalTool, _ arguments: [String]) throws -> String {
        let run = try ProgramRun.run(tool, arguments)
        guard run.status == 0 else { throw Failure(description: "\(tool.name) \(arguments.joined(separator: " ")) failed: \(run.stderr)") }
        return run.stdout
    }
}
