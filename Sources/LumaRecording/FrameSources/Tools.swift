import Foundation
import LumaProcess

/// Finding and running the programs recording needs (ffmpeg, ffprobe), through LumaProcess.
public enum Tools {
    /// How to install ffmpeg and ffprobe: one Debian package holds both.
    public static let install = "`sudo apt-get install ffmpeg` (Debian/Ubuntu)"

    /// The full path of `tool` on PATH, or `ProgramError.toolMissing` (LumaProcess), which says what it is
    /// needed `for` and how to install it, or what to do `otherwise`.
    public static func require(_ tool: String, for purpose: String = "to read video files",
                               otherwise: String = "or convert the video to Y4M elsewhere and record that") throws(ProgramError) -> String {
        try Tool(tool, purpose: purpose, install: install, otherwise: otherwise).path()
    }

    /// What a finished program said: its exit status (or the number of the signal that ended it)
    /// and everything it wrote.
    public typealias Run = (status: Int32, stdout: String, stderr: String)

    /// Runs `executable` (a path, or a name on PATH) to completion with `arguments`, reading `input`
    /// bytes or the file `standardInput` (neither: `/dev/null`), in `workingDirectory` (default: this
    /// process's) with `environment` (default: this process's), in a process group of its own, and
    /// returns its status and outputs.
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String], input: Data? = nil, standardInput: FileHandle? = nil,
                           workingDirectory: String? = nil, environment: [String: String]? = nil) throws(ProgramError) -> Run {
        var program = Program(executable, arguments, environment: environment, workingDirectory: workingDirectory)
        program.standardInput = standardInput.map { .fileDescriptor($0.fileDescriptor) } ?? .null
        program.ownProcessGroup = true
        let output = try program.run(input: input.map { Array($0) })
        let status: Int32 = switch output.termination {
        case .exited(let code): code
        case .signalled(let signal): signal
        }
        return (status, output.standardOutputText, output.standardErrorText)
    }
}
