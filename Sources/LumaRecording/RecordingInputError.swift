import LumaBase

/// Why frames could not be recorded from an input. Messages name the input and say what is wrong;
/// they never name a command-line flag (the command adds what it offers, e.g. `--fps`). A missing
/// ffmpeg or ffprobe is LumaProcess's `ProgramError.toolMissing` (``Tools/require(_:for:otherwise:)``).
public enum RecordingInputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The input could not be opened or looked at (the call and `errno`).
    case cannotOpen(path: String, SystemCallError)
    case noSuchInput(String)
    /// ffprobe or ffmpeg could not read or decode the input.
    case unreadableVideo(path: String, problem: VideoProblem)
    case noVideoStream(String)
    /// Frame timing that cannot be trusted, where evenly spaced timestamps are the way out.
    case noTimestamps(String)
    case timestampNotIncreasing(path: String, frame: Int, ticks: Int64, timescale: Int64, previous: Int64)
    case moreFramesThanListed(path: String, decoded: Int, listed: Int)
    /// A Y4M stream without a frame rate (no `F` tag).
    case noFrameRate(String)
    /// A FIFO or device that does not carry Y4M.
    case notAY4MStream(input: String, output: String)
    /// Live recording reads Y4M streams only.
    case liveNeedsAStream(String)
    case alreadyARecording(String)
    case stoppedBeforeAnyFrame(String)
    case noFrames(String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let failure): return "\(path): cannot open: \(failure.errnoText)"
        case .noSuchInput(let path): return "\(path): no such file or folder"
        case .unreadableVideo(let path, let problem): return "\(path): \(problem)"
        case .noVideoStream(let path): return "\(path): no video stream found"
        case .noTimestamps(let path): return "\(path): no frame has a timestamp"
        case .timestampNotIncreasing(let path, let frame, let ticks, let timescale, let previous):
            return "\(path): frame \(frame): timestamp \(ticks)/\(timescale) s does not increase (previous \(previous))"
        case .moreFramesThanListed(let path, let decoded, let listed):
            return "\(path): ffmpeg decoded more frames (\(decoded)) than ffprobe listed (\(listed))"
        case .noFrameRate(let name): return "\(name): the Y4M stream declares no frame rate (no F tag)"
        case .notAY4MStream(let input, _):
            return "\(input): is a FIFO or device that does not carry a Y4M stream; let ffmpeg read it"
        case .liveNeedsAStream(let input): return "\(input): is a file, read as fast as it decodes, not a live stream"
        case .alreadyARecording(let input): return "\(input): is already a Lumatrace recording"
        case .stoppedBeforeAnyFrame(let input): return "\(input): stopped by a signal before any frame arrived; nothing recorded"
        case .noFrames(let name): return "\(name): no frames to record"
        }
    }
}
