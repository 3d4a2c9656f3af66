import Foundation
import Testing
import LumaTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `scripts/get-clips` writes into a shared data folder from a mirror it does not control: it copies
/// only regular files, no more bytes than the corpus's largest clip, through a temporary name of its
/// own, and never writes or changes anything outside `--to`.
@Suite("get-clips copies only regular files, bounded, and writes nothing outside --to")
struct GetClipsSafetyTests {
    static let script = ClipCorpusTests.script
    static let clip = "ball-vertical-toss/ball.mp4"

    /// A mirror of the corpus made of links to its files (a link to a file with the right bytes is
    /// a good mirror entry), for a test to spoil one entry of.
    static func linkMirror(of corpus: URL, at mirror: String) throws {
        for (_, path) in try ClipCorpusTests.listed() {
            let entry = "\(mirror)/\(path)"
            try FileManager.default.createDirectory(atPath: (entry as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: entry, withDestinationPath: corpus.appendingPathComponent(path).path)
        }
    }

    /// Every file name under `folder` that a copy in progress would leave.
    static func partials(under folder: String) -> [String] {
        (FileManager.default.subpaths(atPath: folder) ?? []).filter { $0.hasSuffix(".partial") }
    }

    @Test("a mirror entry that is a device, a FIFO or a folder is refused at once, and no partial file is left",
          .clipCorpus, arguments: ["device", "fifo", "folder"])
    func onlyRegularFilesAreCopied(kind: String) throws {
        let corpus = try ClipCorpus.require()
        try withScratchFolder("clips-kind") { dir in
            try Self.linkMirror(of: corpus, at: "\(dir)/m")
            let entry = "\(dir)/m/\(Self.clip)"
            try FileManager.default.removeItem(atPath: entry)
            switch kind {
            case "device": try FileManager.default.createSymbolicLink(atPath: entry, withDestinationPath: "/dev/zero")
            case "fifo": #expect(mkfifo(entry, 0o644) == 0)
            default: try FileManager.default.createDirectory(atPath: entry, withIntermediateDirectories: false)
            }
            // A copy of /dev/zero or a read of a FIFO would never end: the patience turns that into a failure.
            let run = try ProgramRun.run(Self.script, ["--from", "\(dir)/m", "--to", "\(dir)/to"], patience: 300)
            #expect(run.status == 1, "\(run)")
            #expect(run.stderr.contains("\(dir)/m/\(Self.clip): not a regular file; only files are copied"), "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: "\(dir)/to/\(Self.clip)"))
            #expect(Self.partials(under: "\(dir)/to") == [])
        }
    }

    @Test("a mirror file larger than the corpus's largest clip is not copied past that size", .clipCorpus)
    func copiesAreBounded() throws {
        let corpus = try ClipCorpus.require()
        try withScratchFolder("clips-huge") { dir in
            try Self.linkMirror(of: corpus, at: "\(dir)/m")
            let entry = "\(dir)/m/\(Self.clip)"
            try FileManager.default.removeItem(atPath: entry)
            #expect(FileManager.default.createFile(atPath: entry, contents: nil))
            #expect(truncate(entry, 1 << 40) == 0)  // a sparse terabyte
            let run = try ProgramRun.run(Self.script, ["--from", "\(dir)/m", "--to", "\(dir)/to"], patience: 300)
            #expect(run.status == 1, "\(run)")
            #expect(run.stderr.contains("\(entry): larger than the largest clip of SHA256SUMS"), "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: "\(dir)/to/\(Self.clip)"))
            #expect(Self.partials(under: "\(dir)/to") == [])
        }
    }

    @Test("the size bound is the largest file the corpus holds", .clipCorpus)
    func boundIsTheLargestClip() throws {
        let corpus = try ClipCorpus.require()
        var largest = 0
        for (_, path) in try ClipCorpusTests.listed() {
            let size = try FileManager.default.attributesOfItem(atPath: corpus.appendingPathComponent(path).path)[.size] as! Int
            largest = max(largest, size)
        }
        let script = try String(contentsOfFile: Self.script, encoding: .utf8)
        #expect(script.contains("largest_clip=\(largest) "), "scripts/get-clips's largest_clip is not \(largest)")
    }

    @Test("a .partial link planted in --to is never written through, and nothing outside --to changes", .clipCorpus)
    func plantedLinksAreNotFollowed() throws {
        let corpus = try ClipCorpus.require()
        try withScratchFolder("clips-plant") { dir in
            try Self.linkMirror(of: corpus, at: "\(dir)/m")
            try FileManager.default.createDirectory(atPath: "\(dir)/to/ball-vertical-toss", withIntermediateDirectories: true)
            try Data("precious\n".utf8).write(to: URL(fileURLWithPath: "\(dir)/victim.txt"))
            try FileManager.default.createSymbolicLink(atPath: "\(dir)/to/\(Self.clip).partial", withDestinationPath: "\(dir)/victim.txt")
            let run = try ProgramRun.run(Self.script, ["--from", "\(dir)/m", "--to", "\(dir)/to"])
            #expect(run.status == 0, "\(run)")
            #expect(try String(contentsOfFile: "\(dir)/victim.txt", encoding: .utf8) == "precious\n")
            let mode = try FileManager.default.attributesOfItem(atPath: "\(dir)/victim.txt")[.posixPermissions] as! Int
            #expect(mode & 0o200 != 0, "the victim was made read-only")
            let kind = try FileManager.default.attributesOfItem(atPath: "\(dir)/to/\(Self.clip)")[.type] as? FileAttributeType
            #expect(kind == .typeRegular)
        }
    }

    @Test("a target that is a folder is refused, not filled", .clipCorpus)
    func folderTargetsAreRefused() throws {
        let corpus = try ClipCorpus.require()
        try withScratchFolder("clips-folder") { dir in
            try Self.linkMirror(of: corpus, at: "\(dir)/m")
            try FileManager.default.createDirectory(atPath: "\(dir)/to/\(Self.clip)", withIntermediateDirectories: true)
            let run = try ProgramRun.run(Self.script, ["--from", "\(dir)/m", "--to", "\(dir)/to"])
            #expect(run.status == 1, "\(run)")
            #expect(run.stderr.contains("\(dir)/to/\(Self.clip): is a folder, not a file; it is left alone"), "\(run.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: "\(dir)/to/\(Self.clip)") == [])
        }
    }

    @Test("a --to whose name starts with a dash is a folder, not an option", .clipCorpus)
    func dashNamedFolders() throws {
        let corpus = try ClipCorpus.require()
        try withScratchFolder("clips-dash") { dir in
            try Self.linkMirror(of: corpus, at: "\(dir)/m")
            let run = try ProgramRun.run(Self.script, ["--from", "m", "--to", "-dash"], cwd: dir)
            #expect(run.status == 0, "\(run)")
            #expect(FileManager.default.fileExists(atPath: "\(dir)/-dash/\(Self.clip)"))
        }
    }

    @Test("two runs into one --to at once both finish with their summary", .clipCorpus)
    func concurrentRuns() throws {
        let corpus = try ClipCorpus.require()
        try withScratchFolder("clips-two") { dir in
            try Self.linkMirror(of: corpus, at: "\(dir)/m")
            let arguments = ["--from", "\(dir)/m", "--to", "\(dir)/to"]
            let first = try RunningProgram(Self.script, arguments, stdin: .nothing)
            let second = try ProgramRun.run(Self.script, arguments)
            let firstResult = try first.wait(patience: ProgramRun.patience)
            for run in [firstResult, second] {
                #expect(run.status == 0, "\(run)")
                #expect(run.stdout.contains("files fetched"), "\(run.stdout)")
            }
            #expect(Self.partials(under: "\(dir)/to") == [])
            #expect(try ProgramRun.run(Self.script, ["--check", "\(dir)/to"]).status == 0)
        }
    }
}
