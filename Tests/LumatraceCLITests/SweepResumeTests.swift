import Foundation
import LumaRegression
import LumaTestSupport
import Testing

/// `sweep` after a crash and across machines: an interrupted sweep resumes from the scores it
/// stored, and the parts of a sharded sweep merge into the outputs one sweep writes, byte for byte.
@Suite("Sweep: resume, shards and merge")
struct SweepResumeTests {
    static let grid = SweepCommandTests.grid

    /// Every file of a sweep's output folder, by name.
    static func outputs(_ folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            files[name] = FileManager.default.contents(atPath: folder + "/" + name)
        }
        return files
    }

    @Test("a sweep killed (SIGKILL) once a recording's scores are stored resumes with only the rest, and writes the same bytes as one never stopped")
    func killedThenResumed() throws {
        try withScratchFolder("sweep-resume") { dir in
            let corpus = try SweepCommandTests.corpus(in: dir)
            let gate = try SweepKillGate(in: dir, firstScores: dir + "/out/scores/balls-synth.json")
            let whole = try CLI.run(["sweep", corpus] + gate.arguments + ["-o", dir + "/whole", "--jobs", "1"])
            #expect(whole.status == 0, "\(whole.stderr)")
            let arguments = ["sweep", corpus] + gate.arguments + ["-o", dir + "/out", "--jobs", "1"]
            try gate.arm()
            let sweep = try CLI.start(arguments)
            let reached = AwaitedEvent.wait(while: { sweep.isRunning }) { FileManager.default.fileExists(atPath: gate.blocked) }
            sweep.signal(SIGKILL)
            let ended = try sweep.wait()
            try #require(reached, "the sweep ended before it stored a recording's scores: \(ended)")
            try #require(ended.signal == SIGKILL, "the sweep ended on its own, not by the kill: \(ended)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/out/sweep.txt"), "a killed sweep wrote its outputs")
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/out/scores") == ["balls-synth.json"])

            try gate.disarm()
            let resumed = try CLI.run(arguments)
            #expect(resumed.status == 0, "\(resumed.stderr)")
            #expect(resumed.stderr.contains("resuming: 1 of 2 recordings already scored"), "\(resumed.stderr)")
            let outputs = try Self.outputs(dir + "/out")
            #expect(outputs.keys.sorted() == ["sweep.csv", "sweep.html", "sweep.json", "sweep.txt"], "an external analyzer's sweep draws no picture")
            #expect(outputs == (try Self.outputs(dir + "/whole")))
            // The folder the outputs replaced, stored scores and all, is gone.
            let left = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".old") }
            #expect(left.isEmpty, "left beside the outputs: \(left)")
        }
    }

    @Test("a sweep of several passes per recording killed mid-way resumes with only the rest, as one never stopped; it removes the killed run's partial folder and no other")
    func multiPassKilledThenResumed() throws {
        try withScratchFolder("sweep-resume") { dir in
            let corpus = try SweepCommandTests.corpus(in: dir)
            // One setting per replay: the 4 settings are 4 passes over each recording.
            var onePerReplay = ProcessInfo.processInfo.environment
            onePerReplay["LUMATRACE_MAX_ANALYZERS"] = "1"
            let gate = try SweepKillGate(in: dir, firstScores: dir + "/out/scores/balls-synth.json")
            let whole = try CLI.run(["sweep", corpus] + gate.arguments + ["-o", dir + "/whole", "--jobs", "1"], environment: onePerReplay)
            #expect(whole.status == 0 && whole.stdout.contains("(4 replays of each)"), "\(whole.stdout) \(whole.stderr)")
            let arguments = ["sweep", corpus] + gate.arguments + ["-o", dir + "/out", "--jobs", "1"]
            try gate.arm()
            let sweep = try CLI.start(arguments, environment: onePerReplay)
            let reached = AwaitedEvent.wait(while: { sweep.isRunning }) { FileManager.default.fileExists(atPath: gate.blocked) }
            sweep.signal(SIGKILL)
            let ended = try sweep.wait()
            try #require(reached && ended.signal == SIGKILL, "the sweep ended before it stored a recording's scores, or on its own: \(ended)")
            // Killed in the second recording's passes: its scores are not stored, the sweep's partial folder is left.
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/out/scores") == ["balls-synth.json"])
            let killed = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix(".out.") && $0.hasSuffix(".partial") }
            #expect(killed.count == 1, "\(killed)")

            // Partial folders beside it that are not this sweep's to remove.
            let mark = { (name: String) in Data("lumatrace: the unfinished output folder \(name)\n".utf8) }
            let others = [(".out.1-1.partial", nil, ["sweep.txt"]), (".out.1-2.partial", mark("whole"), []), (".out.1-3.partial", mark("out"), ["notes.txt"]),
                          (".whole.1-4.partial", mark("whole"), [])]
            for (name, marked, files) in others {
                try FileManager.default.createDirectory(atPath: "\(dir)/\(name)", withIntermediateDirectories: true)
                if let marked { try marked.write(to: URL(fileURLWithPath: "\(dir)/\(name)/.lumatrace-partial")) }
                for file in files { try Data().write(to: URL(fileURLWithPath: "\(dir)/\(name)/\(file)")) }
            }

            try gate.disarm()
            let resumed = try CLI.run(arguments, environment: onePerReplay)
            #expect(resumed.status == 0 && resumed.stderr.contains("resuming: 1 of 2 recordings already scored"), "\(resumed.stderr)")
            #expect(try Self.outputs(dir + "/out") == (try Self.outputs(dir + "/whole")))
            let partials = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".partial") }.sorted()
            #expect(partials == others.map(\.0).sorted(), "the killed run's partial folder is removed, the others kept")
        }
    }

    @Test("a resumed sweep with --keep-logs keeps the logs of the recordings it stored and writes the rest's, as a sweep never stopped")
    func resumedKeepsLogs() throws {
        try withScratchFolder("sweep-resume") { dir in
            let corpus = try SweepCommandTests.corpus(in: dir)
            let whole = try CLI.run(["sweep", corpus] + Self.grid + ["-o", dir + "/whole", "--keep-logs", dir + "/whole-logs"])
            #expect(whole.status == 0, "\(whole.stderr)")
            // What a sweep killed after its first recording leaves: that recording's scores and logs.
            let part = try CLI.run(["sweep", corpus] + Self.grid + ["--shard", "0/1", "-o", dir + "/part.json"])
            #expect(part.status == 0, "\(part.stderr)")
            let mine = try SweepPart.read(dir + "/part.json")
            try SweepResume(output: dir + "/out").store(try #require(mine.units.first { $0.recording == 0 }).scores, of: mine.corpus[0], sweep: mine.sweep)
            try FileManager.default.createDirectory(atPath: dir + "/logs", withIntermediateDirectories: true)
            let all = try FileManager.default.contentsOfDirectory(atPath: dir + "/whole-logs")
            for name in all where name.hasPrefix("balls-synth.") {
                try FileManager.default.copyItem(atPath: "\(dir)/whole-logs/\(name)", toPath: "\(dir)/logs/\(name)")
            }
            let resumed = try CLI.run(["sweep", corpus] + Self.grid + ["-o", dir + "/out", "--keep-logs", dir + "/logs"])
            #expect(resumed.status == 0 && resumed.stderr.contains("resuming: 1 of 2"), "\(resumed.stderr)")
            #expect(try Self.outputs(dir + "/out") == (try Self.outputs(dir + "/whole")))
            #expect(try Self.outputs(dir + "/logs") == (try Self.outputs(dir + "/whole-logs")) && all.count == 8)
        }
    }

    @Test("stored scores that are truncated, of another grid or of another truth are refused naming the file; --force starts over")
    func storedScoresChecked() throws {
        try withScratchFolder("sweep-resume") { dir in
            let corpus = try SweepCommandTests.corpus(in: dir)
            let whole = try CLI.run(["sweep", corpus] + Self.grid + ["-o", dir + "/whole"])
            #expect(whole.status == 0, "\(whole.stderr)")
            // An unfinished sweep as a kill leaves it: the scores of the first recording only.
            let part = try CLI.run(["sweep", corpus] + Self.grid + ["--shard", "0/1", "-o", dir + "/part.json"])
            #expect(part.status == 0, "\(part.stderr)")
            try FileManager.default.createDirectory(atPath: dir + "/out/scores", withIntermediateDirectories: true)
            let stored = dir + "/out/scores/balls-synth.json"

            try Data("{\"format\":\"lumatrace.sweep-scores\",\"version\":1,\"swe".utf8).write(to: URL(fileURLWithPath: stored))
            let truncated = try CLI.run(["sweep", corpus] + Self.grid + ["-o", dir + "/out"])
            #expect(truncated.status != 0 && truncated.stderr.contains(stored) && truncated.stderr.contains("not a sweep's stored scores"), "\(truncated.stderr)")
            #expect(truncated.stderr.split(separator: "\n").count == 1, "\(truncated.stderr)")

            // Scores of a 2-setting grid, then resumed with the 4-setting one.
            let other = try CLI.run(["sweep", corpus, "--grid", "trajectory.trajectoryLength=8,15", "-o", dir + "/other", "--shard", "0/1"])
            #expect(other.status == 0, "\(other.stderr)")
            try FileManager.default.removeItem(atPath: stored)
            let otherScores = try SweepPart.read(dir + "/other").units
            #expect(!otherScores.isEmpty)
            let definition = try SweepPart.read(dir + "/other").sweep
            let identity = try SweepPart.read(dir + "/other").corpus[0]
            try SweepResume(output: dir + "/out").store(otherScores[0].scores, of: identity, sweep: definition)
            let otherGrid = try CLI.run(["sweep", corpus] + Self.grid + ["-o", dir + "/out"])
            #expect(otherGrid.status != 0 && otherGrid.stderr.contains(stored) && otherGrid.stderr.contains("another sweep: its grid"), "\(otherGrid.stderr)")

            // The right grid, but a truth that has changed since.
            let mine = try SweepPart.read(dir + "/part.json")
            var changed = mine.corpus[0]
            changed.truthSHA256 = String(repeating: "0", count: 64)
            try SweepResume(output: dir + "/out").store(mine.units.first { $0.recording == 0 }!.scores, of: changed, sweep: mine.sweep)
            let otherTruth = try CLI.run(["sweep", corpus] + Self.grid + ["-o", dir + "/out"])
            #expect(otherTruth.status != 0 && otherTruth.stderr.contains(stored) && otherTruth.stderr.contains("another truth of balls-synth.luma"), "\(otherTruth.stderr)")

            let force = try CLI.run(["sweep", corpus] + Self.grid + ["-o", dir + "/out", "--force"])
            #expect(force.status == 0, "\(force.stderr)")
            #expect(try Self.outputs(dir + "/out") == (try Self.outputs(dir + "/whole")))
        }
    }

    @Test("sweep --shard K/N then sweep merge writes the bytes one sweep writes, for N = 1, 2, 3 (and 3 with one setting per replay)")
    func shardsMergeToOneSweep() throws {
        try withScratchFolder("sweep-shards") { dir in
            let corpus = try SweepCommandTests.corpus(in: dir)
            let whole = try CLI.run(["sweep", corpus] + Self.grid + ["-o", dir + "/whole", "--best", "recall"])
            #expect(whole.status == 0, "\(whole.stderr)")
            let expected = try Self.outputs(dir + "/whole")
            for (shards, perReplay) in [(1, "64"), (2, "64"), (3, "64"), (3, "1")] {
                let parts = (0..<shards).map { "\(dir)/\(shards)-\(perReplay)/part-\($0).json" }
                try FileManager.default.createDirectory(atPath: "\(dir)/\(shards)-\(perReplay)", withIntermediateDirectories: true)
                for (k, part) in parts.enumerated() {
                    let run = try CLI.run(["sweep", corpus] + Self.grid + ["--shard", "\(k)/\(shards)", "-o", part],
                                          environment: ["LUMATRACE_MAX_ANALYZERS": perReplay])
                    #expect(run.status == 0, "\(run.stderr)")
                }
                let out = "\(dir)/\(shards)-\(perReplay)/out"
                let merge = try CLI.run(["sweep", "merge"] + parts.reversed() + ["-o", out, "--best", "recall"])
                #expect(merge.status == 0, "\(merge.stderr)")
                // One setting per replay or all in one: the same bytes.
                let outputs = try Self.outputs(out)
                #expect(outputs == expected, "\(shards) shards, \(perReplay) settings per replay")
            }
        }
    }

    @Test("a merge refuses, naming the part: a missing or repeated shard, parts of another grid, a truncated part, impossible counts, a recording name with a folder")
    func mergeRefusals() throws {
        try withScratchFolder("sweep-shards") { dir in
            let corpus = try SweepCommandTests.corpus(in: dir)
            for k in 0..<2 {
                let run = try CLI.run(["sweep", corpus] + Self.grid + ["--shard", "\(k)/2", "-o", "\(dir)/part-\(k).json"])
                #expect(run.status == 0, "\(run.stderr)")
            }
            let other = try CLI.run(["sweep", corpus, "--grid", "trajectory.trajectoryLength=8,15", "--shard", "1/2", "-o", "\(dir)/other.json"])
            #expect(other.status == 0, "\(other.stderr)")
            func merge(_ parts: [String]) throws -> ProgramResult {
                try CLI.run(["sweep", "merge"] + parts.map { "\(dir)/\($0)" } + ["-o", dir + "/out"])
            }
            let missing = try merge(["part-0.json"])
            #expect(missing.status != 0 && missing.stderr.contains("1 shard of 2 missing: 1"), "\(missing.stderr)")
            let twice = try merge(["part-0.json", "part-1.json", "part-0.json"])
            #expect(twice.status != 0 && twice.stderr.contains("shard 0 of 2 is given twice"), "\(twice.stderr)")
            let foreign = try merge(["part-0.json", "other.json"])
            #expect(foreign.status != 0 && foreign.stderr.contains("\(dir)/other.json is of another sweep") && foreign.stderr.contains("grid"), "\(foreign.stderr)")

            let bytes = try #require(FileManager.default.contents(atPath: "\(dir)/part-1.json"))
            try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: "\(dir)/truncated.json"))
            let truncated = try merge(["part-0.json", "truncated.json"])
            #expect(truncated.status != 0 && truncated.stderr.contains("\(dir)/truncated.json: not a sweep part"), "\(truncated.stderr)")

            let text = String(decoding: bytes, as: UTF8.self)
            for (name, hostile, words) in [("huge.json", text.replacingOccurrences(of: "\"shards\":2", with: "\"shards\":9000000000"), "impossible fields: shard 1 of 9000000000"),
                                           ("overflow.json", text.replacingOccurrences(of: "\"events\":", with: "\"events\":9223372036854775807,\"x\":"), "is outside 0...1099511627776"),
                                           ("outside.json", text.replacingOccurrences(of: "\"name\":\"toss-real.luma\"", with: "\"name\":\"..\\/..\\/etc.luma\""), "not one plain NAME.luma")] {
                #expect(hostile != text, "\(name) is unchanged")
                try Data(hostile.utf8).write(to: URL(fileURLWithPath: "\(dir)/\(name)"))
                let refused = try merge(["part-0.json", name])
                #expect(refused.status != 0 && refused.stderr.contains("\(dir)/\(name)") && refused.stderr.contains(words), "\(name): \(refused.stderr)")
                #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
            }
            #expect(!FileManager.default.fileExists(atPath: dir + "/out"))
            #expect(try merge(["part-1.json", "part-0.json"]).status == 0)
        }
    }
}
