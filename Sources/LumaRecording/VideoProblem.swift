import LumaAnalysis
import LumaProcess

/// Why ffprobe or ffmpeg could not read a video: the data behind
/// ``RecordingInputError/unreadableVideo(path:problem:)``. ffmpeg's own last words are kept as
/// they are: they are its, not ours.
public enum VideoProblem: Equatable, Sendable, CustomStringConvertible {
    /// ffprobe refused the input, with its last line.
    case ffprobeRefused(String)
    /// ffprobe answered with something that is not JSON.
    case ffprobeNotJSON(JSONParser.Failure)
    /// ffprobe listed no frame that decodes.
    case noDecodableFrames
    /// ffmpeg could not be started.
    case ffmpegDidNotStart(ProgramError)
    /// ffmpeg wrote no frame stream: `reading` says what it was doing (decoding a file, reading a
    /// live stream), `words` its last message.
    case ffmpegRefused(reading: Reading, words: String)
    /// ffmpeg ended badly, with its last message.
    case ffmpegFailed(Termination, words: String)
    /// ffmpeg gave no time base for a live stream.
    case noTimeBase

    /// What ffmpeg was asked to do with the input.
    public enum Reading: Equatable, Sendable {
        case file, liveStream
    }

    public var description: String {
        switch self {
        case .ffprobeRefused(let words): return "ffprobe cannot read it as a video: \(words)"
        case .ffprobeNotJSON(let failure): return "ffprobe's output is not JSON: \(failure)"
        case .noDecodableFrames: return "ffprobe found no decodable video frames"
        case .ffmpegDidNotStart(let error): return "cannot start ffmpeg: \(error.reason)"
        case .ffmpegRefused(.file, let words): return "ffmpeg cannot decode it: \(words)"
        case .ffmpegRefused(.liveStream, let words): return "ffmpeg cannot read it: \(words)"
        case .ffmpegFailed(let end, let words): return "ffmpeg failed (it \(end)): \(words)"
        case .noTimeBase: return "ffmpeg reported no time base for the stream"
        }
    }
}
