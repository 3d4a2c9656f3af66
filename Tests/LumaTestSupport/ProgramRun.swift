import Foundation
import LumaRecording

/// What a finished program said: its exit status and everything it wrote.
public typealias ProgramResult = Tools.Run

/// Runs programs the way a user's shell would, collecting their output: `lumatrace` itself,
/// ffmpeg, Python plugins.
public enum ProgramRun {
    /// Runs `program` (a path, or a name looked up on `PATH`) with `arguments`, feeding it `stdin`
    /// (none: `/dev/null`), and waits for it to exit.
    @discardableResult
    public static func run(_ program: String, _ arguments: [String], stdin: Data? = nil, cwd: String? = nil,
                           environment: [String: String]? = nil) throws -> ProgramResult {
        let path = program.contains("/") ? program : try ExternalTool(program, install: "put \(program) on PATH").require()
        return try Tools.run(path, arguments, input: stdin, workingDirectory: cwd, environment: environment)
    }
}
