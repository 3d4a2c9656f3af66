import Foundation
import LumaAnalysis
import LumaEngine
import Testing
import LumaTestSupport

/// `lumatrace new-analyzer`: an out-of-tree plugin package, built against this checkout.
@Suite("new-analyzer: a plugin package that builds, tests and replays out of the box")
struct NewAnalyzerTests {
    @Test("new-analyzer Foo → swift build, swift test, and its lumatrace replays a bundled recording through foo and the built-ins")
    func scaffold() throws {
        let swift = try ExternalTool.swift.require()
        let dir = Scratch.folder("cli")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let created = try CLI.run(["new-analyzer", "Foo", "--lumatrace", PackageLayout.root.path], cwd: dir)
        #expect(created.status == 0, "\(created.stderr)")
        let package = "\(dir)/Foo"
        let test = try ProgramRun.run(swift, ["test"], cwd: package)
        #expect(test.status == 0, "swift test in the generated package failed:\n\(test.stdout.suffix(3000))\(test.stderr.suffix(3000))")
        let binPath = try ProgramRun.run(swift, ["build", "--show-bin-path"], cwd: package).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let recording = PackageLayout.root.appendingPathComponent("Recordings/toss-real.luma").path
        let replay = try ProgramRun.run("\(binPath)/lumatrace-foo", ["replay", recording, "--analyzer", "foo", "--analyzer", "differencing",
                                                                 "--set", "foo.threshold=0.5", "-o", "\(dir)/foo.events.jsonl"])
        #expect(replay.status == 0, "\(replay.stderr)")
        let log = try EventLog.read("\(dir)/foo.events.jsonl")
        #expect(log.header.analyzers.map(\.name) == ["foo", "differencing"])
        #expect(log.events.contains { $0.analyzer == "differencing" })
        // Refusals: an existing folder, a name that is not a type name.
        #expect(try CLI.run(["new-analyzer", "Foo"], cwd: dir).stderr.contains("Foo already exists"))
        #expect(try CLI.run(["new-analyzer", "foo-bar"], cwd: dir).stderr.contains("is not a type name"))
    }
}
