import CSystemCalls
import LumaBase
#if canImport(Glibc)
import Glibc
#endif

/// A program to start: what runs, with which arguments, environment and folder, and where its
/// standard streams go. The one way Lumatrace starts a program: ffprobe and ffmpeg reading a video
/// to record, ffmpeg writing a rendered GIF or MP4, an external analyzer's command.
///
///     let probe = try Program("ffprobe", ["-v", "error", "-show_streams", "clip.mp4"]).run()
///     probe.termination          // .exited(0)
///     probe.standardOutputText   // what it printed
///
///     var ffmpeg = Program("ffmpeg", ["-i", "clip.mp4", "-f", "yuv4mpegpipe", "-"])
///     ffmpeg.standardOutput = .pipe
///     ffmpeg.ownProcessGroup = true
///     let running = try ffmpeg.start()   // its pipes, signals, and its end: ``RunningProgram``
///
/// A program always starts fresh, whatever Lumatrace itself does: every signal at its default
/// disposition (a SIGINT that Lumatrace ignores while it records is not ignored by ffmpeg) and none
/// blocked, and no descriptor of Lumatrace's open in it but its three standard streams, so a pipe to
/// one program is never held open by another, and its reader sees the end when it should.
public struct Program: Sendable {
    /// Where one of a program's standard streams goes.
    public enum Stream: Sendable, Equatable {
        /// Lumatrace's own: its terminal, or wherever its own stream was sent.
        case inherited
        /// `/dev/null`: no input, or output nobody reads.
        case null
        /// A pipe between Lumatrace and the program: Lumatrace's end is the ``RunningProgram``'s
        /// ``RunningProgram/standardInput``, ``RunningProgram/standardOutput`` or
        /// ``RunningProgram/standardError``.
        case pipe
        /// An open descriptor of Lumatrace's (a file, a pipe made elsewhere): the program gets a
        /// copy; the descriptor stays the caller's to close.
        case fileDescriptor(Int32)
    }

    /// How a program that may start programs of its own is run so that none outlives it: under a
    /// reaper, a small process of Lumatrace's that is a child subreaper (`PR_SET_CHILD_SUBREAPER`),
    /// so everything the program starts, even a daemon that calls `setsid()` and double-forks,
    /// stays its descendant.
    ///
    /// The ``RunningProgram`` is then the reaper's (its pid, its process group); the program leads
    /// a process group of its own below it. When the program exits, the reaper TERMs whatever it
    /// left running, KILLs it after ``gracePeriod``, and exits as the program did.
    /// ``RunningProgram/terminate()`` has the reaper do the same to the program itself;
    /// ``RunningProgram/kill()`` has it KILL everything at once. When Lumatrace dies without a
    /// word (SIGKILL, the OOM killer), the kernel tells the reaper (`PR_SET_PDEATHSIG`), and it
    /// ends the program as on ``RunningProgram/terminate()``.
    ///
    /// Why a reaper and not a cgroup, or Lumatrace as subreaper: a cgroup needs a delegated cgroup
    /// tree that an unprivileged user often does not have, and Lumatrace as its own subreaper
    /// would adopt orphans of every program it starts with no way to tell whose they are; a reaper
    /// per program knows that every descendant it has is that program's.
    public struct Reaper: Sendable, Equatable {
        /// Seconds the program and everything it started have to exit after TERM before the
        /// reaper KILLs them.
        public var gracePeriod: Double

        public init(gracePeriod: Double) {
            self.gracePeriod = gracePeriod
        }
    }

    /// A path (`/usr/bin/ffmpeg`, `./tool`), or a name looked up on `PATH` (``Tool/find(_:searching:thenIn:)``).
    public var executable: String
    public var arguments: [String]
    /// The whole environment the program gets; `nil`: Lumatrace's own.
    public var environment: [String: String]?
    /// The folder it runs in; `nil`: Lumatrace's current folder.
    public var workingDirectory: String?
    public var standardInput: Stream = .null
    public var standardOutput: Stream = .inherited
    public var standardError: Stream = .inherited
    /// Whether the program leads a process group of its own. A terminal's Ctrl-C is sent to the
    /// foreground group, Lumatrace's: a program in its own group does not get it, so Lumatrace
    /// decides what the program's end is (finish the recording, then stop ffmpeg). Signals of the
    /// ``RunningProgram`` then reach everything in the group.
    public var ownProcessGroup = false
    /// Run under a reaper, so that nothing the program starts outlives it; `nil`: started directly.
    public var reaper: Reaper?

    public init(_ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil, workingDirectory: String? = nil) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.workingDirectory = workingDirectory
    }

    // MARK: - Starting

    /// Starts the program and returns its handle: its pipes, signals, and its end.
    ///
    /// Throws ``ProgramError/toolMissing(_:)`` for a name no folder of `PATH` holds, and
    /// ``ProgramError/systemCall(program:_:)`` when it cannot be started: the file is
    /// missing or not executable (`spawn`), its folder is missing (`changeFolder`), no pipe can be
    /// made (`pipe`). A program under a ``reaper`` that cannot be executed exits with status 127.
    public func start() throws(ProgramError) -> RunningProgram {
        let path = try resolvedPath()
        if let workingDirectory {
            let status: FileStatus
            do throws(SystemCallError) { status = try SystemPath.status(of: workingDirectory) } catch {
                throw .systemCall(program: path, error.named(.changeFolder(workingDirectory)))
            }
            guard status.kind == .folder else { throw .systemCall(program: path, SystemCallError(.changeFolder(workingDirectory), errno: ENOTDIR)) }
        }
        if standardInput == .pipe { BrokenPipes.ignore() }

        // The program's ends of its streams (closed here once it has started) and Lumatrace's.
        var theirs: [Int32] = [-1, -1, -1], ours: [Int32] = [-1, -1, -1], opened: [Int32] = []
        var nullFiles: [SystemFile] = []  // `/dev/null` for the streams that read or write nothing
        var keep = false
        defer {
            for fd in opened { close(fd) }
            for file in nullFiles { file.close() }
            if !keep { for fd in ours where fd >= 0 { close(fd) } }
        }
        for (index, stream) in [standardInput, standardOutput, standardError].enumerated() {
            switch stream {
            case .inherited: break
            case .fileDescriptor(let fd): theirs[index] = fd
            case .null:
                do throws(SystemCallError) { nullFiles.append(try SystemFile.open("/dev/null", for: .update)) } catch {
                    throw .systemCall(program: path, error.named(.spawn))
                }
                theirs[index] = nullFiles[nullFiles.count - 1].descriptor
            case .pipe:
                var ends: [Int32] = [-1, -1]
                guard lumatrace_pipe(&ends) == 0 else { throw .systemCall(program: path, SystemCallError(.pipe, errno: Glibc.errno)) }
                // Standard input: the program reads end 0 and Lumatrace writes end 1; the outputs the other way.
                let (program, lumatrace) = index == 0 ? (ends[0], ends[1]) : (ends[1], ends[0])
                opened.append(program)
                theirs[index] = program
                ours[index] = lumatrace
            }
        }

        var pid: pid_t = 0
        let error = withCStrings([path] + arguments) { argv in
            withEnvironment { envp in
                theirs.withUnsafeBufferPointer { streams in
                    if let reaper {
                        return lumatrace_spawn_reaped(path, argv, envp, streams.baseAddress, workingDirectory,
                                                      Int32((reaper.gracePeriod * 1000).rounded()), &pid)
                    }
                    return lumatrace_spawn(path, argv, envp, streams.baseAddress, workingDirectory, ownProcessGroup ? 1 : 0, &pid)
                }
            }
        }
        guard error == 0 else { throw .systemCall(program: path, SystemCallError(.spawn, errno: error)) }
        keep = true
        let pipe = { (index: Int) in ours[index] < 0 ? nil : ProgramPipe(fileDescriptor: ours[index], program: path, toProgram: index == 0) }
        return RunningProgram(executable: path, pid: pid, standardInput: pipe(0), standardOutput: pipe(1), standardError: pipe(2),
                              leadsProcessGroup: ownProcessGroup || reaper != nil, underReaper: reaper != nil)
    }

    /// ``executable`` as a path: as it is when it holds a `/`, else found on `PATH`.
    func resolvedPath() throws(ProgramError) -> String {
        if executable.contains("/") { return executable }
        return try Tool(executable).path()
    }

    /// Calls `body` with `strings` as a C `argv`: NUL-terminated copies, then a null pointer.
    private func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
        let copies: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) } + [nil]
        defer { for copy in copies { free(copy) } }
        return copies.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    /// Calls `body` with ``environment`` as a C `envp`, or this process's own.
    private func withEnvironment<R>(_ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
        guard let environment else { return body(environ) }
        return withCStrings(environment.map { "\($0.key)=\($0.value)" }, body)
    }
}

/// A write to a pipe whose reader has gone raises SIGPIPE, which ends a process by default: with
/// it ignored, the write fails with `EPIPE` instead, and the writer says which program stopped
/// reading. Only when SIGPIPE is still at its default: a host that handles it keeps its handling.
/// The programs started are not affected: they start with every signal at its default.
enum BrokenPipes {
    static func ignore() {
        var current = sigaction()
        guard sigaction(SIGPIPE, nil, &current) == 0, current.__sigaction_handler.sa_handler == nil,
              current.sa_flags & SA_SIGINFO == 0 else { return }
        _ = signal(SIGPIPE, SIG_IGN)
    }
}
