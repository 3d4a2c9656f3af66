import LumaAnalysis
import LumaBase

/// A truth file that cannot be used, naming the file (and line of a label file) and what is wrong.
public typealias TruthError = FileProblem<TruthProblem>

/// What is wrong with a truth file or a label file being imported (``TruthError``), with the
/// values found. `owner` names the points' segment or track ("ball segment ball1.2").
public enum TruthProblem: Equatable, Sendable, CustomStringConvertible {
    // The file.
    /// The file cannot be opened or read.
    case unreadable(SystemCallError)
    /// A folder or a device: `found` says which, in words ("a character device").
    case notAFile(found: String)
    /// The file holds more than `limit` bytes (`bytes` when its size is known before reading).
    case tooLarge(bytes: UInt64?, limit: Int)
    /// The file holds no byte.
    case empty
    /// The file is not JSON.
    case notJSON(JSONParser.Failure)
    /// The JSON is not a truth file's.
    case notTruth(DecodingProblem)

    // A truth file's contents.
    /// `"format"` is `found`, not `lumatrace-truth`.
    case wrongFormat(found: String)
    /// A truth format version this build does not read.
    case unsupportedVersion(Int)
    /// A width, height or frame count that is not positive.
    case sizeNotPositive(width: Int, height: Int, frames: Int)
    /// A point that is not `shape` (`[frame, x, y, radius]`, `[frame, x, y, w, h]`) with finite numbers.
    case pointNotShape(owner: String, point: Int, shape: String)
    /// A point whose frame is no frame index.
    case pointFrameNotIndex(owner: String, point: Int, frame: Double)
    /// A point at `frame`, not after the one before it at `previous`.
    case pointsOutOfOrder(owner: String, frame: Int, previous: Int)
    /// A point at `frame`, past the file's own `frames`.
    case pointPastFrames(owner: String, frame: Int, frames: Int)
    /// A point at `frame`, past the recording's `lastFrame`.
    case pointPastRecording(owner: String, frame: Int, lastFrame: Int)
    /// A value of a point (a coordinate, a size, a radius) that is beyond ±`limit`: no place in a frame.
    case pointValueOutOfRange(owner: String, point: Int, value: Double, limit: Double)
    /// A ball point whose radius is zero or less.
    case radiusNotPositive(owner: String, point: Int, radius: Double)
    /// A ball segment or object track with no point.
    case noPoints(owner: String)
    /// The file says it describes `frames` frames, more than the recording's `frameCount`.
    case framesPastRecording(frames: Int, frameCount: Int)
    /// The truth's frames and the recording's have different aspect ratios.
    case aspectRatio(truthWidth: Int, truthHeight: Int, width: Int, height: Int)

    // A label file being imported.
    /// The frame size given for the import is not positive.
    case frameSizeNotPositive(width: Int, height: Int)
    /// The ball radius given for the import is not positive.
    case ballRadiusNotPositive(Double)
    /// A row of `found` values where the format has `expected` (in words).
    case rowValueCount(found: Int, expected: String)
    /// A row's frame that is no frame index.
    case rowFrameNotIndex(Double)
    /// A row at `frame`, not after the row before it at `previous`.
    case rowsOutOfOrder(frame: Int, previous: Int)
    /// A row labelling `frame`, past the recording's `lastFrame`.
    case rowPastRecording(frame: Int, lastFrame: Int)
    /// A field that is not a number (its first 20 characters).
    case notANumber(String)
    /// The label file holds no row.
    case noLabels
    /// A row whose `value` (pixels) makes a truth value beyond ±`limit` once normalized.
    case labelOutOfRange(value: Double, limit: Double)

    public var description: String {
        switch self {
        case .unreadable(let failure): return failure.description
        case .notAFile(let found): return "is \(found), not a truth file"
        case .tooLarge(let bytes?, let limit): return "truth file is \(bytes) bytes, over the \(limit)-byte limit"
        case .tooLarge(nil, let limit): return "truth file holds more than the \(limit)-byte limit"
        case .empty: return "empty file (0 bytes): not a truth file"
        case .notJSON(let failure): return "not valid JSON: \(failure)"
        case .notTruth(let problem): return "not a Lumatrace truth file (\(problem))"
        case .wrongFormat(let found): return "\"format\" is \"\(found)\", expected \"lumatrace-truth\""
        case .unsupportedVersion(let version): return "truth format version \(version) is not supported (this build reads version 1)"
        case .sizeNotPositive(let width, let height, let frames):
            return "width, height and frames must be positive (got \(width)x\(height), \(frames) frames)"
        case .pointNotShape(let owner, let point, let shape): return "\(owner): point \(point) is not \(shape) with finite numbers"
        case .pointFrameNotIndex(let owner, let point, let frame): return "\(owner): point \(point) has frame \(frame), not a frame index"
        case .pointsOutOfOrder(let owner, let frame, let previous):
            return "\(owner): frame \(frame) comes after frame \(previous) (points must be in frame order)"
        case .pointPastFrames(let owner, let frame, let frames): return "\(owner): frame \(frame) is past the file's \(frames) frames"
        case .pointPastRecording(let owner, let frame, let lastFrame):
            return "\(owner) has a point at frame \(frame), past the recording's last frame \(lastFrame)"
        case .pointValueOutOfRange(let owner, let point, let value, let limit):
            return "\(owner): point \(point) has the value \(value), outside ±\(Int(limit)) (truth is normalized: a frame is 0...1)"
        case .radiusNotPositive(let owner, let point, let radius): return "\(owner): point \(point) has radius \(radius), not positive"
        case .noPoints(let owner): return "\(owner) has no points"
        case .framesPastRecording(let frames, let frameCount):
            return "truth describes \(frames) frames, more than the recording's \(frameCount)"
        case .aspectRatio(let truthWidth, let truthHeight, let width, let height):
            return "truth is for \(truthWidth)x\(truthHeight) frames, the recording is \(width)x\(height) (a different aspect ratio)"
        case .frameSizeNotPositive(let width, let height): return "frame size \(width)x\(height) is not positive"
        case .ballRadiusNotPositive(let radius): return "ball radius \(radius) px is not positive"
        case .rowValueCount(let found, let expected): return "\(found) values, expected \(expected)"
        case .rowFrameNotIndex(let frame): return "frame \(frame) is not a frame index"
        case .rowsOutOfOrder(let frame, let previous): return "frame \(frame) comes after frame \(previous) (rows must be in frame order)"
        case .rowPastRecording(let frame, let lastFrame): return "labels frame \(frame), past the recording's last frame \(lastFrame)"
        case .notANumber(let field): return "'\(field)' is not a number"
        case .noLabels: return "no labels (the file is empty)"
        case .labelOutOfRange(let value, let limit):
            return "\(value) is no pixel of the frame: normalized, it is outside the ±\(Int(limit)) a truth file holds"
        }
    }
}
