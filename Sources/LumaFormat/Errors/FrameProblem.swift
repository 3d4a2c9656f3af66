/// Why the writer refused a frame: the data behind ``LumaFormatError/invalidFrame(path:frame:problem:)``.
public enum FrameProblem: Equatable, Sendable, CustomStringConvertible {
    /// The frame's byte count is not the recording's `width × height`.
    case size(bytes: Int, expected: Int, width: Int, height: Int)
    /// The frame's timestamp is not after the previous frame's.
    case timestampNotIncreasing(ticks: Int64, previous: Int64)

    public var description: String {
        switch self {
        case .size(let bytes, let expected, let width, let height): return "has \(bytes) bytes, expected \(expected) (\(width)x\(height))"
        case .timestampNotIncreasing(let ticks, let previous): return "timestamp \(ticks) does not increase (previous frame: \(previous) ticks)"
        }
    }
}
