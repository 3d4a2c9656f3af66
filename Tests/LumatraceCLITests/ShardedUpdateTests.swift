import Foundation
import Testing
import LumaTestSupport

/// `regress --update` on a cluster: shards stage the new logs (`--stage DIR`), and only the merge
/// moves them over the goldens, so a half-finished run never leaves a mix of old and new goldens.
@Suite("Sharded regress --update: staged, then moved into place by the merge")
struct ShardedUpdateTests {
    /// A change that replaces two of the three goldens of `Recordings/`.
    static let change = ["--update", "--accept-worse", "--set", "trajectory.trajectoryLength=12"]

    /// The golden logs of `folder`, by name.
    static func goldens(_ folder: String) throws -> [String: Data] {
        var logs: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) where name.hasSuffix(".events.jsonl") {
            logs[name] = FileManager.default.contents(atPath: "\(folder)/\(name)")
        }
        return logs
    }

    /// Runs every shard of `count` over `corpus` with the change, staging into `stage`; returns the parts.
    static func shards(_ corpus: String, count: Int, stage: String, in dir: String, only: [Int]? = nil) throws -> [String] {
        try (only ?? Array(0..<count)).map { k in
            let part = "\(dir)/part-\(k).json"
            let r = try CLI.run(["regress", corpus, "--shard", "\(k)/\(count)", "--stage", stage, "-o", part] + change)
            #expect(r.status == 0, "shard \(k)/\(count): \(r.stderr)")
            return part
        }
    }

    /// One machine's `regress --update --json` with the change, run once for every N: its folder
    /// (in the test process's scratch folder, removed when the process exits), its result, and
    /// the goldens it left.
    static let oneMachine = Result { () throws -> (String, ProgramResult, [String: Data]) in
        let folder = Scratch.path("staged-one-machine")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let alone = try ShardedRegressTests.copyOfRecordings(in: folder)
        let run = try CLI.run(["regress", alone, "--json"] + change)
        return (alone, run, try goldens(alone))
    }

    @Test("for N = 1 … 3 the goldens after the merge are those one machine's --update writes, and so is the report",
          arguments: [1, 2, 3])
    func mergedUpdateEqualsSingle(count: Int) throws {
        try withScratchFolder("staged") { dir in
            let corpus = try ShardedRegressTests.copyOfRecordings(in: dir, name: "corpus")
            let original = try Self.goldens(corpus)
            let (alone, one, updated) = try Self.oneMachine.get()
            #expect(one.status == 0, "\(one.stderr)")
            #expect(updated != original, "the change must replace some goldens for this test to say anything")

            let parts = try Self.shards(corpus, count: count, stage: "\(dir)/stage", in: dir)
            #expect(try Self.goldens(corpus) == original, "a shard must not touch the goldens")
            let merged = try CLI.run(["regress", "merge", "--json"] + parts)
            #expect(merged.status == one.status, "\(merged.stderr)")
            #expect(merged.stdout == one.stdout.replacingOccurrences(of: #""folder":"\#(alone)""#, with: #""folder":"\#(corpus)""#))
            #expect(try Self.goldens(corpus) == updated)
            #expect(try FileManager.default.contentsOfDirectory(atPath: "\(dir)/stage").isEmpty, "the merge moves the staged logs")

            // Merging the same parts again finds them in place and prints the same report.
            let again = try CLI.run(["regress", "merge", "--json"] + parts)
            #expect(again.status == merged.status, "\(again.stderr)")
            #expect(again.stdout == merged.stdout)
            #expect(again.stderr.contains("already in place"), "\(again.stderr)")
            #expect(try Self.goldens(corpus) == updated)
        }
    }

    @Test("a half-finished cluster run (a shard missing) replaces no golden")
    func halfFinished() throws {
        try withScratchFolder("staged") { dir in
            let corpus = try ShardedRegressTests.copyOfRecordings(in: dir)
            let original = try Self.goldens(corpus)
            let parts = try Self.shards(corpus, count: 3, stage: "\(dir)/stage", in: dir, only: [0, 2])
            let merged = try CLI.run(["regress", "merge"] + parts)
            #expect(merged.status == 2)
            #expect(merged.stderr.contains("shard 1 of 3 wrote no part"), "\(merged.stderr)")
            #expect(try Self.goldens(corpus) == original)
        }
    }

    @Test("a golden edited after its shard ran, or a staged log altered, stops the merge before any golden is replaced",
          arguments: ["golden", "staged"])
    func changedSinceTheShard(_ which: String) throws {
        try withScratchFolder("staged") { dir in
            let corpus = try ShardedRegressTests.copyOfRecordings(in: dir)
            let stage = "\(dir)/stage"
            let parts = try Self.shards(corpus, count: 2, stage: stage, in: dir)
            let staged = try FileManager.default.contentsOfDirectory(atPath: stage).sorted()
            #expect(staged.count == 2, "\(staged)")
            let victim = "\(which == "golden" ? corpus : stage)/\(staged.last!)"
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: victim))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("\n".utf8))
            try handle.close()
            let before = try Self.goldens(corpus)
            let merged = try CLI.run(["regress", "merge"] + parts)
            #expect(merged.status == 2)
            #expect(merged.stderr.contains("no golden log was replaced"), "\(merged.stderr)")
            #expect(merged.stderr.contains(which == "golden" ? "changed after its shard replayed it" : "not the one its shard wrote"), "\(merged.stderr)")
            #expect(merged.stderr.contains(staged.last!), "\(merged.stderr)")
            #expect(try Self.goldens(corpus) == before)
        }
    }

    @Test("--update with --shard needs --stage; the stage is not the corpus; an earlier run's staged log is replaced only with --force")
    func stageRules() throws {
        try withScratchFolder("staged") { dir in
            let corpus = try ShardedRegressTests.copyOfRecordings(in: dir)
            let noStage = try CLI.run(["regress", corpus, "--shard", "0/1", "-o", "\(dir)/p.json"] + Self.change)
            #expect(noStage.status == 64)
            #expect(noStage.stderr.contains("--stage"), "\(noStage.stderr)")
            let stageAlone = try CLI.run(["regress", corpus, "--shard", "0/1", "-o", "\(dir)/p.json", "--stage", "\(dir)/s"])
            #expect(stageAlone.status == 64)
            #expect(stageAlone.stderr.contains("--stage applies with --update"), "\(stageAlone.stderr)")
            let intoCorpus = try CLI.run(["regress", corpus, "--shard", "0/1", "-o", "\(dir)/p.json", "--stage", "\(corpus)/."] + Self.change)
            #expect(intoCorpus.status == 2)
            #expect(intoCorpus.stderr.contains("is the corpus folder itself"), "\(intoCorpus.stderr)")
            #expect(!FileManager.default.fileExists(atPath: "\(dir)/p.json"))

            let stage = "\(dir)/stage"
            try FileManager.default.createDirectory(atPath: stage, withIntermediateDirectories: true)
            try Data("left by an earlier run\n".utf8).write(to: URL(fileURLWithPath: "\(stage)/toss-real.events.jsonl"))
            let refused = try CLI.run(["regress", corpus, "--shard", "0/1", "-o", "\(dir)/p.json", "--stage", stage] + Self.change)
            #expect(refused.status == 2)
            #expect(refused.stderr.contains("\(stage)/toss-real.events.jsonl: already exists; pass --force"), "\(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: "\(dir)/p.json"), "refused before any work")
            // Text of no kind is not a staged log --force replaces; an earlier run's log is.
            let notes = try CLI.run(["regress", corpus, "--shard", "0/1", "-o", "\(dir)/p.json", "--stage", stage, "--force"] + Self.change)
            #expect(notes.status == 2 && notes.stderr.contains("is a text file, not an event log"), "\(notes.stderr)")
            try FileManager.default.removeItem(atPath: "\(stage)/toss-real.events.jsonl")
            try FileManager.default.copyItem(atPath: "\(corpus)/toss-real.events.jsonl", toPath: "\(stage)/toss-real.events.jsonl")
            let forced = try CLI.run(["regress", corpus, "--shard", "0/1", "-o", "\(dir)/p.json", "--stage", stage, "--force"] + Self.change)
            #expect(forced.status == 0, "\(forced.stderr)")
        }
    }
}
