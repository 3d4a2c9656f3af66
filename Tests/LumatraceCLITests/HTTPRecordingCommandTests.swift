import Foundation
import LumaTestSupport
import Testing

/// The commands that read a recording take an http(s) URL as they take a path: the same output,
/// byte for byte, from a real nginx on loopback.
@Suite("Commands on a recording served over HTTP")
struct HTTPRecordingCommandTests {
    @Test("replay, info, export and verify give over HTTP what they give on the file")
    func sameAsLocal() throws {
        try withScratchFolder("served") { folder in
            try FileManager.default.copyItem(atPath: PackageLayout.recordings.appendingPathComponent("balls-synth.luma").path,
                                             toPath: folder + "/balls-synth.luma")
            let server = try WebServer(serving: folder)
            let url = server.url("balls-synth.luma"), local = folder + "/balls-synth.luma"
            try withScratchFolder("logs") { out in
                let remote = try CLI.run(["replay", url, "--analyzer", "differencing", "--analyzer", "trajectory", "-o", out + "/remote.events.jsonl"])
                let here = try CLI.run(["replay", local, "--analyzer", "differencing", "--analyzer", "trajectory", "-o", out + "/local.events.jsonl"])
                #expect(remote.status == 0 && here.status == 0, "\(remote.stderr)")
                #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/remote.events.jsonl")) == Data(contentsOf: URL(fileURLWithPath: out + "/local.events.jsonl")))

                let info = try CLI.run(["info", url, "--json"]), localInfo = try CLI.run(["info", local, "--json"])
                #expect(info.status == 0)
                #expect(info.stdout.replacingOccurrences(of: url, with: local) == localInfo.stdout)

                #expect(try CLI.run(["export", url, "--format", "y4m", "-o", out + "/remote.y4m"]).status == 0)
                #expect(try CLI.run(["export", local, "--format", "y4m", "-o", out + "/local.y4m"]).status == 0)
                #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/remote.y4m")) == Data(contentsOf: URL(fileURLWithPath: out + "/local.y4m")))

                let verified = try CLI.run(["verify", PackageLayout.recordings.appendingPathComponent("balls-synth.events.jsonl").path, "--recording", url])
                #expect(verified.status == 0, "\(verified.stderr)")
                #expect(verified.stdout.contains("verified, 218 events byte-identical"))
            }
        }
    }

    @Test("regress finds the goldens' recordings under a URL: a corpus of logs here, recordings on a server")
    func regressOverHTTP() throws {
        try withScratchFolder("served") { served in try withScratchFolder("corpus") { corpus in
            let bundled = try FileManager.default.contentsOfDirectory(atPath: PackageLayout.recordings.path)
            for name in bundled {
                let destination = name.hasSuffix(".luma") ? served : corpus
                guard name.hasSuffix(".luma") || name.hasSuffix(".events.jsonl") || name.hasSuffix(".truth.json") else { continue }
                try FileManager.default.copyItem(atPath: PackageLayout.recordings.appendingPathComponent(name).path, toPath: destination + "/" + name)
            }
            let server = try WebServer(serving: served)
            let result = try CLI.run(["regress", corpus, "--recordings", server.url(""), "--jobs", "1"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("3 recordings: 3 unchanged"), "\(result.stdout)")
            // Without it, the recordings are looked for beside the goldens, and are not there.
            let local = try CLI.run(["regress", corpus, "--jobs", "1"])
            #expect(local.status != 0)
        } }
    }

    @Test("a missing URL is one line naming it, and a non-zero exit")
    func missing() throws {
        try withScratchFolder("served") { served in
            let server = try WebServer(serving: served)
            let result = try CLI.run(["info", server.url("nope.luma")])
            #expect(result.status != 0)
            #expect(result.stderr == "lumatrace: error: \(server.url("nope.luma")): HTTP 404 Not Found\n")
        }
    }

    @Test("a URL's password and signature appear in no output and no file, through every command that takes a URL")
    func secretsKept() throws {
        try withScratchFolder("served") { served in try withScratchFolder("corpus") { corpus in try withScratchFolder("out") { out in
            for name in ["balls-synth.luma", "toss-real.luma"] {
                try FileManager.default.copyItem(atPath: PackageLayout.recordings.appendingPathComponent(name).path, toPath: served + "/" + name)
            }
            for name in ["balls-synth.events.jsonl", "balls-synth.truth.json", "toss-real.events.jsonl"] {
                try FileManager.default.copyItem(atPath: PackageLayout.recordings.appendingPathComponent(name).path, toPath: corpus + "/" + name)
            }
            // A golden whose recording the server does not have: its error line names the URL.
            try FileManager.default.copyItem(atPath: PackageLayout.recordings.appendingPathComponent("tracking-synth.events.jsonl").path,
                                             toPath: corpus + "/tracking-synth.events.jsonl")
            let server = try WebServer(serving: served)
            let liar = try LyingWebServer(serving: served + "/toss-real.luma")
            func secret(_ url: String) -> String {
                url.replacingOccurrences(of: "http://", with: "http://alice:S3CRETPW@") + "?X-Amz-Signature=SIGSECRET#FRAGSECRET"
            }
            let url = secret(server.url("balls-synth.luma")), log = corpus + "/balls-synth.events.jsonl"
            let runs: [[String]] = [
                ["info", url], ["info", url, "--json"], ["info", secret(server.url("missing.luma"))], ["info", secret(liar.url("st503"))],
                ["replay", url, "--analyzer", "differencing", "-o", out + "/replayed.events.jsonl"],
                ["replay", url, "--analyzer", "differencing", "-o", "-"],
                ["export", url, "--format", "y4m", "--to", "3", "-o", out + "/frames.y4m"],
                ["report", url, "--events", log, "-o", out + "/report.html"],
                ["render", url, "--events", log, "-o", out + "/sheet.png"],
                ["verify", log, "--recording", url],
                ["diff", log, log, "--recording", url],
                ["truth", "check", corpus + "/balls-synth.truth.json", "--recording", url],
                ["regress", corpus, "--recordings", secret(server.url("")), "--jobs", "1", "--junit", out + "/junit.xml"],
                ["regress", corpus, "--recordings", secret(server.url("")), "--jobs", "1", "--json"],
                ["regress", corpus, "--recordings", secret(server.url("")), "--jobs", "1", "--junit", "-"],
            ]
            for arguments in runs {
                let r = try CLI.run(arguments)
                for secret in ["S3CRETPW", "SIGSECRET", "FRAGSECRET"] {
                    #expect(!r.stdout.contains(secret) && !r.stderr.contains(secret), "\(arguments): \(r.stdout)\(r.stderr)")
                }
            }
            let written = try FileManager.default.contentsOfDirectory(atPath: out)
            #expect(written.sorted() == ["frames.y4m", "junit.xml", "replayed.events.jsonl", "report.html", "sheet.png"], "\(written)")
            for name in written {
                let bytes = try Data(contentsOf: URL(fileURLWithPath: out + "/" + name))
                for secret in ["S3CRETPW", "SIGSECRET", "FRAGSECRET"] { #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(name) holds \(secret)") }
            }
            // What is shown instead: the URL without its password, the query as ?….
            let info = try CLI.run(["info", url])
            #expect(info.stdout.hasPrefix(server.url("balls-synth.luma") + "?…\n"), "\(info.stdout)")
        } } }
    }

    @Test("regress joins each recording's name to a URL's path, before its query (a presigned folder)")
    func regressURLWithQuery() throws {
        try withScratchFolder("served") { served in try withScratchFolder("corpus") { corpus in
            try FileManager.default.copyItem(atPath: PackageLayout.recordings.appendingPathComponent("toss-real.luma").path, toPath: served + "/toss-real.luma")
            try FileManager.default.copyItem(atPath: PackageLayout.recordings.appendingPathComponent("toss-real.events.jsonl").path,
                                             toPath: corpus + "/toss-real.events.jsonl")
            let server = try WebServer(serving: served)
            let result = try CLI.run(["regress", corpus, "--recordings", server.url("?sig=SIGQ"), "--jobs", "1"])
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("1 recording: 1 unchanged"), "\(result.stdout)")
        } }
    }
}
