import LumaBase

import LumaOutput

/// Everything that can go wrong reading or writing a `.luma` recording or importing frames.
///
/// Each case names the file and, where it applies, the frame, chunk or byte offset, and carries what
/// was found as typed values (``ChunkDamage``, ``HeaderProblem``, …), so a program can tell the
/// cases apart without reading text; ``description`` makes the one line the command line prints.
public enum LumaFormatError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A call to the system on the file failed (`errno` inside).
    case io(path: String, SystemCallError)
    /// The file ends at byte `at`, inside a record that needs `needed` bytes from byte `from`.
    case fileEnds(path: String, at: UInt64, needed: Int, from: UInt64)
    /// The path names a directory, a device or a pipe; a recording is read at offsets from a
    /// regular file.
    case notARegularFile(path: String, kind: String)
    /// A recording over HTTP could not be read (`attempts` is set when retries were given up).
    case http(url: String, problem: HTTPProblem, attempts: Int?)
    /// The writer was used after ``RecordingWriter/close()``.
    case writerClosed(path: String)
    /// zstd could not compress a chunk (`chunk`) or the reference frame (`nil`).
    case compressionFailed(path: String, chunk: Int?, ZstdFailure)
    /// The file is not a `.luma` recording; `looksLike` guesses what it is instead.
    case notARecording(path: String, looksLike: FileKind)
    /// The file is a recording of a format version this build does not read.
    case unsupportedVersion(path: String, version: Int)
    /// The file header is damaged or declares something impossible.
    case invalidHeader(path: String, problem: HeaderProblem)
    /// A chunk cannot be used: its header or payload is damaged or impossible.
    case damagedChunk(path: String, chunk: Int, frames: ClosedRange<Int>, damage: ChunkDamage)
    /// Frames are not in the recording at all: lost to damage in an unclosed file, or removed with
    /// their damaged chunk by `recover` (the index then records the hole).
    case missingFrames(path: String, frames: ClosedRange<Int>, cause: MissingFramesCause)
    /// The recording has no readable frames.
    case noFrames(path: String)
    /// A frame index past the end of the recording was asked for.
    case frameOutOfRange(path: String, frame: Int, frameCount: Int)
    /// Frames handed to the writer do not fit the recording (size, timestamps).
    case invalidFrame(path: String, frame: Int, problem: FrameProblem)
    /// The output file exists and overwriting was not allowed.
    case outputExists(path: String)
    /// The recording cannot be written where asked (see `OutputError`, LumaOutput).
    case output(OutputError)
    /// The output names the input itself (the same file, through a symlink or a hard link too):
    /// writing it would destroy what is being read.
    case outputIsInput(path: String, output: String)
    /// Recovery could not produce a file holding at least what the recording holds; the recording
    /// is left untouched. `refusal` says what could and could not be kept.
    case recoveryRefused(path: String, refusal: RecoveryRefusal)
    /// An input stream (Y4M, images, a video through ffmpeg) is malformed.
    case invalidInput(source: String, frame: Int?, problem: InputProblem)

    public var description: String {
        switch self {
        case .io(let path, let failure):
            return "\(path): \(failure)"
        case .fileEnds(let path, let at, let needed, let from):
            return "\(path): ends at byte \(at), inside a record that needs \(needed) bytes from byte \(from)"
        case .notARegularFile(let path, let kind):
            return "\(path): is \(kind), not a recording"
        case .http(let url, let problem, let attempts):
            if let attempts { return "\(url): \(problem) (gave up after \(attempts) attempts)" }
            return "\(url): \(problem)"
        case .writerClosed(let path):
            return "\(path): recording is already closed"
        case .compressionFailed(let path, let chunk, let failure):
            if let chunk { return "\(path): zstd failed on chunk \(chunk): \(failure)" }
            return "\(path): zstd failed on the reference frame: \(failure)"
        case .notARecording(let path, let looksLike):
            return "\(path): not a .luma recording (\(looksLike))"
        case .unsupportedVersion(let path, let version):
            return "\(path): .luma format version \(version) is not supported by this build (it reads versions \(RecordingHeader.readableVersions.lowerBound)...\(RecordingHeader.readableVersions.upperBound)); upgrade lumatrace"
        case .invalidHeader(let path, let problem):
            return "\(path): invalid recording header: \(problem)"
        case .damagedChunk(let path, let chunk, let frames, let damage):
            return "\(path): chunk \(chunk) (frames \(frames.lowerBound)...\(frames.upperBound)) is damaged: \(damage)"
        case .missingFrames(let path, let frames, let reason):
            let which = frames.count == 1 ? "frame \(frames.lowerBound) is" : "frames \(frames.lowerBound)...\(frames.upperBound) are"
            return "\(path): \(which) not in the recording (\(reason))"
        case .noFrames(let path):
            return "\(path): the recording holds no readable frames"
        case .frameOutOfRange(let path, let frame, let frameCount):
            return "\(path): frame \(frame) is out of range (the recording has \(frameCount) frames, 0...\(max(frameCount - 1, 0)))"
        case .invalidFrame(let path, let frame, let problem):
            return "\(path): frame \(frame): \(problem)"
        case .outputExists(let path):
            return "\(path): already exists"
        case .output(let error):
            return error.description
        case .outputIsInput(let path, let output):
            return "\(output): is the recording \(path) itself; write the output elsewhere"
        case .recoveryRefused(let path, let refusal):
            return "\(path): not recovered, the file is left untouched: \(refusal)"
        case .invalidInput(let source, let frame, let problem):
            if let frame { return "\(source): frame \(frame): \(problem)" }
            return "\(source): \(problem)"
        }
    }
}
