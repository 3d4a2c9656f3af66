import LumaProcess
#if canImport(Glibc)
import Glibc
#endif

/// A running external analyzer program: Lumatrace writes to its stdin and reads its stdout line by
/// line, each step with a deadline, so a program that hangs (or stops reading) cannot hang the
/// replay. Its stderr is passed through to Lumatrace's.
///
/// The command runs with `/bin/sh -c` as the leader of a new process group, under a reaper
/// (`Program.Reaper`, LumaProcess): a process of its own that is a child subreaper, so everything
/// the program starts stays its descendant, even a daemon that calls `setsid()` and leaves the
/// group. Ending the program is TERM to the reaper, which ends the group and every descendant
/// (TERM, then KILL after ``reaperGracePeriod``) and exits as the program did; KILL follows for the
/// reaper after ``gracePeriod``, and it is reaped. That happens on a timeout, on any failure, on
/// SIGINT or SIGTERM (see ``ExternalInterruption``), when the program is released, and, by the
/// reaper itself, for anything left behind after a clean exit, or when Lumatrace is killed outright
/// (SIGKILL); so no process of the program outlives the replay, and Lumatrace leaves no zombie. (Why a reaper, and not a cgroup: see
/// `Program.Reaper`.)
///
/// Deadlines read the monotonic clock; they only ever decide whether to give up, never what is
/// logged.
final class ExternalProcess: @unchecked Sendable {
    let command: String
    /// The reaper, which leads a process group of its own (the program leads another, below it).
    let program: RunningProgram
    /// Seconds the reaper has to end the program and exit after TERM before it gets KILL.
    static let gracePeriod = 2.0
    /// Seconds the program and its descendants have to exit after TERM before the reaper KILLs
    /// them: shorter than ``gracePeriod``, so the reaper always outlives them.
    static let reaperGracePeriod = 1.0

    private let input: ProgramPipe   // our end of the program's stdin
    private let output: ProgramPipe  // our end of the program's stdout
    private var lines: LineBuffer
    /// What each read of the program's stdout reads into.
    private let chunk: UnsafeMutableRawBufferPointer
    /// How the reaper ended (as the program did), once it has exited and been reaped.
    private var status: Termination? { program.termination }
    /// Whether the group has been ended (or has exited and been cleaned up).
    private var ended = false

    // MARK: - Starting

    /// Starts `command` with `/bin/sh -c` in `folder`, in a new process group, refusing stdout lines
    /// longer than `maximumLineBytes`.
    init(command: String, folder: String, maximumLineBytes: Int) throws(ExternalAnalyzerError) {
        self.command = command
        lines = LineBuffer(maximumLineBytes: maximumLineBytes)
        ExternalInterruption.install()
        if let signal = ExternalInterruption.signalName {
            throw ExternalAnalyzerError(command: command, .notStarted(signal: signal))
        }

        // The shell changes to the folder, then becomes the command's shell (same process, same group):
        // folder and command are arguments, never spliced into shell text. It runs under a reaper,
        // which is the process kept here: everything the program starts stays the reaper's
        // descendant, even after setsid(), and ends with it. Its stderr is Lumatrace's.
        var shell = Program("/bin/sh", ["-c", "cd -- \"$1\" && exec /bin/sh -c \"$2\"", "sh", folder, command])
        shell.standardInput = .pipe
        shell.standardOutput = .pipe
        shell.reaper = Program.Reaper(gracePeriod: Self.reaperGracePeriod)
        ExternalInterruption.liveCount.add(1, ordering: .sequentiallyConsistent)
        do {
            program = try shell.start()
        } catch {
            ExternalInterruption.liveCount.subtract(1, ordering: .sequentiallyConsistent)
            throw ExternalAnalyzerError(command: command, .cannotStart(error))
        }
        input = program.standardInput!
        output = program.standardOutput!
        chunk = .allocate(byteCount: 1 << 16, alignment: 1)
        ExternalInterruption.live.withLock { $0[program.pid] = program }
        input.setNonBlocking()
        output.setNonBlocking()
    }

    deinit {
        terminate()
        input.close()
        output.close()
        chunk.deallocate()
    }

    // MARK: - Talking

    /// Writes all of `bytes`, waiting at most until `deadline` for the program to read them.
    func write(_ bytes: UnsafeRawBufferPointer, deadline: Deadline, during step: ExternalStep) throws(ExternalAnalyzerError) {
        try stopIfSignalled(during: step)
        var offset = 0
        while offset < bytes.count {
            let written: Int
            do { written = try input.write(UnsafeRawBufferPointer(rebasing: bytes[offset...])) } catch {
                try stopIfSignalled(during: step)
                throw fail(.stoppedReading(end: ending()), step)
            }
            if written == 0 { try wait(input, deadline: deadline, during: step) }
            offset += written
        }
    }

    /// The next stdout line (without its newline), waiting at most until `deadline`.
    ///
    /// The deadline and a signal are checked before every read, not only while waiting: a program
    /// that writes without pause (a gigabyte of lines for one frame) would otherwise never let
    /// either be noticed.
    func readLine(deadline: Deadline, during step: ExternalStep) throws(ExternalAnalyzerError) -> [UInt8] {
        while true {
            do throws(LineBuffer.LineTooLong) {
                if let line = try lines.nextLine() { return line }
            } catch {
                throw fail(.lineTooLong(limit: lines.maximumLineBytes), step)
            }
            try stopIfSignalled(during: step)
            if deadline.hasPassed { throw timedOut(output, deadline: deadline, during: step) }
            // Known to have exited before this read: whatever it wrote before exiting is read now.
            let exitedBefore = reapLeader()
            let count: Int?
            do { count = try output.read(into: chunk) } catch {
                throw fail(.readFailed(error), step)
            }
            switch count {
            case 0?:
                try stopIfSignalled(during: step)
                throw fail(.endedOutput(end: ending()), step)
            case let n?:
                lines.append(UnsafeRawBufferPointer(rebasing: chunk[..<n]))
            case nil:
                if exitedBefore {
                    try stopIfSignalled(during: step)
                    // A process it started still holds its output open; the program itself is gone.
                    throw fail(.endedWithoutAnswering(end: ending()), step)
                }
                try wait(output, deadline: deadline, during: step)
            }
        }
    }

    // MARK: - Ending

    /// Closes the program's input and waits until `deadline` for it to exit with status 0; then ends
    /// anything its processes left running.
    func finish(deadline: Deadline) throws(ExternalAnalyzerError) {
        input.close()
        while !reapLeader() {
            try stopIfSignalled(during: .end)
            guard !deadline.hasPassed else {
                throw fail(.didNotExit(limit: deadline.limit))
            }
            usleep(2000)
        }
        terminate()  // stragglers in its group, if any; the exit status stands
        guard status?.succeeded == true else { throw ExternalAnalyzerError(command: command, .failed(end: ending())) }
    }

    /// Ends the program's process group if it still runs: TERM, then KILL after ``gracePeriod``,
    /// and reaps the leader. Safe to call any number of times.
    func terminate() {
        guard !ended else { return }
        ended = true
        input.close()
        // The reaper exits only once nothing of the program runs: once reaped, all is ended.
        if reapLeader() {
            ExternalInterruption.ended(program)
            return
        }
        program.terminate()
        let grace = Deadline(seconds: Self.gracePeriod)
        // Until the reaper has exited, which it does once nothing of the program runs (its group
        // holds the reaper alone: the program leads a group of its own).
        while !reapLeader(), !grace.hasPassed { usleep(5000) }
        if status == nil { program.signal(SIGKILL, toGroup: true) }
        _ = try? program.wait()
        ExternalInterruption.ended(program)
    }

    /// Ends the group and returns the error of `problem` in `step`, for throwing.
    private func fail(_ problem: ExternalAnalyzerProblem, _ step: ExternalStep? = nil) -> ExternalAnalyzerError {
        terminate()
        return ExternalAnalyzerError(command: command, step: step, problem)
    }

    // MARK: - Waiting

    /// Waits for `pipe` to be ready, in slices short enough to notice a signal soon.
    private func wait(_ pipe: ProgramPipe, deadline: Deadline, during step: ExternalStep) throws(ExternalAnalyzerError) {
        try stopIfSignalled(during: step)
        let milliseconds = deadline.millisecondsLeft
        guard milliseconds > 0 else { throw timedOut(pipe, deadline: deadline, during: step) }
        _ = try? pipe.waitUntilReady(milliseconds: Int32(min(milliseconds, 100)))
    }

    /// Ends the group and returns the error of a step that met its deadline on `pipe`, for throwing.
    private func timedOut(_ pipe: ProgramPipe, deadline: Deadline, during step: ExternalStep) -> ExternalAnalyzerError {
        fail(.timedOut(waitingToWrite: pipe.toProgram, limit: deadline.limit), step)
    }

    /// After SIGINT or SIGTERM (see ``ExternalInterruption``), ends the group and fails the step.
    private func stopIfSignalled(during step: ExternalStep) throws(ExternalAnalyzerError) {
        if let signal = ExternalInterruption.signalName { throw fail(.interrupted(signal: signal), step) }
    }

    /// Reaps the leader if it has exited; whether it has.
    @discardableResult
    private func reapLeader() -> Bool {
        (try? program.poll()) != nil || status != nil
    }

    /// How the program ended, for messages, waiting a moment for it (it may take one to exit
    /// after closing stdout); `nil` if it still runs.
    private func ending() -> Termination? {
        let until = Deadline(seconds: 1)
        while !reapLeader(), !until.hasPassed { usleep(2000) }
        return status
    }
}

/// A point in time on the monotonic clock, with the limit it came from for messages.
struct Deadline {
    private let end: Double
    /// The limit and the option that sets it, as a message says it, e.g. `2 s (external.timeout)`.
    let limit: ExternalTimeLimit

    init(seconds: Double, setBy option: String? = nil) {
        end = Self.now() + seconds
        limit = ExternalTimeLimit(seconds: seconds, option: option)
    }

    var hasPassed: Bool { Self.now() >= end }
    var millisecondsLeft: Int { max(0, Int(((end - Self.now()) * 1000).rounded(.up))) }

    private static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
