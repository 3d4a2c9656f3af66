/// A harness run or conformance check that failed: what was wrong with the frames given, or which
/// rule the analyzer broke (see ``AnalyzerHarness/checkConformance(frames:invalidOptions:)``), with
/// what was found. `analyzer` is the analyzer's name.
public enum HarnessFailure: Error, Equatable, Sendable, CustomStringConvertible {
    // The frames given.
    /// No frames to replay.
    case noFrames
    /// A frame size that holds no pixels.
    case emptyFrame(width: Int, height: Int)
    /// Frame `frame` is not the size of the first.
    case frameSizesDiffer(frame: Int, width: Int, height: Int, firstWidth: Int, firstHeight: Int)

    // The rules of an analyzer.
    /// The `run` ("second", "four-thread") differs from the first at event `event` (1-based).
    case notDeterministic(analyzer: String, run: String, event: Int)
    /// The analyzer was not called once to start, once a frame and once to finish.
    case calledOtherwise(analyzer: String, starts: Int, analyses: Int, finishes: Int, afterFinish: Int, frames: Int)
    /// An event stamped with a frame before the previous event's, or outside the replay.
    case eventOutsideReplay(analyzer: String, kind: String, frame: Int, after: Int, frameCount: Int)
    /// The replay did not go through all `frames`.
    case replayIncomplete(analyzer: String, frames: Int)
    /// The declared options are not the configuration's stored properties, in order.
    case optionsNotProperties(analyzer: String, options: [String], properties: [String])
    /// The configuration encoded, decoded and encoded again is other JSON (text of each).
    case configurationChanges(analyzer: String, json: String, became: String)
    /// An invalid value was refused by an error that does not name the option.
    case refusalNamesNoOption(analyzer: String, key: String, value: String, error: String)
    /// An invalid value was accepted.
    case invalidValueAccepted(analyzer: String, key: String, value: String)

    public var description: String {
        switch self {
        case .noFrames: return "no frames to replay"
        case .emptyFrame(let width, let height): return "a frame of \(width)x\(height) holds no pixels"
        case .frameSizesDiffer(let frame, let width, let height, let firstWidth, let firstHeight):
            return "frame \(frame) is \(width)x\(height), the first is \(firstWidth)x\(firstHeight)"
        case .notDeterministic(let analyzer, let run, let event):
            return "\(analyzer) is not deterministic: the \(run) run differs from the first at event \(event)"
        case .calledOtherwise(let analyzer, let starts, let analyses, let finishes, let afterFinish, let frames):
            return "\(analyzer) was called \(starts)× init, \(analyses)× analyze for \(frames) frames, "
                + "\(finishes)× finish, \(afterFinish)× after finish; expected 1, \(frames), 1, 0"
        case .eventOutsideReplay(let analyzer, let kind, let frame, let after, let frameCount):
            return "\(analyzer) emitted a \(kind) event stamped frame \(frame) after frame \(after), outside 0...\(frameCount - 1)"
        case .replayIncomplete(let analyzer, let frames): return "\(analyzer): the replay did not complete over all \(frames) frames"
        case .optionsNotProperties(let analyzer, let options, let properties):
            return "\(analyzer)'s options [\(options.joined(separator: ", "))] are not its configuration's properties "
                + "[\(properties.joined(separator: ", "))]: declare each property once in `options`, in order, under its name"
        case .configurationChanges(let analyzer, let json, let became):
            return "\(analyzer)'s configuration does not round-trip through JSON: \(json) became \(became)"
        case .refusalNamesNoOption(let analyzer, let key, let value, let error):
            return "\(analyzer).\(key)=\(value) was refused, but the error does not name the option: \(error)"
        case .invalidValueAccepted(let analyzer, let key, let value):
            return "\(analyzer).\(key)=\(value) was accepted; it must be refused with an error naming the option"
        }
    }
}
