import Foundation
import Testing

/// One run of the built binary with its exit status or signal, its output, and the most memory
/// it held.
///
/// The peak comes from GNU `time` (`%M`), which forks its child: `posix_spawn` (and so
/// `Process`) starts a child that shares the test process's memory until it execs, and the kernel
/// keeps that shared peak in the child's `ru_maxrss`, so `wait4` on a direct child reports the
/// test process's size, not the command's.
struct MeasuredRun {
    /// Exit status, or `nil` when a signal ended the process.
    var status: Int32?
    var signal: Int32?
    var stdout: String
    var stderr: String
    /// Peak resident memory, MiB.
    var maxResidentMiB: Double

    /// `true` when the process trapped or crashed instead of exiting with a message.
    var crashed: Bool {
        signal != nil || [132, 133, 134, 139].contains(status ?? 0) || stderr.contains("Fatal error")
    }

    /// Runs `lumatrace arguments` with stdin from /dev/null and stdout to `stdout` (a file in a
    /// fresh folder unless given, e.g. `/dev/full`).
    static func run(_ arguments: [String], stdout: String? = nil) throws -> MeasuredRun {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let outPath = stdout ?? "\(dir)/stdout", errPath = "\(dir)/stderr"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let time = try #require(CLI.tool("time"), "GNU time (apt-get install time) measures the command's peak memory")
        let timePath = "\(dir)/time"
        let argv: [UnsafeMutablePointer<CChar>?] = ([time, "-f", "%M", "-o", timePath, CLI.binary] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, time, &actions, nil, argv, environ)
        guard spawned == 0 else { throw CocoaError(.executableLoad) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        // GNU time exits with the command's status, or 128 + the signal that ended it, and
        // writes "Command terminated by signal N" before the figure in that case.
        let report = read(timePath).split(separator: "\n")
        let kilobytes = try #require(report.last.flatMap { Double($0) }, "no figure from time: \(report)")
        let signal = report.first { $0.hasPrefix("Command terminated by signal ") }.flatMap { Int32($0.split(separator: " ").last!) }
        return MeasuredRun(status: signal == nil ? (status >> 8) & 0xFF : nil, signal: signal,
                           stdout: stdout == nil ? read(outPath) : "", stderr: read(errPath),
                           maxResidentMiB: kilobytes / 1024)
    }
}
