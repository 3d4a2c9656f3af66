import Foundation
import Testing
import LumaTestSupport

/// `diff`, `score`, `regress` and `truth` as a user runs them.
@Suite("Regression commands: diff, score, regress, truth")
struct RegressionCommandTests {
    static let recordings = PackageLayout.root.appendingPathComponent("Recordings")

    /// Runs `body` with a scratch folder holding a copy of the bundled recordings (all, or those
    /// named) with their goldens and truth.
    func withCopyOfRecordings<T>(_ names: [String]? = nil, _ body: (String) throws -> T) throws -> T {
        try withScratchFolder("cli") { folder in
            for file in try FileManager.default.contentsOfDirectory(atPath: Self.recordings.path) where !file.hasPrefix(".") {
                let stem = String(file.prefix { $0 != "." })
                guard names?.contains(stem) ?? true, file != "README.md" else { continue }
                try FileManager.default.copyItem(atPath: Self.recordings.appendingPathComponent(file).path, toPath: folder + "/" + file)
            }
            return try body(folder)
        }
    }

    @Test("regress over the bundled recordings passes: every golden re-runs identically")
    func regressPasses() throws {
        try withCopyOfRecordings { folder in
            let r = try CLI.run(["regress", folder])
            #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
            #expect(r.stdout.contains("3 recordings: 3 unchanged, 0 changed"))
            for name in ["balls-synth", "toss-real", "tracking-synth"] {
                #expect(r.stdout.contains("\(name).events.jsonl"))
            }
            // Nothing left behind in the folder.
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).allSatisfy { !$0.hasPrefix(".") })
        }
    }

    @Test("a changed trajectory option fails regress with a table of score changes and the differences")
    func regressFailsOnChange() throws {
        try withCopyOfRecordings(["balls-synth", "toss-real"]) { folder in
            let r = try CLI.run(["regress", folder, "--set", "trajectory.trajectoryLength=15"])
            #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
            let lines = r.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first?.hasPrefix("recording") == true && lines.first?.contains("trajectory F1") == true)
            let balls = try #require(lines.first { $0.hasPrefix("balls-synth.events.jsonl") })
            #expect(balls.contains("218 → 169") && balls.contains("1.000 → 0.900 (-0.100)"))
            #expect(lines.contains("    trajectory.trajectoryLength: 10 → 15"))
            #expect(lines.contains { $0.contains("lost") && $0.contains("trajectory") && $0.contains("80…89") })
            #expect(lines.last == "2 recordings: 0 unchanged, 2 changed (1 scoring worse)")
        }
    }

    @Test("regress output is byte-identical with --jobs 1 and --jobs 3")
    func regressDeterministic() throws {
        try withCopyOfRecordings(["balls-synth", "toss-real"]) { folder in
            let one = try CLI.run(["regress", folder, "--jobs", "1", "--set", "trajectory.trajectoryLength=12"])
            let three = try CLI.run(["regress", folder, "--jobs", "3", "--set", "trajectory.trajectoryLength=12"])
            #expect(one.status == 1 && three.status == 1)
            #expect(one.stdout == three.stdout)
            let json1 = try CLI.run(["regress", folder, "--jobs", "1", "--json"]), json3 = try CLI.run(["regress", folder, "--jobs", "3", "--json"])
            #expect(json1.stdout == json3.stdout && json1.stdout.hasPrefix("{\"folder\":"))
        }
    }

    @Test("regress --update rewrites the goldens that changed, lists them, and then regress passes")
    func regressUpdate() throws {
        try withCopyOfRecordings(["balls-synth", "toss-real"]) { folder in
            let u = try CLI.run(["regress", folder, "--update", "--set", "differencing.threshold=40"])
            #expect(u.status == 0, "\(u.stdout)\(u.stderr)")
            #expect(u.stdout.contains("updated: balls-synth.events.jsonl, toss-real.events.jsonl"))
            let again = try CLI.run(["regress", folder])
            #expect(again.status == 0, "\(again.stdout)")
            #expect(try String(contentsOfFile: folder + "/balls-synth.events.jsonl", encoding: .utf8).contains("\"threshold\":40"))
        }
    }

    @Test("with --tolerance, scores decide: a change that keeps them passes, a drop beyond the tolerance fails naming it")
    func regressScoreTolerance() throws {
        try withCopyOfRecordings(["balls-synth"]) { folder in
            // Another differencing threshold changes the log but no trajectory score.
            let strict = try CLI.run(["regress", folder, "--set", "differencing.threshold=40"])
            #expect(strict.status == 1, "\(strict.stdout)")
            let tolerant = try CLI.run(["regress", folder, "--set", "differencing.threshold=40", "--tolerance", "f1=0.01"])
            #expect(tolerant.status == 0, "\(tolerant.stdout)\(tolerant.stderr)")
            #expect(!tolerant.stdout.contains("worse"))
            // A longer minimum trajectory drops F1 by 0.100: beyond 0.01, within 0.15 (and recall by 0.182, within 0.2).
            let drop = try CLI.run(["regress", folder, "--set", "trajectory.trajectoryLength=15", "--tolerance", "f1=0.01"])
            #expect(drop.status == 1)
            #expect(drop.stdout.contains("  worse: trajectory F1 1.000 → 0.900 (tolerance 0.010)"), "\(drop.stdout)")
            let json = try CLI.run(["regress", folder, "--set", "trajectory.trajectoryLength=15", "--tolerance", "f1=0.15",
                                    "--tolerance", "recall=0.2", "--tolerance", "precision=1", "--tolerance", "point-error=5", "--json"])
            #expect(json.status == 0, "\(json.stdout)")
            #expect(json.stdout.contains("\"passed\":true") && json.stdout.contains("\"worse\":[]"))
            for bad in ["f2=0.1", "f1=-0.1", "f1=2", "f1"] {
                let r = try CLI.run(["regress", folder, "--tolerance", bad])
                #expect(r.status == 64 && r.stderr.contains("--tolerance \(bad)"), "\(bad): \(r.stderr)")
            }
        }
    }

    @Test("regress --update keeps a golden whose new log scores worse, unless --accept-worse")
    func regressUpdateRefusesWorse() throws {
        try withCopyOfRecordings(["balls-synth"]) { folder in
            let golden = folder + "/balls-synth.events.jsonl"
            let before = try Data(contentsOf: URL(fileURLWithPath: golden))
            let refused = try CLI.run(["regress", folder, "--update", "--set", "trajectory.trajectoryLength=15"])
            #expect(refused.status == 1, "\(refused.stdout)")
            #expect(refused.stdout.contains("not updated, scoring worse: balls-synth.events.jsonl"))
            #expect(refused.stdout.contains("--accept-worse"))
            #expect(try Data(contentsOf: URL(fileURLWithPath: golden)) == before)

            let usage = try CLI.run(["regress", folder, "--accept-worse"])
            #expect(usage.status == 64 && usage.stderr.contains("--accept-worse only applies with --update"))

            let accepted = try CLI.run(["regress", folder, "--update", "--accept-worse", "--set", "trajectory.trajectoryLength=15"])
            #expect(accepted.status == 0, "\(accepted.stdout)")
            #expect(accepted.stdout.contains("updated: balls-synth.events.jsonl"))
            #expect(try Data(contentsOf: URL(fileURLWithPath: golden)) != before)
            #expect(try CLI.run(["regress", folder, "--set", "trajectory.trajectoryLength=15"]).status == 0)
        }
    }

    @Test("regress rows give the golden's and the new log's id apart")
    func regressRowsNameBothIds() throws {
        try withCopyOfRecordings(["balls-synth"]) { folder in
            let r = try CLI.run(["regress", folder, "--set", "trajectory.trajectoryLength=15"])
            let lines = r.stdout.split(separator: "\n").map(String.init)
            #expect(lines.contains { $0.contains("change") && $0.contains("golden id") && $0.contains("new id") }, "\(r.stdout)")
            // A lost trajectory has a golden id and none in the new log.
            let lost = try #require(lines.first { $0.contains("lost") && $0.contains("trajectory") })
            #expect(lost.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).first == "-", "\(lost)")
        }
    }

    @Test("regress refuses an option for an analyzer no golden runs, and a folder without goldens")
    func regressRefuses() throws {
        try withCopyOfRecordings(["toss-real"]) { folder in
            let r = try CLI.run(["regress", folder, "--set", "tracking.trackingLevel=fast"])
            #expect(r.status == 2)
            #expect(r.stderr.contains("no golden log in the folder runs analyzer 'tracking'"))
            try withScratchFolder("cli") { empty in
                let e = try CLI.run(["regress", empty])
                #expect(e.status == 2 && e.stderr.contains("holds no golden logs"))
            }
        }
    }

    @Test("diff exits 0 for the same log, 1 for a different one, 2 for a truncated one naming file and line")
    func diffExitCodes() throws {
        let golden = Self.recordings.appendingPathComponent("balls-synth.events.jsonl").path
        let same = try CLI.run(["diff", golden, golden])
        #expect(same.status == 0 && same.stdout.contains("same: no differences"))

        try withScratchFolder("cli") { folder in
            let other = folder + "/balls-synth.events.jsonl"
            #expect(try CLI.run(["replay", Self.recordings.appendingPathComponent("balls-synth.luma").path, "--analyzer", "differencing",
                                 "--analyzer", "trajectory", "--set", "trajectory.trajectoryLength=15", "-o", other]).status == 0)
            let different = try CLI.run(["diff", golden, other, "--json"])
            #expect(different.status == 1)
            #expect(different.stdout.contains("\"same\":false") && different.stdout.contains("\"lost\":2"))

            var text = try String(contentsOfFile: golden, encoding: .utf8)
            text.removeLast(40)
            let truncated = folder + "/truncated.events.jsonl"
            try text.write(toFile: truncated, atomically: true, encoding: .utf8)
            let bad = try CLI.run(["diff", golden, truncated])
            #expect(bad.status == 2)
            let lineCount = text.split(separator: "\n", omittingEmptySubsequences: false).count
            #expect(bad.stderr == "lumatrace: error: \(truncated):\(lineCount): last line is cut off (no newline): the log is truncated\n")
        }
    }

    @Test("score prints the table for the bundled recordings and refuses truth past the recording's end")
    func scoreCommand() throws {
        let log = Self.recordings.appendingPathComponent("tracking-synth.events.jsonl").path
        let truth = Self.recordings.appendingPathComponent("tracking-synth.truth.json").path
        let r = try CLI.run(["score", log, "--truth", truth])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("success AUC") && r.stdout.contains("object4"))
        let json = try CLI.run(["score", log, "--truth", truth, "--json"])
        #expect(json.stdout.contains("\"tracking\":{\"successAUC\":"))

        try withScratchFolder("cli") { folder in
            let long = folder + "/long.truth.json"
            let labels = folder + "/labels.txt"
            try String(repeating: "10,10,20,20\n", count: 95).write(toFile: labels, atomically: true, encoding: .utf8)
            let imported = try CLI.run(["truth", "import", "otb", labels, "--size", "320x180", "-o", long])
            #expect(imported.status == 0, "\(imported.stderr)")
            let refused = try CLI.run(["score", log, "--truth", long])
            #expect(refused.status == 2)
            #expect(refused.stderr == "lumatrace: error: \(long): object track object1 has a point at frame 94, past the recording's last frame 89\n")
        }
    }

    @Test("truth import from OTB labels fits the recording it was given, and refuses labels past its end")
    func truthImport() throws {
        try withScratchFolder("cli") { folder in
            let recording = Self.recordings.appendingPathComponent("tracking-synth.luma").path
            let labels = folder + "/labels.txt"
            try String(repeating: "10\t10\t20\t20\r\n", count: 90).write(toFile: labels, atomically: true, encoding: .utf8)
            let ok = try CLI.run(["truth", "import", "otb", labels, "--recording", recording, "-o", folder + "/t.truth.json"])
            #expect(ok.status == 0, "\(ok.stderr)")
            #expect(ok.stdout.contains("90 boxes, 320x180, 90 frames"))
            let check = try CLI.run(["truth", "check", folder + "/t.truth.json", "--recording", recording])
            #expect(check.status == 0 && check.stdout.contains("fits"))

            try String(repeating: "10,10,20,20\n", count: 91).write(toFile: labels, atomically: true, encoding: .utf8)
            let past = try CLI.run(["truth", "import", "otb", labels, "--recording", recording, "-o", folder + "/u.truth.json"])
            #expect(past.status == 2)
            #expect(past.stderr == "lumatrace: error: \(labels):91: labels frame 90, past the recording's last frame 89\n")
            let format = try CLI.run(["truth", "import", "coco", labels, "--size", "10x10", "-o", folder + "/v.truth.json"])
            #expect(format.status != 0 && format.stderr.contains("format 'coco' is not one of: otb, vot, tracknet"))
        }
    }
}
