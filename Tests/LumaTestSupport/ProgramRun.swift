import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// What a finished program did: how it ended and everything it wrote.
public struct ProgramResult: Sendable, CustomStringConvertible {
    /// The exit status, or 128 + the signal's number when a signal ended it, as a shell reports it.
    public var status: Int32
    /// The signal that ended it, if one did.
    public var signal: Int32?
    /// What it wrote, when it was collected (empty when sent elsewhere).
    public var stdout: String
    public var stderr: String

    public var description: String {
        (signal.map { "ended by signal \($0)" } ?? "exit status \(status)") + (stderr.isEmpty ? "" : ": \(stderr)")
    }
}

/// Runs programs the way a user's shell would, collecting their output: `lumatrace` itself,
/// ffmpeg, Python plugins. Every program a test starts goes through here or ``RunningProgram``.
public enum ProgramRun {
    /// How long a program may run before a test gives up on it. Not a guess at how long anything
    /// takes: it turns a program that hangs into a failure that says so, instead of a test run
    /// that never ends.
    public static let patience: TimeInterval = 1200

    /// The patience for building a whole package from scratch (`swift build` of a package that
    /// `lumatrace new-analyzer` made, Lumatrace included): minutes on an idle machine, many more on
    /// a busy one.
    public static let buildPatience: TimeInterval = 3600

    /// Runs `program` (a path, or a name looked up on `PATH` once) with `arguments`, feeding it
    /// `stdin` (none: `/dev/null`), in `cwd`, with `environment` (default: the test process's), and
    /// waits for it to exit. A program of Debian's packages is better named by its ``ExternalTool``,
    /// which knows how to install it.
    @discardableResult
    public static func run(_ program: String, _ arguments: [String], stdin: Data? = nil, cwd: String? = nil,
                           environment: [String: String]? = nil, patience: TimeInterval = patience) throws -> ProgramResult {
        let path = program.contains("/") ? program : try ExternalTool(program, install: "put \(program) on PATH").require()
        return try RunningProgram(path, arguments, stdin: stdin.map { .data($0) } ?? .nothing, cwd: cwd, environment: environment)
            .wait(patience: patience)
    }

    /// Runs `tool` (found once; missing, it fails with the command that installs it).
    @discardableResult
    public static func run(_ tool: ExternalTool, _ arguments: [String], stdin: Data? = nil, cwd: String? = nil,
                           environment: [String: String]? = nil, patience: TimeInterval = patience) throws -> ProgramResult {
        try run(tool.require(), arguments, stdin: stdin, cwd: cwd, environment: environment, patience: patience)
    }

    /// A program did not exit within the patience it was given; it was killed.
    public struct Hung: Error, CustomStringConvertible {
        public var commandLine: String
        public var patience: TimeInterval
        public var stderr: String
        public var description: String {
            "`\(commandLine)` did not exit within \(Int(patience)) s and was killed (a hang guard, not a measurement)"
                + (stderr.isEmpty ? "" : "; its stderr: \(stderr.suffix(2000))")
        }
    }

    /// A program could not be started.
    public struct CannotStart: Error, CustomStringConvertible {
        public var description: String
    }
}

/// A program a test started and drives while it runs: writes its input, watches its files, signals
/// it on an event (``AwaitedEvent``), then ``wait(patience:)``s for its end. `ProgramRun/run(_:_:stdin:cwd:environment:patience:)`
/// is this, started and waited for.
///
/// It starts as from a shell: no signal blocked, every signal at its default (a test runner's
/// threads block or ignore some, and a child would inherit that), no descriptor of the test
/// process but the three it is given. Released while still running (a test that threw), it is
/// killed and reaped.
public final class RunningProgram: Sendable {
    /// Where its standard input comes from.
    public enum Input {
        /// `/dev/null`.
        case nothing
        /// These bytes, then the end of input.
        case data(Data)
        /// A pipe the test writes to: ``input``.
        case pipe
        /// A file, or a FIFO.
        case file(String)
    }

    /// Where its standard output or error goes.
    public enum Output {
        /// Into ``ProgramResult/stdout`` or ``ProgramResult/stderr``.
        case collected
        /// `/dev/null`.
        case discarded
        /// A file (created or truncated), which the test may watch while the program runs.
        case file(String)
        /// A pipe the test reads from: ``output`` (standard output only).
        case pipe
    }

    public let pid: pid_t
    /// The program and its arguments, for messages.
    public let commandLine: String
    /// The writing end of its standard input (``Input/pipe``); closing it ends the input.
    public let input: FileHandle?
    /// The reading end of its standard output (``Output/pipe``).
    public let output: FileHandle?

    /// Its wait status, once it has exited and been reaped.
    private let waitStatus = Mutex<Int32?>(nil)
    private let collectedOutput: Drain?
    private let collectedErrors: Drain?

    /// Starts the program at `path`. Fails if it cannot be started (no such file, not executable).
    public init(_ path: String, _ arguments: [String], stdin: Input = .nothing, stdout: Output = .collected,
                stderr: Output = .collected, cwd: String? = nil, environment: [String: String]? = nil) throws {
        _ = RunningProgram.ignoreBrokenPipes
        commandLine = ([path] + arguments).joined(separator: " ")
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw ProgramRun.CannotStart(description: "`\(commandLine)`: \(path) is not an executable file")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var closeAfterSpawn: [Int32] = []
        defer { closeAfterSpawn.forEach { close($0) } }

        var inputEnd: Int32?, feed: Data?
        switch stdin {
        case .nothing: posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        case .file(let file): posix_spawn_file_actions_addopen(&actions, 0, file, O_RDONLY, 0)
        case .data(let data):
            let pipe = try RunningProgram.pipe()
            posix_spawn_file_actions_adddup2(&actions, pipe.read, 0)
            closeAfterSpawn.append(pipe.read)
            inputEnd = pipe.write
            feed = data
        case .pipe:
            let pipe = try RunningProgram.pipe()
            posix_spawn_file_actions_adddup2(&actions, pipe.read, 0)
            closeAfterSpawn.append(pipe.read)
            inputEnd = pipe.write
        }

        var drains: [Int32: Int32] = [:]  // descriptor in the child → our reading end, to collect
        var outputHandle: FileHandle?
        for (fd, destination) in [(Int32(1), stdout), (Int32(2), stderr)] {
            switch destination {
            case .discarded: posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_WRONLY, 0)
            case .file(let file): posix_spawn_file_actions_addopen(&actions, fd, file, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            case .collected, .pipe:
                let pipe = try RunningProgram.pipe()
                posix_spawn_file_actions_adddup2(&actions, pipe.write, fd)
                closeAfterSpawn.append(pipe.write)
                if case .pipe = destination, fd == 1 {
                    outputHandle = FileHandle(fileDescriptor: pipe.read, closeOnDealloc: true)
                } else {
                    drains[fd] = pipe.read
                }
            }
        }
        if let cwd {
            guard Spawn.addChangeDirectory(&actions, cwd) == 0 else { throw ProgramRun.CannotStart(description: "`\(commandLine)`: cannot change to \(cwd)") }
        }
        // Nothing else of the test process: another test's pipe left open in this program would
        // keep that test from ever seeing the end of its output.
        _ = Spawn.addCloseFrom(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp: [UnsafeMutablePointer<CChar>?]? = environment.map { variables in
            variables.map { name, value -> UnsafeMutablePointer<CChar>? in strdup("\(name)=\(value)") } + [nil]
        }
        defer { envp?.forEach { free($0) } }
        var child = pid_t()
        let spawned = envp.map { posix_spawn(&child, path, &actions, &attributes, argv, $0) }
            ?? posix_spawn(&child, path, &actions, &attributes, argv, environ)
        guard spawned == 0 else {
            for fd in Array(drains.values) + [inputEnd].compactMap({ $0 }) { close(fd) }  // (the output handle closes its own)
            throw ProgramRun.CannotStart(description: "`\(commandLine)`: \(String(cString: strerror(spawned)))")
        }
        pid = child
        input = inputEnd.map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
        output = outputHandle
        collectedOutput = drains[1].map(Drain.init)
        collectedErrors = drains[2].map(Drain.init)
        if let feed, let input {
            Thread.detachNewThread {
                try? input.write(contentsOf: feed)  // a program that exits without reading it all: EPIPE
                try? input.close()
            }
        }
    }

    deinit { stop() }

    /// Whether it has not exited yet (an exited program is reaped here, at once).
    public var isRunning: Bool {
        waitStatus.withLock { status in
            if status == nil {
                var s: Int32 = 0
                if waitpid(pid, &s, WNOHANG) == pid { status = s }
            }
            return status == nil
        }
    }

    /// Sends `signal` to it (if it still runs: a pid is never signalled after it was reaped).
    public func signal(_ signal: Int32) {
        waitStatus.withLock { status in
            if status == nil { kill(pid, signal) }
        }
    }

    /// Waits until it exits and its collected output has ended, and returns how it ended and what
    /// it wrote. After `patience` it is killed and ``ProgramRun/Hung`` thrown.
    @discardableResult
    public func wait(patience: TimeInterval = ProgramRun.patience) throws -> ProgramResult {
        let giveUp = DispatchTime.now() + patience
        let exited = AwaitedEvent.wait(patience: patience) { !isRunning }
        let ended = exited && [collectedOutput, collectedErrors].allSatisfy { $0?.wait(until: giveUp) ?? true }
        guard ended else {
            stop()
            throw ProgramRun.Hung(commandLine: commandLine, patience: patience, stderr: collectedErrors?.text ?? "")
        }
        let status = waitStatus.withLock { $0 } ?? 0
        let signalled = status & 0x7F
        return ProgramResult(status: signalled == 0 ? (status >> 8) & 0xFF : 128 + signalled, signal: signalled == 0 ? nil : signalled,
                             stdout: collectedOutput?.text ?? "", stderr: collectedErrors?.text ?? "")
    }

    /// Kills it if it still runs, and reaps it.
    public func stop() {
        waitStatus.withLock { status in
            guard status == nil else { return }
            kill(pid, SIGKILL)
            var s: Int32 = 0
            while waitpid(pid, &s, 0) < 0 && errno == EINTR {}
            status = s
        }
    }

    /// A pipe whose ends are not inherited by programs started meanwhile by other tests.
    private static func pipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard Spawn.pipeCloseOnExec(&ends) == 0 else {
            throw ProgramRun.CannotStart(description: "pipe: \(String(cString: strerror(errno)))")
        }
        return (ends[0], ends[1])
    }

    /// A write to a program that has exited fails (EPIPE) instead of killing the test process.
    /// Programs do not inherit this: they start with every signal at its default.
    private static let ignoreBrokenPipes: Void = { _ = Glibc.signal(SIGPIPE, SIG_IGN) }()

    /// What a program writes to a pipe, read to its end on a thread of its own.
    private final class Drain: Sendable {
        private let bytes = Mutex<[UInt8]>([])
        private let ended = DispatchSemaphore(value: 0)

        init(_ fd: Int32) {
            Thread.detachNewThread { [self] in
                var chunk = [UInt8](repeating: 0, count: 1 << 16)
                while true {
                    let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                    if n < 0 && errno == EINTR { continue }
                    guard n > 0 else { break }
                    bytes.withLock { $0 += chunk[..<n] }
                }
                close(fd)
                ended.signal()
            }
        }

        /// Waits for the end of the output (every writer has closed it) until `deadline`.
        func wait(until deadline: DispatchTime) -> Bool {
            guard ended.wait(timeout: deadline) == .success else { return false }
            ended.signal()  // for the next wait
            return true
        }

        /// What was read so far.
        var text: String { bytes.withLock { String(decoding: $0, as: UTF8.self) } }
    }
}

/// glibc's GNU extensions that `posix_spawn` needs here (Swift's Glibc module does not declare
/// them: it does not define `_GNU_SOURCE`), looked up once by name.
private enum Spawn {
    typealias AddChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32

    private static func function<F>(_ name: String, as type: F.Type) -> F {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else {
            fatalError("\(name) is missing from the C library (glibc 2.34 or later has it)")
        }
        return unsafeBitCast(symbol, to: type)
    }

    // `nonisolated(unsafe)`: C function pointers, set once and only called.
    nonisolated(unsafe) static let changeDirectory = function("posix_spawn_file_actions_addchdir_np", as: AddChangeDirectory.self)
    nonisolated(unsafe) static let closeFrom = function("posix_spawn_file_actions_addclosefrom_np", as: AddCloseFrom.self)
    nonisolated(unsafe) static let pipe2 = function("pipe2", as: Pipe2.self)

    static func addChangeDirectory(_ actions: inout posix_spawn_file_actions_t, _ path: String) -> Int32 { changeDirectory(&actions, path) }
    static func addCloseFrom(_ actions: inout posix_spawn_file_actions_t, _ fd: Int32) -> Int32 { closeFrom(&actions, fd) }
    static func pipeCloseOnExec(_ ends: inout [Int32]) -> Int32 { ends.withUnsafeMutableBufferPointer { pipe2($0.baseAddress!, O_CLOEXEC) } }
}
