import Foundation
import Testing
import LumaTestSupport

@Suite("Golden event logs of the bundled recordings")
struct GoldenLogTests {
    static let goldens: [String] = {
        let dir = PackageLayout.root.appendingPathComponent("Recordings").path
        return ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [])
            .filter { $0.hasSuffix(".events.jsonl") }.sorted().map { "\(dir)/\($0)" }
    }()

    @Test("there is at least one golden log, and every recording has one")
    func present() throws {
        #expect(!Self.goldens.isEmpty)
        let dir = PackageLayout.root.appendingPathComponent("Recordings").path
        for rec in try FileManager.default.contentsOfDirectory(atPath: dir) where rec.hasSuffix(".luma") {
            #expect(Self.goldens.contains("\(dir)/\(rec.dropLast(5)).events.jsonl"), "\(rec) has no golden log")
        }
    }

    @Test("verify re-runs each golden's header and gets the same bytes (re-record: scripts/update-goldens)", arguments: goldens)
    func verify(_ log: String) throws {
        let r = try CLI.run(["verify", log])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    }
}

@Suite("Synthetic recordings are reproducible")
struct SynthReproducibilityTests {
    /// The bundled recordings are version-1 files (the fixtures that keep version 1 readable).
    @Test("synth with the documented settings regenerates the bundled recordings and truth byte for byte", arguments: ["balls", "tracking"])
    func regenerate(_ scene: String) throws {
        try withScratchFolder("cli") { dir in
            let r = try CLI.run(["synth", scene, "--size", "320x180", "--frames", "90", "--noise", "0.7", "--seed", "7", "--format-version", "1",
                                 "-o", "\(dir)/s.luma", "--truth", "\(dir)/s.truth.json"])
            #expect(r.status == 0, "\(r.stderr)")
            let bundled = PackageLayout.root.appendingPathComponent("Recordings/\(scene)-synth")
            #expect(try Data(contentsOf: URL(fileURLWithPath: "\(dir)/s.luma")) == Data(contentsOf: bundled.appendingPathExtension("luma")))
            #expect(try Data(contentsOf: URL(fileURLWithPath: "\(dir)/s.truth.json")) == Data(contentsOf: URL(fileURLWithPath: bundled.path + ".truth.json")))
        }
    }
}

@Suite("verify notices a changed replay")
struct VerifyDetectsChangeTests {
    @Test("a log whose header asks for other settings than its events were made with fails verify at the first differing line")
    func changedSettings() throws {
        try CLI.withRecording(width: 32, height: 24, count: 12) { dir in
            try CLI.run(["replay", "r.luma", "--analyzer", "differencing", "-o", "log.jsonl"], cwd: dir)
            let path = "\(dir)/log.jsonl"
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.contains("\"threshold\":25"))
            try text.replacingOccurrences(of: "\"threshold\":25", with: "\"threshold\":3").write(toFile: path, atomically: true, encoding: .utf8)
            let r = try CLI.run(["verify", "log.jsonl"], cwd: dir)
            #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
            #expect(r.stdout.contains("differs at line 2"))  // same header; the first event already differs
            #expect(r.stdout.contains("golden:") && r.stdout.contains("now:"))
        }
    }
}
