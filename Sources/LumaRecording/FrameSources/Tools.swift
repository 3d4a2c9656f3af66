import Foundation

/// Finding and running the external programs recording needs (ffmpeg, ffprobe).
public enum Tools {
    /// The full path of `tool` on PATH, or an error that says how to install it.
    public static func require(_ tool: String, for purpose: String = "to read video files",
                               otherwise: String = "or convert the video to Y4M elsewhere and record that") throws -> String {
        if let found = find(tool) { return found }
        throw RecordingInputError.toolMissing(tool: tool, purpose: purpose, otherwise: otherwise)
    }

    /// The full path of the first `tool` on PATH, or `nil`.
    public static func find(_ tool: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// What a finished program said: its exit status and everything it wrote.
    public typealias Run = (status: Int32, stdout: String, stderr: String)

    /// Runs `executable` to completion with `arguments`, reading `input` bytes or the file
    /// `standardInput` (neither: `/dev/null`), in `workingDirectory` (default: this process's) with
    /// `environment` (default: this process's), and returns its status and outputs.
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String], input: Data? = nil, standardInput: FileHandle? = nil,
                           workingDirectory: String? = nil, environment: [String: String]? = nil) throws -> Run {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        if let environment { p.environment = environment }
        if let workingDirectory { p.currentDirectoryURL = URL(fileURLWithPath: workingDirectory) }
        let out = Pipe(), err = Pipe(), inputPipe = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = input == nil ? standardInput ?? FileHandle.nullDevice : inputPipe
        try p.run()
        if let input {
            DispatchQueue.global().async {
                inputPipe.fileHandleForWriting.write(input)
                try? inputPipe.fileHandleForWriting.close()
            }
        }
        // Read both pipes concurrently so a chatty program cannot deadlock on a full pipe.
        let errors = PipeDrain(err.fileHandleForReading)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self), errors.text())
    }
}

/// Reads a pipe to its end on a background thread.
public final class PipeDrain: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    public init(_ handle: FileHandle) {
        DispatchQueue.global().async {
            self.data = handle.readDataToEndOfFile()
            self.done.signal()
        }
    }

    /// Everything the pipe carried, once its writer has closed it.
    public func text() -> String {
        done.wait()
        return String(decoding: data, as: UTF8.self)
    }
}
