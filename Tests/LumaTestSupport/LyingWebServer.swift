import Foundation

/// A web server that lies (`Tests/Servers/lying_http_server.py`): it serves one recording with
/// range requests, and the first segment of a URL's path picks the lie — a resource replaced
/// while it is read, a range answer longer than asked, a 10 MiB header, a body at 2 bytes a
/// second, an ETag of terminal escapes, 503 always, a 401 without credentials. What a hostile or
/// broken server does, for the tests of the HTTP reader; it stops by itself after two minutes.
public final class LyingWebServer: @unchecked Sendable {
    public let port: Int
    private let process: RunningProgram

    /// Starts the server on a free loopback port, serving `file`, and returns once it accepts
    /// connections. Fails with the install command when python3 is missing.
    public init(serving file: String) throws {
        port = try WebServer.freePort()
        let script = PackageLayout.root.appendingPathComponent("Tests/Servers/lying_http_server.py").path
        let p = try RunningProgram(try ExternalTool.python3.require(), [script, "\(port)", file, "120"], stdout: .discarded, stderr: .collected)
        process = p
        guard AwaitedEvent.wait(while: { p.isRunning }, until: { WebServer.accepts(self.port) }) else {
            throw WebServer.ServerFailed(description: "the lying server did not start listening (running: \(p.isRunning))")
        }
    }

    deinit { process.stop() }

    /// The URL of the recording told with `lie` (`honest`, `etag_change`, `more`, …; the script's
    /// docstring lists them).
    public func url(_ lie: String, name: String = "clip.luma") -> String { "http://127.0.0.1:\(port)/\(lie)/\(name)" }
}
