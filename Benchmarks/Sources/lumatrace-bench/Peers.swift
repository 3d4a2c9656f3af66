import Foundation

/// ffmpeg and ffprobe, found on `PATH`, and a way to run them.
struct FFmpegTools {
    let ffmpeg: URL
    let ffprobe: URL
    /// Where each run's standard error goes (read back only when the run fails).
    let errorLog: String

    /// Finds both tools and checks that this ffmpeg has the two peer encoders.
    static func locate(scratch: String) throws -> FFmpegTools {
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
        let encoders = String(decoding: try tools.run(tools.ffmpeg, ["-hide_banner", "-encoders"]), as: UTF8.self)
        for peer in Peer.allCases where !encoders.contains(" \(peer.encoder) ") {
            throw InputError("\(tools.ffmpeg.path) has no \(peer.encoder) encoder; install a full ffmpeg build "
                             + "(Debian: `sudo apt-get install ffmpeg`).")
        }
        return tools
    }

    /// Runs `tool` to completion and returns its standard output; throws with its standard error
    /// when it exits with a failure.
    @discardableResult
    func run(_ tool: URL, _ arguments: [String]) throws -> Data {
        let process = Process()
        let output = Pipe()
        process.standardOutput = output
        return try launch(process, tool, arguments) { output.fileHandleForReading.readDataToEndOfFile() }
    }

    /// Runs `tool` to completion with its output discarded and returns the wall-clock seconds from
    /// launch to exit (process start-up included).
    func timed(_ tool: URL, _ arguments: [String]) throws -> Double {
        let process = Process()
        process.standardOutput = FileHandle.nullDevice
        var seconds = 0.0
        try launch(process, tool, arguments) { seconds = Stopwatch.seconds { process.waitUntilExit() } }
        return seconds
    }

    /// Starts `process`, runs `whileRunning` (which may read its output), waits for the exit and
    /// checks the status. Standard error goes to `errorLog`, so a chatty tool never blocks on a pipe.
    private func launch<T>(_ process: Process, _ tool: URL, _ arguments: [String], whileRunning: () throws -> T) throws -> T {
        FileManager.default.createFile(atPath: errorLog, contents: nil)
        guard let errors = FileHandle(forWritingAtPath: errorLog) else { throw InputError("cannot create \(errorLog)") }
        defer { try? errors.close() }
        process.executableURL = tool
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardError = errors
        do { try process.run() } catch { throw InputError("cannot start \(tool.path): \(error)") }
        let result = try whileRunning()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let message = (try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? ""
            let command = ([tool.lastPathComponent] + arguments).joined(separator: " ")
            throw InputError("`\(command)` failed (status \(process.terminationStatus)): "
                             + message.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return result
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
