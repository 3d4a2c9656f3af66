import Foundation
import LumaFormat
import LumaProcess
import Synchronization

/// ffmpeg decoding an input into a stream of frames on a pipe: how both video sources
/// (``VideoSource``, ``LiveVideoSource``) start it, hear it, and end it.
///
/// ffmpeg leads a process group of its own, which a terminal's Ctrl-C (sent to Lumatrace's group)
/// does not reach: the recording decides the end. The first Ctrl-C closes the recording with the
/// frames received, and ffmpeg, no longer read, is stopped. Its standard output is the frame stream
/// (``frames``); its standard error is read line by line on a worker thread (``FFmpegMessages``), so
/// ffmpeg never blocks on a full pipe and its own words are at hand when it fails.
final class FFmpegDecoder: @unchecked Sendable {  // ByteStream is read by one thread at a time
    /// The input, as messages name it.
    let input: String
    let program: RunningProgram
    /// What ffmpeg writes: the decoded frames. Reads end early once `stop` is set.
    let frames: ByteStream
    let messages: FFmpegMessages

    /// Starts ffmpeg with `arguments` (after `-nostdin`), its standard input `standardInput`.
    /// Each line ffmpeg writes on standard error is offered to `take` first (a parser of its frame
    /// reports); the lines it does not take are kept for messages. `ended` is told when ffmpeg has
    /// closed standard error.
    init(input: String, arguments: [String], standardInput: Program.Stream = .null, stop: StopFlag?,
         take: @escaping @Sendable (String) -> Bool = { _ in false }, ended: @escaping @Sendable () -> Void = {}) throws {
        self.input = input
        var ffmpeg = Program(try Tools.require("ffmpeg"), ["-nostdin"] + arguments)
        ffmpeg.standardInput = standardInput
        ffmpeg.standardOutput = .pipe
        ffmpeg.standardError = .pipe
        ffmpeg.ownProcessGroup = true
        do { program = try ffmpeg.start() } catch {
            throw RecordingInputError.unreadableVideo(path: input, problem: .ffmpegDidNotStart(error))
        }
        messages = FFmpegMessages(program.standardError!, take: take, ended: ended)
        frames = ByteStream(fileDescriptor: program.standardOutput!.fileDescriptor, name: "\(input) (via ffmpeg)", ownsDescriptor: false,
                            stopRequested: stop)
    }

    /// Reads the frame stream's header with `read`. When there is none, waits for ffmpeg to exit
    /// and refuses the input with ffmpeg's own reason (which says more than an empty pipe does),
    /// saying what it was `reading`. When the read ended because a stop was asked
    /// for (Ctrl-C while ffmpeg still tries to open a stream), ffmpeg is stopped rather than
    /// waited for.
    func header<Reader>(_ read: (ByteStream) throws -> Reader, reading: VideoProblem.Reading) throws -> Reader {
        do { return try read(frames) } catch {
            if frames.stopRequested?.isSet == true { stop() }
            _ = try? program.wait()
            throw RecordingInputError.unreadableVideo(path: input, problem: .ffmpegRefused(reading: reading, words: messages.lastMessage() ?? "\(error)"))
        }
    }

    /// Ends ffmpeg now. KILL, not TERM: ffmpeg blocked writing a frame into a pipe that is no
    /// longer read would never get to handle a TERM.
    func stop() {
        program.kill()
    }

    /// Waits for ffmpeg to exit; anything but success (unless `failureAllowed`) is an error with its
    /// last message.
    func finish(failureAllowed: Bool = false) throws {
        let end = try program.wait()
        guard end.succeeded || failureAllowed else {
            throw RecordingInputError.unreadableVideo(path: input, problem: .ffmpegFailed(end, words: messages.lastMessage() ?? ""))
        }
    }
}

/// What ffmpeg writes on standard error, read line by line on a worker thread until ffmpeg closes
/// it (`LineReader`): each line goes to `take` first, and the lines it does not take (the last
/// 50) are kept for messages.
final class FFmpegMessages: Sendable {
    /// Shared with the reader's thread.
    private final class Kept: Sendable { let lines = Mutex<[String]>([]) }
    private let kept = Kept()
    private let reader: LineReader

    init(_ pipe: ProgramPipe, take: @escaping @Sendable (String) -> Bool, ended: @escaping @Sendable () -> Void) {
        let kept = kept
        reader = LineReader(pipe, thread: "ffmpeg stderr", line: { line in
            guard !take(line) else { return }
            kept.lines.withLock { lines in
                lines.append(line)
                if lines.count > 50 { lines.removeFirst() }
            }
        }, end: ended)
    }

    /// ffmpeg's last line worth showing (not its banner or stream listing): its reason, when it
    /// fails. Waits for ffmpeg to close standard error, which it does as it exits: call it once
    /// ffmpeg has ended.
    func lastMessage() -> String? {
        reader.waitForEnd()
        return kept.lines.withLock { lines in
            lines.last { !$0.isEmpty && !$0.hasPrefix("  ") && !$0.hasPrefix("Input #") && !$0.hasPrefix("Output #") && !$0.hasPrefix("Stream mapping") }
                .map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }
}
