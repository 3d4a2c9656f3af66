import Foundation

/// The processor time the calling thread has used (`CLOCK_THREAD_CPUTIME_ID`): how much work it
/// did. A test that bounds the cost of a computation measures this, never the time on the wall,
/// which a busy machine stretches however little the computation does.
public enum ThreadCPUTime {
    /// The calling thread's processor time so far.
    public static var now: Duration {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return .seconds(t.tv_sec) + .nanoseconds(t.tv_nsec)
    }

    /// Runs `body` on this thread, and returns what it returned and the processor time it used.
    /// (Only this thread's: work `body` hands to other threads is not counted.)
    public static func measure<T>(_ body: () throws -> T) rethrows -> (result: T, used: Duration) {
        let start = now
        let result = try body()
        return (result, now - start)
    }
}
