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
    /// scratch folder unless given, e.g. `/dev/full`).
    static func run(_ arguments: [String], stdout: String? = nil) throws -> MeasuredRun {
        try withScratchFolder("cli") { dir in
            let outPath = stdout ?? "\(dir)/stdout", errPath = "\(dir)/stderr"
            let usagePath = "\(dir)/usage"
            // Python sets SIGPIPE to ignored, which exec would hand on: the child puts it back, so
            // lumatrace starts as from a shell, like every program a test runs.
            let parent = """
                import os, signal, sys
                pid = os.fork()
                if pid == 0:
                    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
                    os.execv(sys.argv[2], sys.argv[2:])
                _, status, usage = os.wait4(pid, 0)
                open(sys.argv[1], "w").write(f"{status} {usage.ru_maxrss}")
                """
            let measured = try RunningProgram(try ExternalTool.python3.require(), ["-c", parent, usagePath, CLI.binary] + arguments,
                                              stdout: .file(outPath), stderr: .file(errPath)).wait()
            let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
            let fields = read(usagePath).split(separator: " ").compactMap { Int32($0) }
            guard measured.status == 0, fields.count == 2 else { throw CLI.Failure(description: "the measuring parent failed: \(measured)") }
            let (status, maxResidentKiB) = (fields[0], fields[1])
            let signalled = status & 0x7F
            return MeasuredRun(status: signalled == 0 ? (status >> 8) & 0xFF : nil, signal: signalled == 0 ? nil : signalled,
                               stdout: stdout == nil ? read(outPath) : "", stderr: read(errPath),
                               maxResidentMiB: Double(maxResidentKiB) / 1024)
        }
    }
}
