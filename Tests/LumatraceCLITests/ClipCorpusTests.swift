import Foundation
import Testing
import LumaTestSupport

/// The clip corpus can be rebuilt by anyone: `Tests/ClipCorpus/SOURCES` says where each folder's
/// files come from, `SHA256SUMS` what their bytes must be, and `scripts/get-clips` fetches and checks
/// them (here from the corpus beside the checkout, as from a mirror: CI has no network).
@Suite("Clip corpus: every file has a source, and scripts/get-clips keeps only checked bytes")
struct ClipCorpusTests {
    static let manifest = PackageLayout.root.appendingPathComponent("Tests/ClipCorpus")
    static let script = PackageLayout.root.appendingPathComponent("scripts/get-clips").path

    /// The `./folder/…` paths of SHA256SUMS, with their sums.
    static func listed() throws -> [(sum: String, path: String)] {
        try String(contentsOf: manifest.appendingPathComponent("SHA256SUMS"), encoding: .utf8)
            .split(separator: "\n").map { line in
                let fields = line.split(separator: " ", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                return (fields[0], String(fields[1].dropFirst(2)))
            }
    }

    @Test("every folder of SHA256SUMS has one source line: a repository, a 40-digit commit, a folder in it and a licence")
    func everyFolderHasASource() throws {
        let lines = try String(contentsOf: Self.manifest.appendingPathComponent("SOURCES"), encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("#") }
        var sources: [String: [Substring]] = [:]
        for line in lines {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            #expect(fields.count == 5, "\(line)")
            guard fields.count == 5 else { continue }
            #expect(sources[String(fields[0])] == nil, "\(fields[0]) has two lines")
            #expect(fields[1].split(separator: "/").count == 2, "\(line): the repository is owner/name")
            #expect(fields[2].count == 40 && fields[2].allSatisfy(\.isHexDigit), "\(line): the commit is 40 hex digits")
            #expect(!fields[4].isEmpty, "\(line): the licence is stated")
            sources[String(fields[0])] = fields
        }
        let listed = try Self.listed()
        #expect(listed.count >= 200)
        let folders = Set(listed.map { String($0.path.prefix { $0 != "/" }) })
        #expect(folders == Set(sources.keys), "SHA256SUMS folders \(folders.sorted()) against SOURCES \(sources.keys.sorted())")
        #expect(listed.allSatisfy { $0.sum.count == 64 && $0.sum.allSatisfy(\.isHexDigit) })
    }

    @Test("the corpus beside the checkout is the one SHA256SUMS lists", .clipCorpus)
    func corpusMatchesTheManifest() throws {
        let corpus = try ClipCorpus.require()
        let run = try ProgramRun.run(Self.script, ["--check", corpus.path])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("\(try Self.listed().count) of \(try Self.listed().count) files match"), "\(run.stdout)")
    }

    @Test("get-clips copies a mirror file by file, checked; resumes; and never replaces a file whose bytes differ", .clipCorpus)
    func getClipsFromAMirror() throws {
        let corpus = try ClipCorpus.require()
        let total = try Self.listed().count
        try withScratchFolder("clips") { dir in
            let to = "\(dir)/data"
            let first = try ProgramRun.run(Self.script, ["--from", corpus.path, "--to", to])
            #expect(first.status == 0, "\(first)")
            #expect(first.stdout.contains("\(total) files fetched, 0 already there, 0 not kept"), "\(first.stdout)")
            // A file lost mid-way is fetched again, the others kept.
            let lost = "\(to)/otb-crossing/img/0007.jpg"
            try FileManager.default.removeItem(atPath: lost)
            let again = try ProgramRun.run(Self.script, ["--from", corpus.path, "--to", to])
            #expect(again.status == 0 && again.stdout.contains("1 files fetched, \(total - 1) already there"), "\(again)")
            // A file with other bytes is reported and left as it is.
            let changed = "\(to)/otb-crossing/groundtruth_rect.txt"
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: changed)
            try Data("not the truth\n".utf8).write(to: URL(fileURLWithPath: changed))
            let refused = try ProgramRun.run(Self.script, ["--from", corpus.path, "--to", to])
            #expect(refused.status == 1, "\(refused)")
            #expect(refused.stderr.contains("\(changed): its bytes differ from SHA256SUMS; it is left alone"), "\(refused.stderr)")
            #expect(try String(contentsOfFile: changed, encoding: .utf8) == "not the truth\n")
            let check = try ProgramRun.run(Self.script, ["--check", to])
            #expect(check.status == 1 && check.stdout.contains("\(total - 1) of \(total) files match"), "\(check)")
            #expect(!FileManager.default.subpaths(atPath: to)!.contains { $0.hasSuffix(".partial") })
        }
    }
}
