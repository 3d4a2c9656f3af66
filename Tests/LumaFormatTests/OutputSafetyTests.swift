import Foundation
@testable import LumaFormat
import Testing
import LumaTestSupport
@testable import LumaOutput

@Suite("An output never destroys: not its input, not a folder, not a device, not a good result")
struct OutputSafetyTests {
    /// A fresh folder for each test, removed after it.
    let scratch = ScratchFolder("output")
    var folder: String { scratch.path }

    func file(_ name: String, _ text: String) throws -> String {
        let path = folder + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func contents(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Names in the folder other than the ones given: temporary files or locks left behind.
    func leftovers(except names: Set<String>) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { !names.contains($0) }.sorted()
    }

    @Test func aNewFileAppearsOnlyWhenCommitted() throws {
        let path = folder + "/log.jsonl"
        let out = try OutputFile.create(path, replacingExisting: false, streams: .allowed)
        try out.write("first line\n")
        #expect(!FileManager.default.fileExists(atPath: path))
        try out.commit()
        #expect(contents(path) == "first line\n")
        #expect(try leftovers(except: ["log.jsonl"]).isEmpty)
    }

    @Test func anAbandonedResultLeavesTheOldOneAndNoTrace() throws {
        let path = try file("log.jsonl", "good\n")
        let out = try OutputFile.create(path, replacingExisting: true, streams: .allowed)
        try out.write("half")
        out.abandon()
        #expect(contents(path) == "good\n")
        #expect(try leftovers(except: ["log.jsonl"]).isEmpty)
    }

    @Test func anExistingFileNeedsForceAndIsReplacedWhole() throws {
        let path = try file("log.jsonl", "good\n")
        #expect(throws: OutputError.exists(path: path)) { try OutputFile.create(path, replacingExisting: false, streams: .allowed) }
        let out = try OutputFile.create(path, replacingExisting: true, streams: .allowed)
        try out.write("better\n")
        #expect(contents(path) == "good\n")
        try out.commit()
        #expect(contents(path) == "better\n")
    }

    @Test func theInputIsNeverTheOutputEvenThroughALink() throws {
        let input = try file("clip.luma", "frames")
        let link = folder + "/alias.luma"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: input)
        let hard = folder + "/hard.luma"
        try FileManager.default.linkItem(atPath: input, toPath: hard)
        for output in [input, link, hard] {
            #expect(throws: OutputError.isInput(path: output, input: input)) {
                try OutputFile.create(output, replacingExisting: true, inputs: [input], streams: .allowed)
            }
        }
        #expect(contents(input) == "frames")
    }

    @Test func aFolderIsNeverReplacedByAFile() throws {
        let sub = folder + "/results"
        try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
        _ = try file("results/keep.txt", "mine")
        #expect(throws: OutputError.wrongKind(path: sub, found: "a folder", wanted: "a file")) {
            try OutputFile.create(sub, replacingExisting: true, streams: .allowed)
        }
        #expect(contents(sub + "/keep.txt") == "mine")
    }

    @Test func aDeviceIsWrittenToNeverReplaced() throws {
        let out = try OutputFile.create("/dev/null", replacingExisting: false, streams: .allowed)
        #expect(out.isStream)
        try out.write("discarded")
        try out.commit()
        var st = stat()
        #expect(stat("/dev/null", &st) == 0 && (st.st_mode & S_IFMT) == S_IFCHR)
        #expect(throws: OutputError.notAFile(path: "/dev/null", found: "a character device", why: "a recording needs a file")) {
            try OutputFile.create("/dev/null", replacingExisting: true, streams: .refused(why: "a recording needs a file"))
        }
    }

    @Test func aFullDiskIsAnErrorThatNamesTheOutput() throws {
        let out = try OutputFile.create("/dev/full", replacingExisting: false, streams: .allowed)
        #expect {
            try out.write([UInt8](repeating: 1, count: 1 << 16))
        } throws: { error in
            "\(error)".hasPrefix("/dev/full: write failed: No space left on device")
        }
    }

    @Test func twoWritersOfOneOutputCannotOverlap() throws {
        let path = folder + "/log.jsonl"
        let first = try OutputFile.create(path, replacingExisting: false, streams: .allowed)
        #expect(throws: OutputError.busy(path: path)) { try OutputFile.create(path, replacingExisting: true, streams: .allowed) }
        try first.write("one\n")
        try first.commit()
        let second = try OutputFile.create(path, replacingExisting: true, streams: .allowed)
        try second.write("two\n")
        try second.commit()
        #expect(contents(path) == "two\n")
        #expect(try leftovers(except: ["log.jsonl"]).isEmpty)
    }

    @Test func aFileThatAppearsMeanwhileIsNotReplacedWithoutForce() throws {
        let path = folder + "/log.jsonl"
        let out = try OutputFile.create(path, replacingExisting: false, streams: .allowed)
        try out.write("mine\n")
        _ = try file("log.jsonl", "someone else's\n")
        #expect(throws: OutputError.exists(path: path)) { try out.commit() }
        #expect(contents(path) == "someone else's\n")
        #expect(try leftovers(except: ["log.jsonl"]).isEmpty)
    }

    @Test func aMissingFolderIsNamed() {
        let path = folder + "/no/such/log.jsonl"
        #expect(throws: OutputError.folderMissing(path: path, folder: folder + "/no/such")) {
            try OutputFile.create(path, replacingExisting: false, streams: .allowed)
        }
    }

    // MARK: - Folders

    static func isFrame(_ name: String) -> Bool { name.hasPrefix("frame-") && name.hasSuffix(".png") }

    @Test func aFolderResultAppearsWholeAndReplacesOnlyItsOwnKind() throws {
        let path = folder + "/frames"
        let out = try OutputFolder.create(path, replacingExisting: false, owns: Self.isFrame)
        try out.write(Array("a".utf8), to: "frame-000000.png")
        #expect(!FileManager.default.fileExists(atPath: path))
        try out.commit()
        #expect(contents(path + "/frame-000000.png") == "a")

        #expect(throws: OutputError.exists(path: path)) { try OutputFolder.create(path, replacingExisting: false, owns: Self.isFrame) }
        let again = try OutputFolder.create(path, replacingExisting: true, owns: Self.isFrame)
        try again.write(Array("b".utf8), to: "frame-000001.png")
        try again.commit()
        #expect(try OutputFolder.entries(of: path) == ["frame-000001.png"])
        #expect(try leftovers(except: ["frames"]).isEmpty)
    }

    @Test func aFolderWithOtherFilesIsNeverReplaced() throws {
        let recording = try file("clip.luma", "frames")
        #expect(throws: OutputError.foreignFolder(path: folder, example: "clip.luma")) {
            try OutputFolder.create(folder, replacingExisting: true, inputs: [recording], owns: Self.isFrame)
        }
        #expect(contents(recording) == "frames")
    }

    @Test func anAbandonedFolderLeavesNothing() throws {
        let path = folder + "/frames"
        let out = try OutputFolder.create(path, replacingExisting: false, owns: Self.isFrame)
        try out.write(Array("a".utf8), to: "frame-000000.png")
        out.abandon()
        #expect(try leftovers(except: []).isEmpty)
    }

    @Test("a recording is known by the magic the format writes: --force never puts another result over one")
    func recordingMagicIsTheFormats() {
        #expect(ResultKind.recordingMagic == RecordKind.header.magic)
        #expect(ResultKind.of(head: RecordKind.header.magic + [0, 0, 0, 0]) == .recording)
    }

    @Test("--force puts a log, a page, an image or a JUnit report only over a file of its own kind or an empty one: a user's text notes are refused, naming them")
    func forceReplacesOnlyItsOwnKind() throws {
        for kind in [ResultKind.eventLog, .page, .media, .junitReport] {
            let notes = try file("notes-\(kind.rawValue).txt", "my notes\n")
            #expect(throws: OutputError.otherKind(path: notes, found: .text, wanted: kind)) {
                try OutputFile.create(notes, replacingExisting: true, kind: kind, streams: .allowed)
            }
            #expect(contents(notes) == "my notes\n")
            let empty = try file("empty-\(kind.rawValue)", "")
            let out = try OutputFile.create(empty, replacingExisting: true, kind: kind, streams: .allowed)
            try out.write("x")
            try out.commit()
            #expect(contents(empty) == "x")
        }
        // Plain text (a timestamps file) still replaces text of no kind.
        let timestamps = try file("times.txt", "0.0\n")
        let out = try OutputFile.create(timestamps, replacingExisting: true, kind: .text, streams: .allowed)
        try out.write("1.0\n")
        try out.commit()
        #expect(contents(timestamps) == "1.0\n")
    }
}
