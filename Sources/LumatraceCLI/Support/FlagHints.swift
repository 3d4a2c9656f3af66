import LumaAnalysis
import LumaBase
import LumaEngine
import LumaFormat
import LumaRecording
import LumaRegression
import LumaOutput

/// The command an error happened in, where a hint depends on what the command offers.
enum CommandContext {
    case verify, regress, other
}

/// The one place where the libraries' typed errors become messages that name the flags a user can
/// act on: the libraries say what is wrong, in the words of files, frames and options; the command
/// line adds how to change it (`--force`, `--skip-damaged`, `--allow-external`, …).
enum FlagHints {
    /// The help of `--allow-external`, shared by the commands that have it.
    static let allowExternalHelp = "Run the programs (external analyzers' commands) that a pipeline file or a log's header names. Without it such a file is refused, showing the command."

    /// The message for `error`, with the flags that fix it.
    static func message(for error: any Error, in command: CommandContext) -> String {
        switch error {
        case let e as ReplayError: return message(for: e, in: command)
        case let e as OutputError:
            guard case .exists = e else { return e.description }
            return e.description + "; pass --force to replace it (it is replaced only once the new result is complete)"
        case let e as LumaFormatError: return message(for: e, in: command)
        case let e as OptionError:
            return OptionError(option: flag(forOption: e.option), e.problem).description
        case let e as SweepError: return message(for: e)
        case let e as ProgramNotAllowed:
            return e.description + ": read the command, then pass --allow-external for this run if you trust it"
        case let e as RegressionError: return message(for: e, in: command)
        case let e as RecordingInputError: return message(for: e)
        case let e as RecorderError: return message(for: e, in: command)
        case let e as LiveAnalysisError: return message(for: e)
        default:
            return "\(error)"
        }
    }

    private static func message(for e: ReplayError, in command: CommandContext) -> String {
        switch e {
        case .damaged(let inner): return inner.description + "; pass --skip-damaged to replay around it (the gap is logged)"
        case .option(let inner): return message(for: inner, in: command)
        case .output(let inner): return message(for: inner, in: command)
        case .recording(let inner): return message(for: inner, in: command)
        default: return e.description
        }
    }

    private static func message(for e: LumaFormatError, in command: CommandContext) -> String {
        switch e {
        case .outputExists: return e.description + "; pass --force to replace it"
        case .outputIsInput: return e.description + ", or leave out -o to work in place"
        case .output(let inner): return message(for: inner, in: command)
        case .notARecording(_, let kind), .invalidInput(_, _, .notY4M(let kind)):
            guard let hint = recordHint(for: kind) else { return e.description }
            return e.description + "; " + hint
        default: return e.description
        }
    }

    private static func message(for e: RegressionError, in command: CommandContext) -> String {
        switch e {
        case .recordingMissing where command == .verify: return e.description + ", or pass --recording PATH to name it"
        case .recordingNotClosed: return e.description + "; `lumatrace recover` rewrites it"
        case .settingForAbsentAnalyzer: return "--set " + e.description
        case .unknownAnalyzer(let log, _, _):
            return e.description + ", e.g. for a package made by `lumatrace new-analyzer`: swift run --package-path PACKAGE lumatrace verify \(log)"
        case .otherRecording(_, _, _, _, _, _, let a, let b) where a != b:
            return e.description + "; pass --recording REC to check both against it, or --force to compare anyway"
        case .otherRecording: return e.description + "; use --force to compare anyway"
        default: return e.description
        }
    }

    private static func message(for e: RecordingInputError) -> String {
        switch e {
        case .noTimestamps, .timestampNotIncreasing, .moreFramesThanListed:
            return e.description + "; pass --fps to use evenly spaced timestamps instead"
        case .noFrameRate: return e.description + "; pass --fps"
        case .notAY4MStream(let input, let output):
            return e.description + ": ffmpeg -i \(input) -vf extractplanes=y -f yuv4mpegpipe - | lumatrace record - -o \(output)"
        case .alreadyARecording(let input):
            return e.description + "; replay it (lumatrace replay \(input)), describe it (lumatrace info), "
                + "or write its frames out (lumatrace export \(input) --format y4m)"
        case .liveNeedsAStream:
            return e.description + "; to record it as a live source would deliver it, add --realtime (ffmpeg reads it at its own pace), or leave out --live"
        default: return e.description
        }
    }

    private static func message(for e: RecorderError, in command: CommandContext) -> String {
        switch e {
        case .writeFailed(let inner, let frame, let received, let path):
            return "\(message(for: inner, in: command)) — recording stopped at frame \(frame)\(RecorderError.alsoLost(frame: frame, received: received)); "
                + "the complete chunks before it are in \(path): "
                + "`lumatrace recover \(path) -o OTHER.luma` (on a disk with space) indexes them"
        case .inputFailed(let inner, let frames, let path):
            return "\(message(for: inner, in: command)) — the \(Plural.count(frames, "frame")) before the error are saved in \(path)"
        }
    }

    private static func message(for e: LiveAnalysisError) -> String {
        switch e {
        case .stoppedByInterrupt(_, _, let log, let recording):
            let pipeline = log == "-" ? "" : " --pipeline \(log)"
            return e.description + " (`lumatrace replay \(recording)\(pipeline) -o LOG` analyzes every frame)"
        case .failed: return e.description + " (`lumatrace replay` analyzes it later)"
        }
    }

    /// How to make a recording from a file that looks like a video or an image, or `nil` for
    /// other kinds (a log, text).
    static func recordHint(for kind: FileKind) -> String? {
        switch kind {
        case .mp4Video, .aviVideo, .matroskaVideo: return "record it first with `lumatrace record VIDEO -o OUT.luma`"
        case .gif: return "record it first with `lumatrace record FILE.gif -o OUT.luma`"
        case .y4mStream: return "record it first with `lumatrace record FILE.y4m -o OUT.luma`"
        case .png, .jpeg: return "a folder of images is recorded with `lumatrace record FOLDER -o OUT.luma`"
        case .empty, .pgm, .eventLog, .json, .text, .unrecognized: return nil
        }
    }

    /// `damage` as `info` lists it: the library's words and, where the damage is one `recover`
    /// repairs or made, the command.
    static func message(for damage: RecordingDamage) -> String {
        damage.description + recoverHint(for: damage.cause)
    }

    /// The words after a damage's reason that name `lumatrace recover`, or "" when it has none.
    static func recoverHint(for cause: DamageCause) -> String {
        switch cause {
        case .headerCopiesDisagree: return " (`lumatrace recover` writes it back)"
        case .headerReadFromCopy: return " (`lumatrace recover` restores it)"
        case .framesRemovedFromIndex: return " by `lumatrace recover`"
        default: return ""
        }
    }

    /// `result` with its error worded as regress words it: a ``RegressionError`` or
    /// ``ProgramNotAllowed`` with its hints.
    static func regressResult(_ result: RegressionResult) -> RegressionResult {
        guard let failure = result.failure, failure is RegressionError || failure is ProgramNotAllowed else { return result }
        var hinted = result
        hinted.error = message(for: failure, in: .regress)
        return hinted
    }

    /// The flag behind an engine option name: `analyzer` is `--analyzer`, `frames` `--from/--to`;
    /// analyzer options (`tracking.seeds`) are set with `--set` and keep their name.
    static func flag(forOption option: String) -> String {
        if option == "frames" { return "--from/--to" }
        for name in ["analyzer"] where option == name || option.hasPrefix(name + " ") { return "--" + option }
        return option
    }
}
