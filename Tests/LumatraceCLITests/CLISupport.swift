import Foundation
import Testing

/// Runs the built `lumatrace` binary, as a user would.
enum CLI {
    /// The package root, from this file's location.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared/data` beside the checkout (CI always has it), or `LUMATRACE_SHARED_DATA`.
    static let sharedData: URL? = {
        if let env = ProcessInfo.processInfo.environment["LUMATRACE_SHARED_DATA"] { return URL(fileURLWithPath: env) }
        let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }()

    static let binary: String = {
        let testBundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for dir in [testBundle, testBundle.deletingLastPathComponent(), packageRoot.appendingPathComponent(".build/debug")] {
            let candidate = dir.appendingPathComponent("lumatrace").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return packageRoot.appendingPathComponent(".build/debug/lumatrace").path
    }()

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    @discardableResult
    static func run(_ arguments: [String], stdin: Data? = nil, cwd: String? = nil, environment: [String: String]? = nil) throws -> Result {
        try runTool(binary, arguments, stdin: stdin, cwd: cwd, environment: environment)
    }

    static func runTool(_ tool: String, _ arguments: [String], stdin: Data? = nil, cwd: String? = nil,
                        environment: [String: String]? = nil) throws -> Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = arguments
        if let environment { p.environment = environment }
        if let cwd { p.currentDirectoryURL = URL(fileURLWithPath: cwd) }
        let out = Pipe(), err = Pipe(), input = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = stdin == nil ? FileHandle.nullDevice : input
        try p.run()
        if let stdin {
            DispatchQueue.global().async {
                input.fileHandleForWriting.write(stdin)
                try? input.fileHandleForWriting.close()
            }
        }
        let errorData = Collector(err.fileHandleForReading)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Result(status: p.terminationStatus, stdout: String(decoding: data, as: UTF8.self), stderr: errorData.text())
    }

    static func tool(_ name: String) -> String? {
        for dir in ["/usr/bin", "/usr/local/bin", "/bin"] where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") {
            return "\(dir)/\(name)"
        }
        return nil
    }

    /// The `swift` on PATH (the toolchain that builds generated plugin packages), or `nil`.
    static var swift: String? {
        tool("swift") ?? ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":")
            .map { "\($0)/swift" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func temporaryDirectory() -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lumatrace-cli-\(getpid())-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
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

final class Collector: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)
    init(_ handle: FileHandle) {
        DispatchQueue.global().async {
            self.data = handle.readDataToEndOfFile()
            self.done.signal()
        }
    }
    func text() -> String {
        done.wait()
        return String(decoding: data, as: UTF8.self)
    }
}
