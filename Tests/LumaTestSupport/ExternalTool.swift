import Foundation
import LumaProcess

/// A program from Debian's packages that some tests drive (ffmpeg as the reference decoder,
/// chromium to look at a report, …). A test that needs one either fails with the command that
/// installs it (`try ExternalTool.ffmpeg.require()`) or is a skip the test runner reports
/// (`.enabled(if: ExternalTool.ffmpeg.isInstalled, …)`); never a silent early return.
public struct ExternalTool: Sendable, CustomStringConvertible {
    /// The program's name, as typed in a shell.
    public var name: String
    /// How to get it.
    public var install: String

    public init(_ name: String, install: String) {
        self.name = name
        self.install = install
    }

    /// A program from the Debian package `package`, which `scripts/install-dependencies --for-tests` installs.
    public init(_ name: String, debianPackage package: String) {
        self.init(name, install: "apt-get install \(package) (or scripts/install-dependencies --for-tests)")
    }

    public static let ffmpeg = ExternalTool("ffmpeg", debianPackage: "ffmpeg")
    public static let ffprobe = ExternalTool("ffprobe", debianPackage: "ffmpeg")
    public static let chromium = ExternalTool("chromium", debianPackage: "chromium")
    public static let python3 = ExternalTool("python3", debianPackage: "python3")
    public static let script = ExternalTool("script", debianPackage: "util-linux")
    /// The web server that serves recordings over loopback HTTP (``WebServer``).
    public static let nginx = ExternalTool("nginx", debianPackage: "nginx")
    /// Version control, for the tests that make a tagged release of the checkout.
    public static let git = ExternalTool("git", debianPackage: "git")
    /// The toolchain that builds the packages `lumatrace new-analyzer` generates.
    public static let swift = ExternalTool("swift", install: "put the Swift toolchain's bin folder on PATH")

    /// Where the program is: the first on `PATH`, as a shell would find it (LumaProcess's one
    /// search), else in the system folders.
    /// None in the fast unit set (``TestLevel``), which runs no external program.
    public var path: String? {
        guard !TestLevel.isFast else { return nil }
        return Tool.find(name, thenIn: ["/usr/bin", "/usr/local/bin", "/bin", "/usr/sbin"])
    }

    public var isInstalled: Bool { path != nil }

    /// The path of the program, or an error that says how to install it.
    public func require() throws -> String {
        guard let path else { throw Missing(tool: self) }
        return path
    }

    public var description: String {
        TestLevel.isFast ? "\(name) is not run by scripts/test --fast: gate this test with .enabled(if: ExternalTool.\(name).isInstalled, …) or .externalPrograms"
            : "\(name) is not installed: \(install)"
    }

    /// A needed program is not installed; the description is the install command.
    public struct Missing: Error, CustomStringConvertible {
        public var tool: ExternalTool
        public var description: String { tool.description }
    }
}
