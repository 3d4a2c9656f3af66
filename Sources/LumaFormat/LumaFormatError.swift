/// Everything that can go wrong reading or writing a `.luma` recording or importing frames.
///
/// Each case names the file and, where it applies, the frame, chunk or byte offset, so the command
/// line can print one line that tells the user what is wrong and where.
public enum LumaFormatError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be opened, read or written at all.
    case io(path: String, reason: String)
    /// The file is not a `.luma` recording; `looksLike` guesses what it is instead.
    case notARecording(path: String, looksLike: String)
    /// The file is a recording of a format version this build does not read.
    case unsupportedVersion(path: String, version: Int)
    /// The file header is damaged or declares something impossible.
    case invalidHeader(path: String, reason: String)
    /// A chunk cannot be used: its header or payload is damaged or impossible.
    case damagedChunk(path: String, chunk: Int, frames: String, reason: String)
    /// Frames are not in the recording at all: lost to damage in an unclosed file, or removed with
    /// their damaged chunk by `recover` (the index then records the hole).
    case missingFrames(path: String, frames: ClosedRange<Int>, reason: String)
    /// The recording has no readable frames.
    case noFrames(path: String)
    /// A frame index past the end of the recording was asked for.
    case frameOutOfRange(path: String, frame: Int, frameCount: Int)
    /// Frames handed to the writer do not fit the recording (size, timestamps).
    case invalidFrame(path: String, frame: Int, reason: String)
    /// The output file exists and overwriting was not allowed.
    case outputExists(path: String)
    /// The recording cannot be written where asked (see ``OutputError``).
    case output(OutputError)
    /// The output names the input itself (the same file, through a symlink or a hard link too):
    /// writing it would destroy what is being read.
    case outputIsInput(path: String, output: String)
    /// Recovery could not produce a file holding at least what the recording holds; the recording
    /// is left untouched. `reason` says what could and could not be kept.
    case recoveryRefused(path: String, reason: String)
    /// An input stream (Y4M, images, a video through ffmpeg) is malformed.
    case invalidInput(source: String, frame: Int?, reason: String)

    public var description: String {
        switch self {
        case .io(let path, let reason):
            return "\(path): \(reason)"
        case .notARecording(let path, let looksLike):
            return "\(path): not a .luma recording (\(looksLike))"
        case .unsupportedVersion(let path, let version):
            return "\(path): .luma format version \(version) is not supported by this build (it reads versions \(RecordingHeader.readableVersions.lowerBound)...\(RecordingHeader.readableVersions.upperBound)); upgrade lumatrace"
        case .invalidHeader(let path, let reason):
            return "\(path): invalid recording header: \(reason)"
        case .damagedChunk(let path, let chunk, let frames, let reason):
            return "\(path): chunk \(chunk) (frames \(frames)) is damaged: \(reason)"
        case .missingFrames(let path, let frames, let reason):
            let which = frames.count == 1 ? "frame \(frames.lowerBound) is" : "frames \(frames.lowerBound)...\(frames.upperBound) are"
            return "\(path): \(which) not in the recording (\(reason))"
        case .noFrames(let path):
            return "\(path): the recording holds no readable frames"
        case .frameOutOfRange(let path, let frame, let frameCount):
            return "\(path): frame \(frame) is out of range (the recording has \(frameCount) frames, 0...\(max(frameCount - 1, 0)))"
        case .invalidFrame(let path, let frame, let reason):
            return "\(path): frame \(frame): \(reason)"
        case .outputExists(let path):
            return "\(path): already exists"
        case .output(let error):
            return error.description
        case .outputIsInput(let path, let output):
            return "\(output): is the recording \(path) itself; write the output elsewhere"
        case .recoveryRefused(let path, let reason):
            return "\(path): not recovered, the file is left untouched: \(reason)"
        case .invalidInput(let source, let frame, let reason):
            if let frame { return "\(source): frame \(frame): \(reason)" }
            return "\(source): \(reason)"
        }
    }
}
