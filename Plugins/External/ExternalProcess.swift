import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A running external analyzer program: Lumatrace writes to its stdin and reads its stdout line by
/// line, each step with a deadline, so a program that hangs (or stops reading) cannot hang the
/// replay. Its stderr is passed through to Lumatrace's.
///
/// Deadlines read the monotonic clock; they only ever decide whether to give up, never what is
/// logged.
final class ExternalProcess: @unchecked Sendable {
    let command: String
    private let process = Process()
    private let stdinPipe = Pipe()
    private let stdoutPipe = Pipe()
    private var buffer: [UInt8] = []
    private var scanned = 0
    private var inputClosed = false

    /// The longest stdout line accepted: a bound on memory, whatever the program writes.
    static let maximumLineBytes = 16 << 20

    init(command: String) throws(ExternalAnalyzerError) {
        self.command = command
        signal(SIGPIPE, SIG_IGN)  // a program that exits early makes writes fail, not kill us
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.standardInput = stdinPipe
        process.standardOutput = stdoutPipe
        process.standardError = FileHandle.standardError
        do { try process.run() } catch {
            throw ExternalAnalyzerError("cannot start `\(command)`: \(error.localizedDescription)")
        }
        for fd in [stdinPipe.fileHandleForWriting.fileDescriptor, stdoutPipe.fileHandleForReading.fileDescriptor] {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
    }

    deinit { stop() }

    /// Writes all of `bytes`, waiting at most until `deadline` for the program to read them.
    func write(_ bytes: UnsafeRawBufferPointer, deadline: Deadline, during step: String) throws(ExternalAnalyzerError) {
        let fd = stdinPipe.fileHandleForWriting.fileDescriptor
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n > 0 {
                offset += n
            } else if n < 0, errno == EAGAIN || errno == EINTR {
                try wait(fd, for: Int16(POLLOUT), deadline: deadline, during: step)
            } else {
                throw ExternalAnalyzerError("`\(command)` stopped reading its input \(step): \(exitDescription())")
            }
        }
    }

    /// The next stdout line (without its newline), waiting at most until `deadline`.
    func readLine(deadline: Deadline, during step: String) throws(ExternalAnalyzerError) -> ArraySlice<UInt8> {
        let fd = stdoutPipe.fileHandleForReading.fileDescriptor
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            if let newline = buffer[scanned...].firstIndex(of: 10) {
                let line = buffer[scanned..<newline]
                scanned = newline + 1
                return line
            }
            if scanned > 0 {
                buffer.removeFirst(scanned)
                scanned = 0
            }
            guard buffer.count <= Self.maximumLineBytes else {
                throw ExternalAnalyzerError("`\(command)` wrote a line over \(Self.maximumLineBytes) bytes \(step)")
            }
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                buffer += chunk[..<n]
            } else if n == 0 {
                throw ExternalAnalyzerError("`\(command)` ended its output \(step): \(exitDescription())")
            } else if errno == EAGAIN || errno == EINTR {
                try wait(fd, for: Int16(POLLIN), deadline: deadline, during: step)
            } else {
                throw ExternalAnalyzerError("cannot read from `\(command)` \(step): \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Closes the program's input and waits until `deadline` for it to exit with status 0.
    func finish(deadline: Deadline) throws(ExternalAnalyzerError) {
        closeInput()
        while process.isRunning {
            guard !deadline.hasPassed else {
                stop()
                throw ExternalAnalyzerError("`\(command)` did not exit after its last answer (stopped after the timeout)")
            }
            usleep(2000)
        }
        process.waitUntilExit()  // returns at once; lets Foundation release its watch on the child
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw ExternalAnalyzerError("`\(command)` \(exitDescription())")
        }
    }

    /// Kills the program if it still runs.
    func stop() {
        closeInput()
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    private func closeInput() {
        guard !inputClosed else { return }
        inputClosed = true
        try? stdinPipe.fileHandleForWriting.close()
    }

    private func wait(_ fd: Int32, for events: Int16, deadline: Deadline, during step: String) throws(ExternalAnalyzerError) {
        let milliseconds = deadline.millisecondsLeft
        guard milliseconds > 0 else {
            stop()
            throw ExternalAnalyzerError("`\(command)` did not answer \(step) within the timeout; it was stopped")
        }
        var p = pollfd(fd: fd, events: events, revents: 0)
        _ = poll(&p, 1, Int32(min(milliseconds, 1000)))
    }

    /// How the program ended, for messages (it may take a moment to be reaped after closing stdout).
    private func exitDescription() -> String {
        let until = Deadline(seconds: 1)
        while process.isRunning, !until.hasPassed { usleep(2000) }
        if process.isRunning { return "it is still running" }
        switch process.terminationReason {
        case .exit: return "it exited with status \(process.terminationStatus)"
        case .uncaughtSignal: return "it was killed by signal \(process.terminationStatus)"
        @unknown default: return "it ended"
        }
    }
}

/// A point in time on the monotonic clock.
struct Deadline {
    private let end: Double

    init(seconds: Double) { end = Self.now() + seconds }

    var hasPassed: Bool { Self.now() >= end }
    var millisecondsLeft: Int { max(0, Int(((end - Self.now()) * 1000).rounded(.up))) }

    private static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
