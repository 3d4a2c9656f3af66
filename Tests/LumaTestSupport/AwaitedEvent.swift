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
        let giveUp = DispatchTime.now() + patience
        while !happened() {
            guard stillPossible() else { return happened() }
            guard DispatchTime.now() < giveUp else { return false }
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

    /// Whether process `pid` holds an `flock` on the file at `path` (from `/proc/locks`): a writer
    /// that has claimed its output.
    public static func process(_ pid: pid_t, holdsLockOn path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0, let locks = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return false }
        // "1: FLOCK  ADVISORY  WRITE 4242 fd:01:1234567 0 EOF": the kind, the holder, device:inode.
        return locks.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ")
            guard fields.count >= 6, fields[1] == "FLOCK", fields[4] == "\(pid)" else { return false }
            return fields[5].split(separator: ":").last == "\(status.st_ino)"
        }
    }
}
