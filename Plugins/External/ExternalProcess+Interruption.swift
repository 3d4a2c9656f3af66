import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// What Ctrl-C (SIGINT) and SIGTERM do while external programs run.
///
/// Each program runs in its own process group, so a terminal's Ctrl-C reaches Lumatrace only. While
/// at least one program runs, the signal is only noted: every program's next wait sees it, ends its
/// process group (TERM, then KILL after a grace period) and fails its step with a message naming
/// the signal, so the replay stops like on any analyzer failure, with a valid log. When no program
/// runs, the signal does what it did before (by default, end Lumatrace).
///
/// Installed when the first program starts, and only for signals whose handling is still the
/// default: a host that handles SIGINT or SIGTERM itself keeps its own handling.
enum ExternalInterruption {
    /// Programs started and not yet ended (counted before they start, so no signal slips between).
    static let liveCount = Atomic<Int>(0)
    /// The signal received while programs ran, or 0.
    static let received = Atomic<Int32>(0)
    /// Process groups of the programs still running, for the last-resort cleanup at exit.
    static let liveGroups = Mutex<Set<pid_t>>([])
    private static let installed = Mutex<Bool>(false)

    /// The signal that asked Lumatrace to stop, if one did while programs ran.
    static var signalName: String? {
        switch received.load(ordering: .sequentiallyConsistent) {
        case 0: return nil
        case SIGINT: return "SIGINT"
        case SIGTERM: return "SIGTERM"
        case let s: return "signal \(s)"
        }
    }

    /// Installs the signal handlers and the cleanup at exit, once per process.
    static func install() {
        let first = installed.withLock { done in
            defer { done = true }
            return !done
        }
        guard first else { return }
        for sig in [SIGINT, SIGTERM] {
            var current = sigaction()
            guard sigaction(sig, nil, &current) == 0, current.__sigaction_handler.sa_handler == nil,
                  current.sa_flags & SA_SIGINFO == 0 else { continue }  // not SIG_DFL: the host's own handling stays
            _ = signal(sig, onSignal)
        }
        atexit { ExternalInterruption.endRemainingGroups() }
    }

    /// Async-signal-safe: reads and writes atomics, and at most re-raises.
    private static let onSignal: @convention(c) (Int32) -> Void = { sig in
        if ExternalInterruption.liveCount.load(ordering: .sequentiallyConsistent) == 0 {
            _ = signal(sig, SIG_DFL)
            _ = raise(sig)  // delivered when this handler returns
            return
        }
        ExternalInterruption.received.store(sig, ordering: .sequentiallyConsistent)
    }

    /// At exit, ends the groups of programs nobody stopped (normally none: each program ends its
    /// group when it fails, finishes or is released).
    static func endRemainingGroups() {
        let groups = liveGroups.withLock { $0 }
        guard !groups.isEmpty else { return }
        for group in groups { kill(-group, SIGTERM) }
        let grace = Deadline(seconds: ExternalProcess.gracePeriod)
        var running = groups  // leaders not yet exited (and reaped here: nobody else will)
        while !running.isEmpty, !grace.hasPassed {
            running = running.filter { waitpid($0, nil, WNOHANG) == 0 }
            usleep(5000)
        }
        for group in groups { kill(-group, SIGKILL) }  // whatever still runs in them, TERM ignored or not
    }
}
