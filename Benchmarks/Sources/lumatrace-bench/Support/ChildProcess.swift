import Foundation

/// This benchmark's own executable run as a child process, for measurements that need a fresh
/// address space (peak memory).
enum ChildProcess {
    /// Runs `lumatrace-bench ARGUMENTS…` with standard input from /dev/null, standard output into
    /// `output` and standard error into `errorLog`; returns what it printed. Throws, with its
    /// standard error, when it fails; `what` names the child in that message.
    ///
    /// The child's peak must be read by the child itself (its VmHWM): on Linux `ru_maxrss` keeps
    /// the high-water mark of the image `exec` replaced, and `posix_spawn` (vfork) makes that image
    /// this process's, so `wait4`'s `ru_maxrss` would report this parent's peak.
    static func runSelf(_ arguments: [String], output: String, errorLog: String, what: String) throws -> String {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        defer { try? FileManager.default.removeItem(atPath: output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errorLog, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv: [UnsafeMutablePointer<CChar>?] = ([me] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, me, &actions, nil, argv, environ)
        guard spawned == 0 else { throw InputError("cannot start \(me): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            let message = (try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? ""
            throw InputError("\(what) failed (status \(status)): \(message.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    }
}
