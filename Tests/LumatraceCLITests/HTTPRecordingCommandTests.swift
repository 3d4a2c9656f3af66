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
                #expect(verified.stdout.contains("verified, 223 events byte-identical"))
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
}
