#if canImport(Glibc)
// `stdout` is a C global Swift 6 cannot prove safe; it is set before `main` and never reassigned.
@preconcurrency import Glibc
#endif
import LumaBase

/// Makes a failed write to standard output a failure of the command.
///
/// `print` goes through the C library's buffered `stdout`, whose write errors (`info > /dev/full`,
/// a closed pipe's reader gone with SIGPIPE ignored) only set an error flag: the command would
/// exit 0 having printed nothing. At exit the buffer is flushed and the flag checked; a failure is
/// one line on stderr and exit status 2 (an error, as in `lumatrace --help`'s table).
enum StandardOutput {
    /// Installs the check; call once, before the command runs.
    static func checkAtExit() {
        atexit {
            let flushed = fflush(stdout) == 0
            let reason = flushed ? "a write failed" : String(cString: strerror(errno))
            guard !flushed || ferror(stdout) != 0 else { return }
            let message = "lumatrace: error: cannot write to standard output: \(reason)\n"
            try? SystemFile.borrowing(2).write(Array(message.utf8))
            _exit(2)
        }
    }
}
