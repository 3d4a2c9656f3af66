import Foundation
import Testing
import LumaTestSupport

/// `regress --shard K/N` and `regress merge`: a corpus split over machines gives the report one
/// machine gives, byte for byte, whatever the split.
@Suite("Sharded regress: parts merged to the single-machine report")
struct ShardedRegressTests {
    static let recordings = PackageLayout.root.appendingPathComponent("Recordings").path

    /// Runs every shard of `count` over `folder` into `parts/`, then merges them; returns the
    /// merge's result and the part paths.
    static func shardAndMerge(_ folder: String, count: Int, extra: [String] = [], json: Bool, in dir: String) throws -> (ProgramResult, [String]) {
        var parts: [String] = []
        for k in 0..<count {
            let part = "\(dir)/part-\(k)-of-\(count).json"
            let r = try CLI.run(["regress", folder, "--shard", "\(k)/\(count)", "-o", part] + extra)
            #expect(r.status == 0, "shard \(k)/\(count): \(r.stderr)")
            #expect(r.stdout.hasPrefix("shard \(k) of \(count): "), "\(r.stdout)")
            parts.append(part)
        }
        return (try CLI.run(["regress", "merge"] + parts + (json ? ["--json"] : [])), parts)
    }

    /// A copy of `Recordings/` (recordings, goldens, truth) at `dir/name`, to change freely.
    static func copyOfRecordings(in dir: String, name: String = "corpus") throws -> String {
        let corpus = "\(dir)/\(name)"
        try FileManager.default.createDirectory(atPath: corpus, withIntermediateDirectories: true)
        for file in try FileManager.default.contentsOfDirectory(atPath: recordings) where !file.hasPrefix(".") && file != "README.md" {
            try FileManager.default.copyItem(atPath: "\(recordings)/\(file)", toPath: "\(corpus)/\(file)")
        }
        return corpus
    }

    @Test("for N = 1 … 4 the merged JSON and text reports are byte-identical to one machine's, with the same exit status",
          arguments: [1, 2, 3, 4])
    func mergedEqualsSingle(count: Int) throws {
        try withScratchFolder("shards") { dir in
            for json in [true, false] {
                let single = try CLI.run(["regress", Self.recordings] + (json ? ["--json"] : []))
                let parts = "\(dir)/\(json ? "json" : "text")"
                try FileManager.default.createDirectory(atPath: parts, withIntermediateDirectories: true)
                let (merged, _) = try Self.shardAndMerge(Self.recordings, count: count, json: json, in: parts)
                #expect(merged.status == single.status, "\(merged.stderr)")
                #expect(merged.stdout == single.stdout)
                #expect(!single.stdout.isEmpty)
            }
        }
    }

    @Test("a change that fails the corpus fails the merge the same way: same report, exit status 1")
    func failingChange() throws {
        try withScratchFolder("shards") { dir in
            let change = ["--set", "trajectory.trajectoryLength=15"]
            let single = try CLI.run(["regress", Self.recordings, "--json"] + change)
            #expect(single.status == 1)
            let (merged, _) = try Self.shardAndMerge(Self.recordings, count: 2, extra: change, json: true, in: dir)
            #expect(merged.status == 1, "\(merged.stderr)")
            #expect(merged.stdout == single.stdout)
        }
    }

    @Test("impossible shards are refused before any work, naming --shard, as a usage error (64)", arguments: ["3/3", "1/0", "-1/3", "a/b", "2", "auto"])
    func impossibleShard(_ shard: String) throws {
        try withScratchFolder("shards") { dir in
            var environment = ProcessInfo.processInfo.environment
            environment["SLURM_ARRAY_TASK_ID"] = nil
            environment["JOB_COMPLETION_INDEX"] = nil
            let r = try CLI.run(["regress", Self.recordings, "--shard", shard, "-o", "\(dir)/part.json"], environment: environment)
            #expect(r.status == 64, "\(r.stdout)")
            #expect(r.stderr.contains("--shard"), "\(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: "\(dir)/part.json"))
        }
    }

    @Test("--shard auto takes the shard from a Slurm job array's environment (numbered from its first index)")
    func slurmEnvironment() throws {
        try withScratchFolder("shards") { dir in
            var parts: [String] = []
            for id in 1...2 {
                var environment = ProcessInfo.processInfo.environment
                environment["SLURM_ARRAY_TASK_ID"] = "\(id)"
                environment["SLURM_ARRAY_TASK_MIN"] = "1"
                environment["SLURM_ARRAY_TASK_COUNT"] = "2"
                let part = "\(dir)/part-\(id).json"
                let r = try CLI.run(["regress", Self.recordings, "--shard", "auto", "-o", part], environment: environment)
                #expect(r.status == 0, "\(r.stderr)")
                #expect(r.stdout.hasPrefix("shard \(id - 1) of 2: "), "\(r.stdout)")
                parts.append(part)
            }
            var kubernetes = ProcessInfo.processInfo.environment
            kubernetes["SLURM_ARRAY_TASK_ID"] = nil
            kubernetes["JOB_COMPLETION_INDEX"] = "1"
            let k8s = try CLI.run(["regress", Self.recordings, "--shard", "auto/2", "-o", "\(dir)/k8s-1.json"], environment: kubernetes)
            #expect(k8s.status == 0, "\(k8s.stderr)")
            #expect(try String(contentsOfFile: "\(dir)/k8s-1.json", encoding: .utf8) == String(contentsOfFile: parts[1], encoding: .utf8))
            let merged = try CLI.run(["regress", "merge"] + parts + ["--json"])
            #expect(merged.stdout == (try CLI.run(["regress", Self.recordings, "--json"])).stdout)
        }
    }

    @Test("--shard auto: a stepped Slurm array gives each task its place in the array; a variable that is no number is named as such")
    func slurmSteps() throws {
        try withScratchFolder("shards") { dir in
            var environment = ProcessInfo.processInfo.environment
            environment["JOB_COMPLETION_INDEX"] = nil
            for (key, value) in [("SLURM_ARRAY_TASK_ID", "4"), ("SLURM_ARRAY_TASK_MIN", "0"), ("SLURM_ARRAY_TASK_MAX", "4"),
                                 ("SLURM_ARRAY_TASK_STEP", "2"), ("SLURM_ARRAY_TASK_COUNT", "3")] { environment[key] = value }
            let stepped = try CLI.run(["regress", Self.recordings, "--shard", "auto", "-o", "\(dir)/part.json"], environment: environment)
            #expect(stepped.status == 0 && stepped.stdout.hasPrefix("shard 2 of 3: "), "\(stepped.stdout) \(stepped.stderr)")
            environment["SLURM_ARRAY_TASK_ID"] = "3"
            let between = try CLI.run(["regress", Self.recordings, "--shard", "auto", "-o", "\(dir)/between.json"], environment: environment)
            #expect(between.status == 64 && between.stderr.contains("SLURM_ARRAY_TASK_ID 3 is not SLURM_ARRAY_TASK_MIN 0 plus a multiple of SLURM_ARRAY_TASK_STEP 2"),
                    "\(between.stderr)")
            environment["SLURM_ARRAY_TASK_ID"] = "1;x"
            let garbled = try CLI.run(["sweep", Self.recordings, "--grid", "trajectory.trajectoryLength=8,10", "--shard", "auto", "-o", "\(dir)/p.json"],
                                      environment: environment)
            #expect(garbled.status == 64 && garbled.stderr.contains("SLURM_ARRAY_TASK_ID='1;x' is not a whole number"), "\(garbled.stderr)")
        }
    }

    @Test("a missing, repeated or foreign part, or one of another shard count, is refused naming it")
    func badParts() throws {
        try withScratchFolder("shards") { dir in
            let (_, parts) = try Self.shardAndMerge(Self.recordings, count: 3, json: true, in: dir)
            let missing = try CLI.run(["regress", "merge", parts[0], parts[2]])
            #expect(missing.status == 2)
            #expect(missing.stderr.contains("shard 1 of 3 wrote no part"), "\(missing.stderr)")
            let twice = try CLI.run(["regress", "merge", parts[0], parts[1], parts[1], parts[2]])
            #expect(twice.status == 2)
            #expect(twice.stderr.contains("shard 1 of 3 is given twice: \(parts[1]) and \(parts[1])"), "\(twice.stderr)")
            let foreign = "\(dir)/notes.json"
            try Data(#"{"hello":"world"}"#.utf8).write(to: URL(fileURLWithPath: foreign))
            let notAPart = try CLI.run(["regress", "merge", parts[0], foreign])
            #expect(notAPart.status == 2)
            #expect(notAPart.stderr.contains("\(foreign): not a regress part"), "\(notAPart.stderr)")
            let (_, halves) = try Self.shardAndMerge(Self.recordings, count: 2, json: true, in: dir)
            let mixed = try CLI.run(["regress", "merge", parts[0], halves[1], parts[2]])
            #expect(mixed.status == 2)
            #expect(mixed.stderr.contains("\(halves[1]) is a part of another run than \(parts[0]): shard count 2, not 3"), "\(mixed.stderr)")
        }
    }

    @Test("a golden edited between shards makes the listings differ, and the merge refuses the parts")
    func corpusChangedBetweenShards() throws {
        try withScratchFolder("shards") { dir in
            let corpus = try Self.copyOfRecordings(in: dir)
            let first = try CLI.run(["regress", corpus, "--shard", "0/2", "-o", "\(dir)/part-0.json"])
            #expect(first.status == 0, "\(first.stderr)")
            // Someone blesses a new golden before the second shard runs.
            let bless = try CLI.run(["regress", corpus, "--update", "--accept-worse", "--set", "trajectory.trajectoryLength=15"])
            #expect(bless.stdout.contains("updated: "), "\(bless.stdout)")
            let second = try CLI.run(["regress", corpus, "--shard", "1/2", "-o", "\(dir)/part-1.json"])
            #expect(second.status == 0, "\(second.stderr)")
            let merged = try CLI.run(["regress", "merge", "\(dir)/part-0.json", "\(dir)/part-1.json"])
            #expect(merged.status == 2)
            #expect(merged.stderr.contains("the corpus changed between shards"), "\(merged.stderr)")
        }
    }

    @Test("a shard only reads the corpus: the folder is unchanged, byte for byte, after every shard ran")
    func readOnlyCorpus() throws {
        try withScratchFolder("shards") { dir in
            func snapshot() throws -> [String: Data] {
                var files: [String: Data] = [:]
                for name in try FileManager.default.contentsOfDirectory(atPath: Self.recordings) {
                    files[name] = FileManager.default.contents(atPath: "\(Self.recordings)/\(name)")
                }
                return files
            }
            let before = try snapshot()
            _ = try Self.shardAndMerge(Self.recordings, count: 2, json: true, in: dir)
            #expect(try snapshot() == before)
        }
    }
}
