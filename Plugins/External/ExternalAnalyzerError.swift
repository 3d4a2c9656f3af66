import LumaAnalysis
import LumaProcess

/// Why an external analyzer program failed: the command, the step of the protocol it failed at,
/// and what went wrong, with the values involved (the exit status, the line it wrote, the limit it
/// passed). The engine adds the analyzer name and frame.
public struct ExternalAnalyzerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The command, as its configuration gives it.
    public var command: String
    /// Where in the protocol it failed (`nil`: before or after talking to it).
    public var step: ExternalStep?
    public var problem: ExternalAnalyzerProblem
    /// The folder it ran in, when that is not the current folder: a relative path in the command
    /// is relative to it.
    public var folder: ExternalFolder?

    public init(command: String, step: ExternalStep? = nil, _ problem: ExternalAnalyzerProblem, folder: ExternalFolder? = nil) {
        self.command = command
        self.step = step
        self.problem = problem
        self.folder = folder
    }

    public var description: String {
        let ranIn = folder.map { " (it ran in \($0.path): external.folder \"\($0.configured)\" relative to \($0.relativeTo))" } ?? ""
        return sentence + ranIn
    }

    /// The problem in words, naming the command and the step.
    private var sentence: String {
        let c = "`\(command)`", s = step.map { " \($0)" } ?? ""
        switch problem {
        case .folderMissing(let folder):
            return "\(c) was not started: its folder \(folder.path) (external.folder \"\(folder.configured)\", relative to \(folder.relativeTo)) is not a folder"
        case .notStarted(let signal): return "\(c) was not started: lumatrace received \(signal)"
        case .cannotStart(.systemCall(_, let failure)) where failure.call == .spawn: return "cannot start \(c): /bin/sh: \(failure.errnoText)"
        case .cannotStart(.systemCall(_, let failure)): return "cannot start \(c): \(failure)"
        case .cannotStart(let error): return "cannot start \(c): \(error)"
        case .interrupted(let signal): return "\(c) was stopped\(s): lumatrace received \(signal)"
        case .stoppedReading(let end): return "\(c) stopped reading its input\(s): \(Self.words(end))"
        case .readFailed(let error): return "cannot read from \(c)\(s): \(error.reason)"
        case .endedOutput(let end): return "\(c) ended its output\(s): \(Self.words(end))"
        case .endedWithoutAnswering(let end): return "\(c) ended\(s) without answering: \(Self.words(end))"
        case .timedOut(let waitingToWrite, let limit):
            return "\(c) \(waitingToWrite ? "did not read its input" : "did not answer")\(s) within the timeout of \(limit); it was stopped"
        case .didNotExit(let limit): return "\(c) did not exit within \(limit) after its last answer; it was stopped"
        case .failed(let end): return "\(c) ended with an error: \(Self.words(end))"
        case .lineTooLong(let limit):
            return "\(c) wrote a line over \(limit) bytes\(s); if its events are really that large, raise external.maximumLineBytes "
                + "(up to \(ExternalConfiguration.lineBytesRange.upperBound))"
        case .tooManyBytes(let limit):
            return "\(c) wrote over \(limit) bytes\(s); if its events are really that large, raise external.maximumBytesPerFrame "
                + "(up to \(ExternalConfiguration.bytesPerFrameRange.upperBound))"
        case .tooManyEvents(let limit):
            return "\(c) wrote over \(limit) events\(s); if it really has that many, raise external.maximumEventsPerFrame "
                + "(up to \(ExternalConfiguration.eventsPerFrameRange.upperBound))"
        case .refusedToStart(let message): return "\(c) refused to start: \(message)"
        case .reportedError(let message): return "\(c) reported an error: \(message)"
        case .notReady(let found): return "\(c) answered the hello with \(found), expected {\"ready\":true}"
        case .invalidEventDeclaration(let found):
            return "\(c) declared the event \(found) in its ready line: expected {\"kind\":\"…\",\"version\":1,\"shape\":null or one of "
                + "\(EventShape.allCases.map(\.rawValue).joined(separator: ", "))}"
        case .notJSONObject(let found):
            return "\(c) wrote \(found)\(s), which is not a JSON object line (print diagnostics to stderr, not stdout)"
        case .notAnEvent(let found):
            return "\(c) wrote \(found)\(s): not an event {\"kind\":\"…\",\"data\":{…}}, a {\"done\":…} or an {\"error\":\"…\"} line "
                + "(kinds are 1–64 letters, digits, '.', '_' or '-')"
        case .wrongDone(let found, let expected): return "\(c) answered\(s) with {\"done\":\(found)}, expected {\"done\":\(expected)}"
        }
    }

    /// How the program ended, in words: `nil` is still running.
    private static func words(_ end: Termination?) -> String {
        switch end {
        case nil: return "it is still running"
        case .exited(let code)?: return "it exited with status \(code)"
        case .signalled(let signal)?: return "it was killed by signal \(signal)"
        }
    }
}

/// What went wrong with an external analyzer program (``ExternalAnalyzerError``). A line the
/// program wrote is kept as its first 80 characters in quotes (`found`); `end` is how the program
/// ended, `nil` while it still runs.
public enum ExternalAnalyzerProblem: Equatable, Sendable {
    // Starting and ending the program.
    /// The folder it is to run in is not a folder.
    case folderMissing(ExternalFolder)
    /// Lumatrace received `signal` (SIGINT, SIGTERM) before the program was started.
    case notStarted(signal: String)
    /// The shell could not be started.
    case cannotStart(ProgramError)
    /// Lumatrace received `signal` during the step; the program was stopped.
    case interrupted(signal: String)
    /// It stopped reading its input.
    case stoppedReading(end: Termination?)
    /// Its output could not be read.
    case readFailed(ProgramError)
    /// It closed its output.
    case endedOutput(end: Termination?)
    /// It exited while a process it started still holds its output open.
    case endedWithoutAnswering(end: Termination?)
    /// It did not read its input (`waitingToWrite`) or did not answer within `limit`.
    case timedOut(waitingToWrite: Bool, limit: ExternalTimeLimit)
    /// It did not exit within `limit` after its last answer.
    case didNotExit(limit: ExternalTimeLimit)
    /// It exited with a status other than 0, or was killed.
    case failed(end: Termination?)

    // Limits on what it writes.
    /// A line over `limit` bytes (`external.maximumLineBytes`).
    case lineTooLong(limit: Int)
    /// Over `limit` bytes for one frame (`external.maximumBytesPerFrame`).
    case tooManyBytes(limit: Int)
    /// Over `limit` events for one frame (`external.maximumEventsPerFrame`).
    case tooManyEvents(limit: Int)

    // The protocol.
    /// Its answer to the hello was `{"error": message}`.
    case refusedToStart(message: String)
    /// It wrote `{"error": message}` after starting.
    case reportedError(message: String)
    /// Its answer to the hello was not `{"ready":true}`.
    case notReady(found: String)
    /// An entry of its ready line's `events` that is not an event declaration.
    case invalidEventDeclaration(found: String)
    /// A line that is not a JSON object.
    case notJSONObject(found: String)
    /// A JSON object that is neither an event, a `done` nor an `error` line.
    case notAnEvent(found: String)
    /// A `{"done": found}` line where `{"done": expected}` was due (JSON text of each).
    case wrongDone(found: String, expected: String)
}

/// A step of the protocol with an external analyzer program.
public enum ExternalStep: Equatable, Sendable, CustomStringConvertible {
    /// The hello and the program's ready line.
    case hello
    /// A frame and its events.
    case frame(Int)
    /// The end of the stream and the last events.
    case end

    public var description: String {
        switch self {
        case .hello: return "at its hello"
        case .frame(let index): return "at frame \(index)"
        case .end: return "at the end"
        }
    }
}

/// The folder an external analyzer program runs in: where it is, and the `external.folder` it
/// came from, relative to the configuration's folder or the current one.
public struct ExternalFolder: Equatable, Sendable {
    public var path: String
    /// `external.folder` as written.
    public var configured: String
    /// The folder `configured` is relative to, in words ("the current folder" or a path).
    public var relativeTo: String

    public init(path: String, configured: String, relativeTo: String) {
        self.path = path
        self.configured = configured
        self.relativeTo = relativeTo
    }
}

/// A time limit of an external analyzer step, with the option that sets it: `2 s (external.timeout)`.
public struct ExternalTimeLimit: Equatable, Sendable, CustomStringConvertible {
    public var seconds: Double
    /// The option that sets it, if any.
    public var option: String?

    public init(seconds: Double, option: String? = nil) {
        self.seconds = seconds
        self.option = option
    }

    public var description: String {
        let amount = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
        return "\(amount) s" + (option.map { " (\($0))" } ?? "")
    }
}
