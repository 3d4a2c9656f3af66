import Foundation
import LumaTestSupport
import Testing

/// Recordings over HTTP from a server that lies (``LyingWebServer``): each lie ends in one line
/// saying what happened — never "no readable frames", never damage, never a raw terminal escape
/// — and a non-zero exit, in bounded memory and time.
@Suite("A lying web server: one line saying what happened")
struct LyingServerTests {
    static let recording = PackageLayout.recordings.appendingPathComponent("toss-real.luma").path

    struct Case: CustomStringConvertible {
        var arguments: [String]
        var message: String
        var environment: [String: String] = [:]
        var description: String { arguments.joined(separator: " ") }
    }

    @Test("a resource replaced, a range answer too long, a huge header, a trickle: each named, exit 2")
    func lies() throws {
        let server = try LyingWebServer(serving: Self.recording)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: Self.recording)[.size] as? Int)
        try withScratchFolder("lies") { dir in
            let cases = [
                Case(arguments: ["info", server.url("etag_change")], message: "changed while being read: its ETag was \"v1\", now \"v2\""),
                Case(arguments: ["replay", server.url("etag_change"), "-o", dir + "/a.jsonl"], message: "changed while being read: its ETag was"),
                Case(arguments: ["export", server.url("etag_change"), "--format", "y4m", "-o", dir + "/a.y4m"], message: "changed while being read: its ETag was"),
                Case(arguments: ["info", server.url("len_change")], message: "changed while being read: it was \(size) bytes, now \(size + 1)"),
                Case(arguments: ["info", server.url("more")], message: "the server sent more than the 4096 bytes asked for"),
                Case(arguments: ["info", server.url("bighdr")], message: "a header line over libcurl's 100 KB limit"),
                Case(arguments: ["info", server.url("wrongcr")], message: "the server answered with bytes from 1 when asked for bytes from 0"),
                Case(arguments: ["info", server.url("honest")], message: "LUMATRACE_HTTP_TIMEOUT=0 is not a number of seconds from 1 to 86400",
                     environment: ["LUMATRACE_HTTP_TIMEOUT": "0"]),
                Case(arguments: ["info", server.url("slowloris")], message: "(a request may take at most 1 s",
                     environment: ["LUMATRACE_HTTP_TIMEOUT": "1"]),
            ]
            for c in cases {
                let environment = ProcessInfo.processInfo.environment.merging(c.environment) { $1 }
                let r = try CLI.run(c.arguments, environment: environment)
                #expect(r.status == 2, "\(c): \(r.stderr)")
                let last = r.stderr.split(separator: "\n").last.map(String.init) ?? ""
                #expect(last.hasPrefix("lumatrace: error: \(c.arguments[1]): ") && last.contains(c.message), "\(c): \(r.stderr)")
                #expect(!r.stderr.contains("no readable frames") && !r.stdout.contains("damage"), "\(c): \(r.stdout)\(r.stderr)")
            }
            // Nothing is left where the outputs would have gone.
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
        }
    }

    @Test("a server's ETag of terminal escapes is printed escaped, never raw")
    func escapes() throws {
        let server = try LyingWebServer(serving: Self.recording)
        let r = try CLI.run(["info", server.url("etag_esc")])
        #expect(r.status == 2)
        #expect(!(r.stdout + r.stderr).contains("\u{1B}") && !(r.stdout + r.stderr).contains("\u{7}"), "\(r.stderr)")
        #expect(r.stderr.contains("\\u{1B}]0;PWNED\\u{7}"), "\(r.stderr)")
    }
}
