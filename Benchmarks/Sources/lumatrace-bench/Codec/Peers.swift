import Foundation

/// ffmpeg and ffprobe, found on `PATH`, and a way to run them.
struct FFmpegTools {
    let ffmpeg: URL
    let ffprobe: URL
    /// Where each run's standard error goes (read back only when the run fails).
    let errorLog: String

    /// Finds both tools and checks that this ffmpeg has the two peer encoders (unless
    /// `needsPeerEncoders` is false: the trajectory benchmark only decodes).
    static func locate(scratch: String, needsPeerEncoders: Bool = true) throws -> FFmpegTools {
        func find(_ name: String) throws -> URL {
            let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
            for directory in path.split(separator: ":") {
                let candidate = "\(directory)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return URL(fileURLWithPath: candidate) }
            }
            throw InputError("\(name) is not on PATH. The benchmark needs ffmpeg and ffprobe (with libx264): "
                             + "install them with `sudo apt-get install ffmpeg` (or run scripts/install-dependencies).")
        }
        let tools = FFmpegTools(ffmpeg: try find("ffmpeg"), ffprobe: try find("ffprobe"), errorLog: scratch + "/ffmpeg.stderr")
        guard needsPeerEncoders else { return tools }
        let encoders = String(decoding: try tools.run(tools.ffmpeg, ["-hide_banner", "-encoders"]), as: UTF8.self)
        for peer in Peer.allCases where !encoders.contains(" \(peer.encoder) ") {
            throw InputError("\(tools.ffmpeg.path) has no \(peer.encoder) encoder; install a full ffmpeg build "
                             + "(Debian: `sudo apt-get install ffmpeg`).")
        }
        return tools
    }

    /// Runs `tool` to completion and returns its standard output; throws with its standard error
    /// when it fails. Standard error goes to `errorLog`, so a chatty tool never blocks on a pipe.
    @discardableResult
    func run(_ tool: URL, _ arguments: [String]) throws -> Data {
        guard FileManager.default.createFile(atPath: errorLog, contents: nil),
              let errors = FileHandle(forWritingAtPath: errorLog) else { throw InputError("cannot create \(errorLog)") }
        defer { try? errors.close() }
        let process = Process()
        let output = Pipe()
        process.executableURL = tool
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = errors
        do { try process.run() } catch { throw InputError("cannot start \(tool.path): \(error)") }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw failure(tool, arguments, status: process.terminationReason == .exit ? process.terminationStatus : -process.terminationStatus)
        }
        return data
    }

    /// Runs `tool` to completion with its output discarded and returns the wall-clock seconds from
    /// launch to exit (process start-up included).
    ///
    /// Uses `posix_spawn` and `waitpid` rather than `Process`, whose `waitUntilExit()` polls every
    /// 50 ms on Linux: too coarse for runs that take a second.
    func timed(_ tool: URL, _ arguments: [String]) throws -> Double {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errorLog, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv: [UnsafeMutablePointer<CChar>?] = ([tool.path] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }

        var pid = pid_t()
        var status: Int32 = 0
        let start = ContinuousClock.now
        let spawned = posix_spawn(&pid, tool.path, &actions, nil, argv, environ)
        guard spawned == 0 else { throw InputError("cannot start \(tool.path): \(String(cString: strerror(spawned)))") }
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let seconds = Stopwatch.seconds(since: start)
        // WIFEXITED and WEXITSTATUS, which Swift does not import: exited normally with status 0.
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            throw failure(tool, arguments, status: status & 0x7f == 0 ? (status >> 8) & 0xff : -(status & 0x7f))
        }
        return seconds
    }

    /// An error quoting the command and what it wrote to standard error.
    private func failure(_ tool: URL, _ arguments: [String], status: Int32) -> InputError {
        let message = (try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? ""
        let command = ([tool.lastPathComponent] + arguments).joined(separator: " ")
        let how = status < 0 ? "killed by signal \(-status)" : "status \(status)"
        return InputError("`\(command)` failed (\(how)): " + message.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

/// The lossless codecs Lumatrace is compared with, each run by ffmpeg with one thread.
enum Peer: String, CaseIterable, Sendable {
    /// FFV1 version 3 (intra-only, lossless), in Matroska.
    case ffv1
    /// H.264 lossless (`-qp 0`, preset medium, 4:0:0 gray), in Matroska.
    case x264

    /// The row label in the report.
    var label: String {
        switch self {
        case .ffv1: return "FFV1 -level 3"
        case .x264: return "x264 -qp 0 medium"
        }
    }

    /// The ffmpeg encoder name, as `ffmpeg -encoders` lists it.
    var encoder: String {
        switch self {
        case .ffv1: return "ffv1"
        case .x264: return "libx264"
        }
    }

    /// The encoder's options between the input and the output file.
    private var codecArguments: [String] {
        switch self {
        case .ffv1: return ["-c:v", "ffv1", "-level", "3", "-threads", "1"]
        case .x264: return ["-c:v", "libx264", "-qp", "0", "-preset", "medium", "-pix_fmt", "gray",
                            "-threads", "1", "-x264-params", "threads=1"]
        }
    }

    /// Encodes the input's `.y4m` into `output`; returns the wall-clock seconds of the ffmpeg
    /// process, which include reading the `.y4m` and starting ffmpeg.
    func encode(_ input: BenchInput, to output: String, tools: FFmpegTools) throws -> Double {
        try tools.timed(tools.ffmpeg, ["-v", "error", "-y", "-threads", "1", "-i", input.y4mPath] + codecArguments + [output])
    }

    /// Decodes `file` to ffmpeg's null muxer; returns the wall-clock seconds of the ffmpeg process.
    func decode(_ file: String, tools: FFmpegTools) throws -> Double {
        try tools.timed(tools.ffmpeg, ["-v", "error", "-threads", "1", "-i", file, "-f", "null", "-"])
    }
}
