import Foundation

/// The project's Python: `.venv/bin/python` at the package root, which `scripts/install-dependencies --for-tests`
/// makes, with numpy and the `lumatrace` package (`python/`). Analyzers written with
/// `lumatrace.analyzer` (Plugins/BrightnessHistogram, what `new-analyzer --language python` makes)
/// run with it. A test that needs it fails with the command that makes it, never skips.
public enum ProjectPython {
    /// Where it is, whether or not it exists.
    public static let path = PackageLayout.root.appendingPathComponent(".venv/bin/python").path

    /// Its path, or an error that says how to make it.
    public static func require() throws -> String {
        if let problem { throw Missing(description: problem) }
        return path
    }

    /// The environment of a shell in which the venv is activated (`source .venv/bin/activate`):
    /// `python3` on `PATH` is the venv's, so a command can name it the way users type it.
    public static func activatedEnvironment() throws -> [String: String] {
        let bin = URL(fileURLWithPath: try require()).deletingLastPathComponent().path
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = bin + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["VIRTUAL_ENV"] = URL(fileURLWithPath: bin).deletingLastPathComponent().path
        return environment
    }

    /// Why it cannot run an analyzer, checked once per test process; nil when it can.
    static let problem: String? = {
        let make = "run scripts/install-dependencies --for-tests (it makes .venv with numpy and the lumatrace package of python/)"
        guard FileManager.default.isExecutableFile(atPath: path) else { return "\(path) is missing: \(make)" }
        guard let check = try? ProgramRun.run(path, ["-c", "import numpy, lumatrace.analyzer"]), check.status == 0 else {
            return "\(path) cannot import numpy and lumatrace.analyzer: \(make)"
        }
        return nil
    }()

    /// The project's Python is missing or incomplete; the description says how to make it.
    public struct Missing: Error, CustomStringConvertible {
        public var description: String
    }
}
