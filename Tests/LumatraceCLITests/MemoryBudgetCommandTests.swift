import Foundation
import LumaAnalysis
import Testing
import LumaTestSupport

/// The commands besides `replay` and `sweep` that run analyzers keep to the memory budget
/// (`LUMATRACE_MEMORY_BUDGET`): a run that does not fit is refused with the memory it would need,
/// naming the recording, and nothing it should keep is lost.
@Suite("Memory budget of regress, verify and analysis while recording")
struct MemoryBudgetCommandTests {
    static let recordings = PackageLayout.root.appendingPathComponent("Recordings")

    static func environment(budget: String) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["LUMATRACE_MEMORY_BUDGET"] = budget
        return env
    }

    /// A folder holding copies of the bundled `toss-real` golden log and its recording.
    static func goldens(in dir: String) throws -> String {
        let folder = dir + "/goldens"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for file in ["toss-real.luma", "toss-real.events.jsonl"] {
            try FileManager.default.copyItem(atPath: recordings.appendingPathComponent(file).path, toPath: "\(folder)/\(file)")
        }
        return folder
    }

    @Test("regress and verify refuse a golden whose replay does not fit the budget, naming its recording and the memory needed; within the budget they pass")
    func regressAndVerify() throws {
        try withScratchFolder("budget") { dir in
            let goldens = try Self.goldens(in: dir)
            let small = try CLI.run(["regress", goldens], environment: Self.environment(budget: "8M"))
            let said = small.stdout + small.stderr
            #expect(small.status == 2 && said.contains("toss-real.luma: 2 analyzer instances on 640x360 frames") && said.contains("over the memory budget of 8 MiB"), "\(said)")
            let verify = try CLI.run(["verify", "\(goldens)/toss-real.events.jsonl"], environment: Self.environment(budget: "8M"))
            #expect(verify.status == 2 && verify.stderr.contains("toss-real.luma: 2 analyzer instances on 640x360 frames") && verify.stderr.contains("8 MiB"),
                    "\(verify.stderr)")
            let roomy = try CLI.run(["regress", goldens, "--jobs", "2"], environment: Self.environment(budget: "4G"))
            #expect(roomy.status == 0, "\(roomy.stdout)\(roomy.stderr)")
        }
    }

    @Test("an analysis while recording that does not fit the budget stops at the first frame, and the recording is complete")
    func analysisWhileRecording() throws {
        try withScratchFolder("budget") { dir in
            let (stream, _) = CLI.y4m(width: 1024, height: 1024, count: 3)
            let r = try CLI.run(["record", "-", "-o", "big.luma", "--analyzer", "differencing"], stdin: stream, cwd: dir,
                                environment: Self.environment(budget: "32M"))
            #expect(r.status == 2 && r.stderr.contains("big.luma: one analyzer instance on 1024x1024 frames") && r.stderr.contains("over the memory budget of 32 MiB")
                    && r.stderr.contains("big.luma is complete"), "\(r.stderr)")
            let info = try CLI.run(["info", "big.luma", "--json"], cwd: dir)
            #expect(try JSONParser.parse(info.stdout.trimmingCharacters(in: .newlines))["frames"]?.intValue == 3)
            #expect(!FileManager.default.fileExists(atPath: "\(dir)/big.events.jsonl"))
        }
    }
}
