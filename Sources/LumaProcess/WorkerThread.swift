import CSystemCalls
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A named thread for one of Lumatrace's long-running workers: the recording writer, the live
/// analysis, the chunk decoder of a replay, readers of a program's output, the watcher of signals.
/// The one way Lumatrace starts a thread.
///
///     let writer = WorkerThread.start("rec writer") { appendUntilEnd() }
///     …
///     writer.join()                    // waits for the closure to return
///
///     WorkerThread.detach("ffmpeg stderr") { readUntilEnd() }   // nobody waits for it
///
/// Whether a worker is waited for is said where it starts: ``start(_:_:)`` returns a thread to
/// ``join()``, ``detach(_:_:)`` returns nothing. The name shows in `ps -L`, `top -H` and debuggers
/// (Linux keeps its first 15 bytes).
///
/// A dedicated thread, not a Dispatch queue: these workers block for long stretches (on a pipe, a
/// condition, a semaphore), which would hold one of Dispatch's shared worker threads all that time.
/// Short parallel loops (analyzers of one frame, shards of a regression) use
/// `DispatchQueue.concurrentPerform`, which is the better tool for those.
public final class WorkerThread: Sendable {
    /// The name it was started with.
    public let name: String
    private let thread: pthread_t
    /// Joined (or detached, when released without being joined): the thread is not to be touched again.
    private let released = Atomic<Bool>(false)

    private init(name: String, thread: pthread_t) {
        self.name = name
        self.thread = thread
    }

    /// A thread that is not joined would keep its resources until the process ends: one released
    /// without ``join()`` is detached.
    deinit {
        if !released.exchange(true, ordering: .sequentiallyConsistent) { pthread_detach(thread) }
    }

    /// Starts `body` on a new thread named `name`; ``join()`` waits for it to return.
    public static func start(_ name: String, _ body: @escaping @Sendable () -> Void) -> WorkerThread {
        WorkerThread(name: name, thread: launch(name, body))
    }

    /// Starts `body` on a new thread named `name` that nobody waits for: it ends when `body` returns,
    /// or with the process.
    public static func detach(_ name: String, _ body: @escaping @Sendable () -> Void) {
        pthread_detach(launch(name, body))
    }

    /// Waits for the thread's closure to return. Call it once, and not from the thread itself.
    public func join() {
        precondition(!released.exchange(true, ordering: .sequentiallyConsistent), "the thread \(name) was joined twice")
        pthread_join(thread, nil)
    }

    /// What the new thread runs: its name and closure, handed over as one retained object.
    private final class Start {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }

    private static func launch(_ name: String, _ body: @escaping @Sendable () -> Void) -> pthread_t {
        let start = Unmanaged.passRetained(Start(name: name, body: body))
        var thread = pthread_t()
        let error = pthread_create(&thread, nil, { argument in
            let start = Unmanaged<Start>.fromOpaque(argument!).takeRetainedValue()
            lumatrace_name_this_thread(start.name)
            start.body()
            return nil
        }, start.toOpaque())
        guard error == 0 else {
            start.release()
            // As Foundation's Thread does when the system has no thread to give: nothing sensible goes on without the worker.
            fatalError("cannot start the thread \(name): \(String(cString: strerror(error)))")
        }
        return thread
    }
}
