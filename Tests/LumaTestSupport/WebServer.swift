import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real web server (nginx from Debian's packages) serving one folder on a loopback port, for the
/// tests that read recordings over HTTP. It is started by the test and stopped with it; `stop()`
/// and `start()` again (same port, same folder) let a test take it away under a reader.
public final class WebServer: @unchecked Sendable {
    /// The folder served: `http://127.0.0.1:PORT/NAME` is `folder/NAME`.
    public let folder: String
    public let port: Int
    /// nginx's own folder (configuration, logs, temporary files), removed with the server.
    private let home: ScratchFolder
    private var process: RunningProgram?
    /// Extra lines for the `server` block (e.g. `max_ranges 0;`).
    private let settings: String

    /// Starts nginx serving `folder`. Fails with the install command when nginx is missing.
    public init(serving folder: String, settings: String = "") throws {
        self.folder = folder
        self.settings = settings
        home = ScratchFolder("nginx")
        port = try WebServer.freePort()
        try start()
    }

    deinit { stop() }  // then `home` goes

    /// The URL of a file of the folder.
    public func url(_ name: String) -> String { "http://127.0.0.1:\(port)/\(name)" }

    /// Bytes of response bodies nginx has sent, from its access log (`$body_bytes_sent` per
    /// request), and the number of requests.
    public func bodyBytesSent() throws -> (bytes: Int, requests: Int) {
        let log = (try? String(contentsOfFile: home.path + "/access.log", encoding: .utf8)) ?? ""
        let values = log.split(separator: "\n").compactMap { Int($0.split(separator: " ").last ?? "") }
        return (values.reduce(0, +), values.count)
    }

    /// Starts (or starts again) the server and returns once it accepts connections.
    public func start() throws {
        let nginx = try ExternalTool.nginx.require()
        let home = self.home.path
        let config = """
            daemon off;
            master_process off;
            worker_processes 1;
            pid \(home)/nginx.pid;
            error_log \(home)/error.log;
            events { worker_connections 64; }
            http {
              log_format body '$status $body_bytes_sent';
              access_log \(home)/access.log body;
              client_body_temp_path \(home)/body;
              proxy_temp_path \(home)/proxy;
              fastcgi_temp_path \(home)/fastcgi;
              uwsgi_temp_path \(home)/uwsgi;
              scgi_temp_path \(home)/scgi;
              server {
                listen 127.0.0.1:\(port);
                root \(folder);
                \(settings)
              }
            }
            """
        try config.write(toFile: home + "/nginx.conf", atomically: true, encoding: .utf8)
        let p = try RunningProgram(nginx, ["-p", home, "-c", home + "/nginx.conf", "-e", home + "/error.log"], stdout: .discarded, stderr: .discarded)
        process = p
        // Ready when it accepts a connection, unless nginx exits first.
        guard AwaitedEvent.wait(while: { p.isRunning }, until: { WebServer.accepts(port) }) else {
            let log = (try? String(contentsOfFile: home + "/error.log", encoding: .utf8)) ?? ""
            throw ServerFailed(description: "nginx did not start listening (running: \(p.isRunning)): \(log.suffix(600))")
        }
    }

    /// Stops the server and waits until it has exited (its port then refuses connections). nginx
    /// without a master process blocks SIGTERM in its event loop, so it is killed: a test server
    /// has nothing to save.
    public func stop() {
        process?.stop()
        process = nil
    }

    public struct ServerFailed: Error, CustomStringConvertible { public var description: String }

    static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    /// A port nothing listens on now: the kernel's choice for a socket bound to port 0.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        guard bound == 0, withUnsafeMutablePointer(to: &address, {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }) == 0 else { throw ServerFailed(description: "no free loopback port: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
