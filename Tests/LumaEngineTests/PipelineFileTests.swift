import Foundation
import LumaAnalysis
import LumaEngine
import LumaTestSupport
import Testing

/// A pipeline file is read by the engine, where replay, live analysis, regress and sweep all set
/// up from it; what is wrong with one is a typed value naming the file, never a command's words.
@Suite("Pipeline files: read by the engine, their problems typed")
struct PipelineFileTests {
    @Test("a pipeline's analyzers are read in order")
    func readsAnalyzers() throws {
        try withScratchFolder("pipeline") { dir in
            let path = "\(dir)/p.json"
            try Data(#"{"analyzers":[{"name":"differencing"},{"name":"b","analyzer":"differencing"}]}"#.utf8).write(to: URL(fileURLWithPath: path))
            let setups = try PipelineFile.read(path, registry: testRegistry)
            #expect(setups.map(\.name) == ["differencing", "b"])
            #expect(setups.map(\.analyzer) == ["differencing", "differencing"])
        }
    }

    @Test("not JSON, no analyzers, a folder: a PipelineFileError naming the file and the problem")
    func typedProblems() throws {
        try withScratchFolder("pipeline") { dir in
            let notJSON = "\(dir)/a.json", empty = "\(dir)/b.json"
            try Data("{analyzers".utf8).write(to: URL(fileURLWithPath: notJSON))
            try Data(#"{"stages":[]}"#.utf8).write(to: URL(fileURLWithPath: empty))
            func problem(_ path: String) -> PipelineFileError? {
                do { _ = try PipelineFile.read(path, registry: testRegistry); return nil } catch { return error as? PipelineFileError }
            }
            let a = try #require(problem(notJSON))
            #expect(a.path == notJSON)
            if case .notJSON = a.problem {} else { Issue.record("expected notJSON, got \(a.problem)") }
            #expect(problem(empty) == PipelineFileError(path: empty, problem: .noAnalyzers))
            let folder = try #require(problem(dir))
            if case .notAFile = folder.problem {} else { Issue.record("expected notAFile, got \(folder.problem)") }
            #expect(folder.description.hasPrefix(dir + ": "))
        }
    }

    @Test("a setup that would start no program passes the permission check when programs are not allowed")
    func permissionWithoutPrograms() throws {
        let setups = [try AnalyzerSetup.parse(.object([.init("name", .string("differencing"))]), registry: testRegistry, source: "p.json")]
        try ProgramPermission.require(setups, from: "p.json", registry: testRegistry, allowed: false)
        let refused = ProgramNotAllowed(source: "p.json", program: "sh run.sh", analyzer: "ext")
        #expect(refused.description == "p.json would run a program: `sh run.sh` (analyzer ext); a program named in a file runs only when allowed")
    }
}
