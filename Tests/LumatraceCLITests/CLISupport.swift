import Foundation
import LumaTestSupport
import Testing

/// Runs the built `lumatrace` binary, as a user would.
enum CLI {
    /// A step a test needed that did not work.
    struct Failure: Error, CustomStringConvertible { var description: String }

    static let binary: String = {
        let testBundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for dir in [testBundle, testBundle.deletingLastPathComponent(), PackageLayout.root.appendingPathComponent(".build/debug")] {
            let candidate = dir.appendingPathComponent("lumatrace").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return PackageLayout.root.appendingPathComponent(".build/debug/lumatrace").path
    }()

    /// Runs `lumatrace arguments` to its end.
    @discardableResult
    static func run(_ arguments: [String], stdin: Data? = nil, cwd: String? = nil, environment: [String: String]? = nil,
                    patience: TimeInterval = ProgramRun.patience) throws -> ProgramResult {
        try ProgramRun.run(binary, arguments, stdin: stdin, cwd: cwd, environment: environment, patience: patience)
    }

    /// Starts `lumatrace arguments`, for a test that drives it while it runs (signals it on an
    /// event, feeds its input, watches its output) and then waits for it.
    static func start(_ arguments: [String], stdin: RunningProgram.Input = .nothing, stdout: RunningProgram.Output = .discarded,
                      stderr: RunningProgram.Output = .collected, cwd: String? = nil, environment: [String: String]? = nil) throws -> RunningProgram {
        try RunningProgram(binary, arguments, stdin: stdin, stdout: stdout, stderr: stderr, cwd: cwd, environment: environment)
    }

    /// Writes a synthetic recording to `path`: `lumatrace synth scene` with `frames` frames of `size`
    /// from `seed`; a failed synth is a ``Failure`` with its message. Returns `path`.
    @discardableResult
    static func synth(_ scene: String, to path: String, size: String = "320x180", frames: Int, seed: Int = 1) throws -> String {
        let synth = try run(["synth", scene, "--size", size, "--frames", "\(frames)", "--seed", "\(seed)", "-o", path])
        guard synth.status == 0 else { throw Failure(description: "lumatrace synth failed: \(synth.stderr)") }
        return path
    }

    /// Runs `body` in a scratch folder holding `in.y4m` (``y4m(width:height:count:rate:colorspace:chroma:)``)
    /// and `r.luma`, recorded from it by `lumatrace record` with `options`.
    static func withRecording<T>(width: Int, height: Int, count: Int, options: [String] = [], _ body: (String) throws -> T) throws -> T {
        try withScratchFolder("cli") { dir in
            try y4m(width: width, height: height, count: count).stream.write(to: URL(fileURLWithPath: "\(dir)/in.y4m"))
            let record = try run(["record", "in.y4m", "-o", "r.luma"] + options, cwd: dir)
            guard record.status == 0 else { throw Failure(description: "lumatrace record failed: \(record.stderr)") }
            return try body(dir)
        }
    }

    /// A Y4M stream of `count` frames of a moving gradient, any layout.
    static func y4m(width: Int, height: Int, count: Int, rate: String = "30:1", colorspace: String = "mono", chroma: Int = 0) -> (stream: Data, frames: [[UInt8]]) {
        var bytes = Array("YUV4MPEG2 W\(width) H\(height) F\(rate) Ip A1:1 C\(colorspace)\n".utf8)
        var frames: [[UInt8]] = []
        for i in 0..<count {
            var f = [UInt8](repeating: 0, count: width * height)
            for y in 0..<height { for x in 0..<width { f[y * width + x] = UInt8(truncatingIfNeeded: x * 3 + y * 5 + i * 7 + (x * y) % 11) } }
            frames.append(f)
            bytes += Array("FRAME\n".utf8) + f + [UInt8](repeating: 128, count: chroma)
        }
        return (Data(bytes), frames)
    }
}
