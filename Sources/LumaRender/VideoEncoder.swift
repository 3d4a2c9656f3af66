import LumaBase
import LumaProcess
import Synchronization

/// Pictures encoded as a video by ffmpeg: each ``RGBImage`` piped in as raw RGB, written out as an
/// animated GIF (with a palette made for the clip) or an H.264 MP4.
///
/// ```swift
/// let video = try VideoEncoder(ffmpeg: path, output: "clip.mp4", writingTo: temporary,
///                              width: 640, height: 360, rate: 30, container: .mp4)
/// for image in images { try video.write(image) }
/// try video.finish()
/// ```
public final class VideoEncoder {
    /// The kind of video file.
    public enum Container: Sendable {
        case gif, mp4
    }

    private let ffmpeg: RunningProgram
    /// ffmpeg's last line on standard error (with `-v error`, what went wrong), read as it comes.
    private final class LastLine: Sendable { let text = Mutex("") }
    private let lastLine = LastLine()
    private let errors: LineReader
    private let output: String

    /// Starts ffmpeg (at `path`) writing `temporary`, which becomes `output` once complete (the
    /// caller renames it): pictures `width × height`, shown `rate` times a second.
    public init(ffmpeg path: String, output: String, writingTo temporary: String, width: Int, height: Int, rate: Double,
                container: Container) throws(ProgramError) {
        self.output = output
        let gif = container == .gif
        let filter = gif ? "split[a][b];[a]palettegen=stats_mode=diff[p];[b][p]paletteuse" : "pad=ceil(iw/2)*2:ceil(ih/2)*2"
        let codec = gif ? ["-loop", "0"] : ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-crf", "20"]
        var program = Program(path, ["-v", "error", "-xerror", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", "\(width)x\(height)",
                                     "-r", DecimalText.fixed(max(rate, 0.01), 6), "-i", "-", "-vf", filter] + codec
                                    + ["-f", gif ? "gif" : "mp4", "-y", temporary])
        // A pipe of frames in; ffmpeg dying (a full disk) makes the next write fail with a message.
        program.standardInput = .pipe
        program.standardOutput = .null
        program.standardError = .pipe
        program.ownProcessGroup = true
        ffmpeg = try program.start()
        let lastLine = lastLine
        errors = LineReader(ffmpeg.standardError!, thread: "ffmpeg stderr", line: { line in
            if !line.isEmpty { lastLine.text.withLock { $0 = line } }
        })
    }

    /// Sends one picture; throws when ffmpeg no longer takes them (it has failed).
    public func write(_ image: RGBImage) throws(VideoEncoderError) {
        do { try ffmpeg.standardInput!.writeAll(image.pixels) } catch {
            throw .stoppedTakingFrames(output: output, ffmpegSaid: message())
        }
    }

    /// Ends the video and waits for ffmpeg; throws when it did not succeed.
    public func finish() throws(VideoEncoderError) {
        ffmpeg.standardInput!.close()
        let end: Termination
        do { end = try ffmpeg.wait() } catch { throw .program(error) }
        guard end.succeeded else { throw .failed(output: output, termination: end, ffmpegSaid: message()) }
    }

    /// Stops ffmpeg without finishing the video (the caller removes the temporary file).
    public func abandon() {
        ffmpeg.standardInput!.close()
        ffmpeg.terminate()
        _ = try? ffmpeg.wait()
    }

    /// ffmpeg's last line, once it has closed standard error (it has exited, or is about to).
    private func message() -> String {
        errors.waitForEnd()
        return lastLine.text.withLock { $0 }
    }
}

/// Why a video could not be encoded.
public enum VideoEncoderError: Error, Equatable, CustomStringConvertible {
    /// ffmpeg stopped reading pictures before the last one; `ffmpegSaid` is its last line.
    case stoppedTakingFrames(output: String, ffmpegSaid: String)
    /// ffmpeg ended without success.
    case failed(output: String, termination: Termination, ffmpegSaid: String)
    /// Waiting for ffmpeg failed.
    case program(ProgramError)

    public var description: String {
        switch self {
        case .stoppedTakingFrames(let output, let said): "\(output): ffmpeg stopped taking frames: \(said)"
        case .failed(let output, let end, let said): "\(output): ffmpeg failed (it \(end)): \(said)"
        case .program(let error): "\(error)"
        }
    }
}
