import Foundation
import Testing
import LumaTestSupport

/// One run of the built binary with its exit status or signal, its output, and the most memory
/// it held: its own `ru_maxrss`, from `wait4` in a small Python parent that forks and execs it.
/// (Spawned straight from the test process, Linux would start the child's high-water mark at the
/// test process's, since `posix_spawn` shares the parent's memory until `exec`.)
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
        let dir = Scratch.folder("cli")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let outPath = stdout ?? "\(dir)/stdout", errPath = "\(dir)/stderr"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let usagePath = "\(dir)/usage"
        let parent = """
            import os, sys
            pid = os.fork()
            if pid == 0:
                os.execv(sys.argv[2], sys.argv[2:])
            _, status, usage = os.wait4(pid, 0)
            open(sys.argv[1], "w").write(f"{status} {usage.ru_maxrss}")
            """
        let python = try ExternalTool.python3.require()
        let argv: [UnsafeMutablePointer<CChar>?] = ([python, "-c", parent, usagePath, CLI.binary] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, python, &actions, nil, argv, environ)
        guard spawned == 0 else { throw CocoaError(.executableLoad) }
        var parentStatus: Int32 = 0
        while waitpid(pid, &parentStatus, 0) < 0 && errno == EINTR {}
        let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        let fields = read(usagePath).split(separator: " ").compactMap { Int32($0) }
        guard fields.count == 2 else { throw CocoaError(.executableLoad) }
        let (status, maxResidentKiB) = (fields[0], fields[1])
        let signalled = status & 0x7F
        return MeasuredRun(status: signalled == 0 ? (status >> 8) & 0xFF : nil, signal: signalled == 0 ? nil : signalled,
                           stdout: stdout == nil ? read(outPath) : "", stderr: read(errPath),
                           maxResidentMiB: Double(maxResidentKiB) / 1024)
    }
}
