import LumaBase
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A program that ``Program/start()`` started: Lumatrace's ends of its pipes, signals, and its end.
///
/// Every started program is reaped, so none is left a zombie: by ``wait()`` or ``poll()``, or, for
/// a handle released before the program ended, by the release itself, which ends the program first
/// (``kill()``): the handle is the only way to reach it, so nothing is left running that nobody can
/// stop. A signal is never sent once the program has been reaped (its pid may belong to another
/// process by then): signals and reaping take the same lock.
///
/// Safe to use from several threads: one may wait while another signals.
public final class RunningProgram: Sendable {
    /// The path the program was started from, as messages name it.
    public let executable: String
    /// The program's process id; under a reaper, the reaper's.
    public let pid: pid_t
    /// Lumatrace's end of the program's standard input, when it is a ``Program/Stream/pipe``.
    public let standardInput: ProgramPipe?
    /// Lumatrace's end of the program's standard output, when it is a ``Program/Stream/pipe``.
    public let standardOutput: ProgramPipe?
    /// Lumatrace's end of the program's standard error, when it is a ``Program/Stream/pipe``.
    public let standardError: ProgramPipe?
    /// Whether ``pid`` leads a process group of its own (``Program/ownProcessGroup``, or a reaper's).
    public let leadsProcessGroup: Bool
    /// Whether ``pid`` is a reaper's (``Program/reaper``).
    public let underReaper: Bool
    /// How the program ended, once it has been reaped.
    private let state = Mutex<Termination?>(nil)

    init(executable: String, pid: pid_t, standardInput: ProgramPipe?, standardOutput: ProgramPipe?, standardError: ProgramPipe?,
         leadsProcessGroup: Bool, underReaper: Bool) {
        self.executable = executable
        self.pid = pid
        self.standardInput = standardInput
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.leadsProcessGroup = leadsProcessGroup
        self.underReaper = underReaper
    }

    deinit {
        if state.withLock({ $0 == nil }) {
            kill()
            _ = try? wait()
        }
    }

    // MARK: - Signals

    /// Sends `signal` to the program, or to its whole process group when `toGroup` and it leads one.
    /// Returns whether it was sent: not once the program has been reaped. `signal` 0 sends nothing
    /// and tells whether the program (or a process of its group) is still there.
    @discardableResult
    public func signal(_ signal: Int32, toGroup: Bool = false) -> Bool {
        state.withLock { termination in
            guard termination == nil else { return false }
            return Glibc.kill(toGroup && leadsProcessGroup ? -pid : pid, signal) == 0
        }
    }

    /// Asks the program to end: SIGTERM to its process group if it leads one. Under a reaper, the
    /// reaper TERMs the program's group and everything it started, and KILLs them after its grace
    /// period.
    public func terminate() {
        signal(SIGTERM, toGroup: true)
    }

    /// Ends the program at once: SIGKILL to its process group if it leads one. Under a reaper, the
    /// reaper KILLs the program and everything it started (SIGUSR1 to the reaper: a KILL of the
    /// reaper itself would leave a descendant that left the program's group running).
    public func kill() {
        if underReaper { signal(SIGUSR1) } else { signal(SIGKILL, toGroup: true) }
    }

    // MARK: - Its end

    /// Waits for the program to end, reaps it, and returns how it ended (at once if it already has).
    ///
    /// Throws ``ProgramError/systemCall(program:_:)`` (`wait`) only if the program was
    /// reaped behind this handle's back (SIGCHLD set to be ignored), so its end is unknown.
    @discardableResult
    public func wait() throws(ProgramError) -> Termination {
        while true {
            if let termination = state.withLock({ $0 }) { return termination }
            // Waits without reaping and without the lock, so that signals can still be sent: the
            // program stays a zombie, its pid its own, until it is reaped under the lock below.
            var info = siginfo_t()
            if waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 {
                let error = errno
                if error == EINTR { continue }
                if let termination = state.withLock({ $0 }) { return termination }  // reaped by another thread meanwhile
                throw .systemCall(program: executable, SystemCallError(.wait, errno: error))
            }
            if let termination = try reap(blocking: true) { return termination }
        }
    }

    /// How the program ended if it has, reaping it then; `nil` while it runs. Never blocks.
    public func poll() throws(ProgramError) -> Termination? {
        try reap(blocking: false)
    }

    /// How the program ended, if it has been reaped; makes no system call.
    public var termination: Termination? { state.withLock { $0 } }

    private func reap(blocking: Bool) throws(ProgramError) -> Termination? {
        let result: Result<Termination?, ProgramError> = state.withLock { termination in
            if let termination { return .success(termination) }
            var status: Int32 = 0
            while true {
                let reaped = waitpid(pid, &status, blocking ? 0 : WNOHANG)
                if reaped == pid {
                    termination = Termination(waitStatus: status)
                    return .success(termination)
                }
                if reaped == 0 { return .success(nil) }
                if errno != EINTR { return .failure(.systemCall(program: executable, SystemCallError(.wait, errno: errno))) }
            }
        }
        return try result.get()
    }
}

/// How a program ended.
public enum Termination: Equatable, Sendable, CustomStringConvertible {
    /// It exited with this status (0: success).
    case exited(Int32)
    /// A signal ended it (SIGKILL is 9).
    case signalled(Int32)

    /// From a `waitpid` status (which reports only ended processes unless asked for stopped ones).
    init(waitStatus status: Int32) {
        self = status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
    }

    /// Whether it exited with status 0.
    public var succeeded: Bool { self == .exited(0) }

    /// "exited with status 1", "was killed by signal 9".
    public var description: String {
        switch self {
        case .exited(let status): "exited with status \(status)"
        case .signalled(let signal): "was killed by signal \(signal)"
        }
    }
}
