import Foundation
import LumaProcess
import Synchronization

/// What Ctrl-C (SIGINT) and SIGTERM do while external programs run.
///
/// Each program runs in its own process group, so a terminal's Ctrl-C reaches Lumatrace only. While
/// at least one program runs, the first signal sends TERM to every program's group at once, and
/// each program's next step fails with a message naming the signal (after ending its group: KILL
/// follows TERM after the grace period), so the replay stops like on any analyzer failure, with a
/// valid log. A second signal does not wait: each program's reaper KILLs everything of the
/// program at once (`RunningProgram.kill()`), and Lumatrace ends by that signal.
/// When no program runs, a signal does what it did before (by default, end Lumatrace).
///
/// Installed when the first program starts, and only for signals whose handling is still the
/// default: a host that handles SIGINT or SIGTERM itself keeps its own handling.
enum ExternalInterruption {
    /// Programs started and not yet ended (counted before they start, so no signal slips between).
    static let liveCount = Atomic<Int>(0)
    /// The first signal received while programs ran, or 0.
    static let received = Atomic<Int32>(0)
    /// The programs still running (their reapers), by pid.
    static let live = Mutex<[pid_t: RunningProgram]>([:])
    /// The signal handler's way to wake ``watch(_:)``: a byte per signal, written to a pipe.
    private static let wakeUp = Atomic<Int32>(-1)
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
        atexit { ExternalInterruption.endRemainingGroups() }
        guard let pipe = WakeUpPipe() else { return }  // no pipe, no handler: signals keep their default
        wakeUp.store(pipe.writeEnd, ordering: .sequentiallyConsistent)
        WorkerThread.detach("external signal") { watch(pipe) }
        for sig in [SIGINT, SIGTERM] {
            var current = sigaction()
            guard sigaction(sig, nil, &current) == 0, current.__sigaction_handler.sa_handler == nil,
                  current.sa_flags & SA_SIGINFO == 0 else { continue }  // not SIG_DFL: the host's own handling stays
            _ = signal(sig, onSignal)
        }
    }

    /// Async-signal-safe: atomics, `write` (``WakeUpPipe/wake(_:with:)``), and at most a re-raise.
    private static let onSignal: @convention(c) (Int32) -> Void = { sig in
        if ExternalInterruption.liveCount.load(ordering: .sequentiallyConsistent) == 0 {
            _ = signal(sig, SIG_DFL)
            _ = raise(sig)  // delivered when this handler returns
            return
        }
        _ = ExternalInterruption.received.compareExchange(expected: 0, desired: sig, ordering: .sequentiallyConsistent)
        WakeUpPipe.wake(ExternalInterruption.wakeUp.load(ordering: .sequentiallyConsistent), with: UInt8(truncatingIfNeeded: sig))
    }

    /// Runs on its own thread: TERM to every group at the first signal, KILL and exit at the second.
    private static func watch(_ pipe: WakeUpPipe) {
        var signals = 0
        while let byte = pipe.nextByte() {
            signals += 1
            let programs = live.withLock { $0.values }
            if signals == 1 {
                for program in programs { program.terminate() }
            } else {
                // Each reaper KILLs its program and everything it started at once.
                for program in programs { program.kill() }
                _ = signal(Int32(byte), SIG_DFL)
                _ = raise(Int32(byte))
            }
        }
    }

    /// A program that has ended (and been reaped) is no longer one to stop.
    static func ended(_ program: RunningProgram) {
        guard live.withLock({ $0.removeValue(forKey: program.pid) }) != nil else { return }
        liveCount.subtract(1, ordering: .sequentiallyConsistent)
    }

    /// At exit, ends the groups of programs nobody stopped (normally none: each program ends its
    /// group when it fails, finishes or is released).
    static func endRemainingGroups() {
        let programs = Array(live.withLock { $0.values })
        guard !programs.isEmpty else { return }
        for program in programs { program.terminate() }
        let grace = Deadline(seconds: ExternalProcess.gracePeriod)
        var running = programs  // leaders not yet exited (and reaped here: nobody else will)
        while !running.isEmpty, !grace.hasPassed {
            running = running.filter { (try? $0.poll()) == nil }
            usleep(5000)
        }
        for program in programs { program.signal(SIGKILL, toGroup: true) }  // whatever still runs in them, TERM ignored or not
    }
}
