import Foundation
import LumaAnalysis
import LumaEngine
import Testing
import LumaTestSupport

/// One analyzer run more than once in a replay, each instance under a name of its own
/// (`--analyzer INSTANCE=ANALYZER`), with its own options, events and ids.
@Suite("Analyzer instances: one analyzer, several names, one replay")
struct AnalyzerInstanceTests {
    static let balls = PackageLayout.root.appendingPathComponent("Recordings/balls-synth.luma").path
    static let toss = PackageLayout.root.appendingPathComponent("Recordings/toss-real.luma").path
    static func example() throws -> String {
        try ProjectPython.require() + " " + PackageLayout.root.appendingPathComponent("Plugins/BrightnessHistogram/brightness_histogram.py").path
    }

    /// Trajectory ends of `analyzer` in `log`: (first frame, point count) per trajectory, and the ids.
    func ends(_ log: EventLog, _ analyzer: String) -> (paths: [[Int]], ids: Set<String>) {
        let ends = log.events.filter { $0.analyzer == analyzer && $0.kind == "trajectory.end" }
        let paths = ends.map { e in [e.frame, e.data["points"]?.arrayValue?.count ?? -1] }
        return (paths, Set(ends.compactMap { $0.data["id"]?.stringValue }))
    }

    @Test("trajectory at two lengths side by side: each instance logs what a replay of it alone logs, under its own name and ids")
    func trajectoryTwice() throws {
        try withScratchFolder("cli") { dir in
            let both = dir + "/both.events.jsonl"
            let r = try CLI.run(["replay", Self.balls, "--analyzer", "short=trajectory", "--analyzer", "long=trajectory",
                                 "--set", "short.trajectoryLength=6", "--set", "long.trajectoryLength=15", "-o", both])
            #expect(r.status == 0, "\(r.stderr)")
            let log = try EventLog.read(both)
            #expect(log.header.analyzers.map(\.name) == ["short", "long"])
            #expect(log.header.analyzers.map(\.analyzer) == ["trajectory", "trajectory"])
            let (short, long) = (ends(log, "short"), ends(log, "long"))
            #expect(!short.paths.isEmpty && !long.paths.isEmpty)
            #expect(short.ids.isDisjoint(with: long.ids), "two instances share an id")

            for (instance, length) in [("short", "6"), ("long", "15")] {
                let alone = dir + "/\(instance).events.jsonl"
                #expect(try CLI.run(["replay", Self.balls, "--analyzer", "trajectory", "--set", "trajectory.trajectoryLength=\(length)",
                                     "-o", alone]).status == 0)
                #expect(ends(try EventLog.read(alone), "trajectory").paths == ends(log, instance).paths, "\(instance)")
            }
            // Each instance is scored on its own.
            let truth = PackageLayout.root.appendingPathComponent("Recordings/balls-synth.truth.json").path
            let scoreShort = try CLI.run(["score", both, "--truth", truth, "--analyzer", "short", "--json"])
            let scoreAlone = try CLI.run(["score", dir + "/short.events.jsonl", "--truth", truth, "--json"])
            #expect(scoreShort.status == 0 && scoreAlone.status == 0)
            let f1 = { (text: String) in try JSONParser.parse(text)["trajectories"]?["f1"]?.doubleValue }
            #expect(try f1(scoreShort.stdout) != nil && f1(scoreShort.stdout) == f1(scoreAlone.stdout))
            let nosuch = try CLI.run(["score", both, "--truth", truth, "--analyzer", "trajectory"])
            #expect(nosuch.status == 2 && nosuch.stderr.contains("has no analyzer of that name (it has short, long)"), "\(nosuch.stderr)")
            // The header says how to run it again: verify re-runs both instances and gets the same bytes.
            let verify = try CLI.run(["verify", both, "--recording", Self.balls])
            #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
            // regress and replay --set address an instance by its name.
            let again = try CLI.run(["replay", Self.balls, "--pipeline", both, "--set", "long.trajectoryLength=20", "-o", dir + "/again.events.jsonl"])
            #expect(again.status == 0, "\(again.stderr)")
            #expect(try EventLog.read(dir + "/again.events.jsonl").header.analyzers[1].configuration["trajectoryLength"]?.intValue == 20)
        }
    }

    @Test("two external programs in one replay, each with its own options and events")
    func twoPrograms() throws {
        try withScratchFolder("cli") { dir in
            let out = dir + "/two.events.jsonl"
            let r = try CLI.run(["replay", Self.toss, "--analyzer", "coarse=external", "--analyzer", "fine=external",
                                 "--set", "coarse.command=\(try Self.example())", "--set", "coarse.options={\"every\":20,\"bins\":4}",
                                 "--set", "fine.command=\(try Self.example())", "--set", "fine.options={\"every\":10,\"bins\":16}", "-o", out])
            #expect(r.status == 0, "\(r.stderr)")
            let log = try EventLog.read(out)
            let coarse = log.events.filter { $0.analyzer == "coarse" }, fine = log.events.filter { $0.analyzer == "fine" }
            #expect(coarse.map(\.frame) == [0, 20, 40])
            #expect(fine.map(\.frame) == [0, 10, 20, 30, 40, 50])
            #expect(coarse.allSatisfy { $0.data["histogram"]?.arrayValue?.count == 4 })
            #expect(fine.allSatisfy { $0.data["histogram"]?.arrayValue?.count == 16 })
        }
    }

    @Test("an analyzer named twice is refused with how to name each; a bad instance name is refused; both as usage errors (64)")
    func refusals() throws {
        try withScratchFolder("cli") { dir in
            let twice = try CLI.run(["replay", Self.toss, "--analyzer", "external", "--analyzer", "external",
                                     "--set", "external.command=\(try Self.example())", "-o", dir + "/x.events.jsonl"])
            #expect(twice.status == 64)
            #expect(twice.stderr.contains("external is given twice") && twice.stderr.contains("--analyzer: external is given twice") && twice.stderr.contains("own name: external2=external"), "\(twice.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/x.events.jsonl"))
            for bad in ["a.b=trajectory", "engine=trajectory", "=trajectory"] {
                let r = try CLI.run(["replay", Self.toss, "--analyzer", bad, "-o", dir + "/y.events.jsonl"])
                #expect(r.status == 64 && r.stderr.contains("is not an analyzer instance name"), "\(bad): \(r.stderr)")
            }
            let unknown = try CLI.run(["replay", Self.toss, "--analyzer", "x=nosuch", "-o", dir + "/z.events.jsonl"])
            #expect(unknown.status == 64 && unknown.stderr.contains("unknown analyzer 'nosuch'"), "\(unknown.stderr)")
        }
    }
}
