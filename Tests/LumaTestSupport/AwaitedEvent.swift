import Foundation

/// Waiting for something a test can only see by looking: a file that grows, a line that appears,
/// a child process that opens a file. A test that kills or signals a process does it on such an
/// event, never after a sleep that guesses how long the process takes: on a busy machine the guess
/// is wrong, and the signal lands before the process got there or after it finished.
public enum AwaitedEvent {
    /// Checks `happened` every few milliseconds until it is true (returns true), or until
    /// `stillPossible` is false — the process that would make it happen has exited (returns false,
    /// after one last check).
    ///
    /// `patience` is not a guess at how long the event takes: it only ends the wait for an event
    /// that will never come (a hung child), so that the test fails instead of hanging.
    @discardableResult
    public static func wait(patience: TimeInterval = 300, while stillPossible: () -> Bool = { true },
                            until happened: () -> Bool) -> Bool {
        let giveUp = Date().addingTimeInterval(patience)
        while !happened() {
            guard stillPossible() else { return happened() }
            guard Date() < giveUp else { return false }
            usleep(5_000)
        }
        return true
    }

    /// The size of the file at `path` in bytes, 0 if there is none (yet).
    public static func fileSize(_ path: String) -> Int {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : 0
    }

    /// Whether process `pid` has `path` open (one of its descriptors leads to it): a reader
    /// waiting on a FIFO, a writer holding its output.
    public static func process(_ pid: pid_t, hasOpen path: String) -> Bool {
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let fds = "/proc/\(pid)/fd"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: fds) else { return false }
        return names.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(fds)/\($0)")) == target }
    }
}
