import Foundation
import LumaTestSupport
import Testing
@testable import LumaOutput

/// A writer killed before it finished (SIGKILL) leaves its partial folder, `.NAME.PID-N.partial`,
/// beside the output: the next writer of that output removes it, and only what it can prove is
/// a partial folder of that same output.
@Suite("Output folders: a killed writer's partial folder is cleaned up by the next, never another's")
struct PartialFolderTests {
    let scratch = ScratchFolder("partial")
    var folder: String { scratch.path }

    static func isFrame(_ name: String) -> Bool { name.hasPrefix("frame-") && name.hasSuffix(".png") }

    /// A partial folder as a writer leaves it when killed: the mark and `files`.
    func partial(_ name: String, mark: String?, files: [String]) throws -> String {
        let path = folder + "/" + name
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        if let mark { try Data(mark.utf8).write(to: URL(fileURLWithPath: path + "/.lumatrace-partial")) }
        for file in files { try Data("x".utf8).write(to: URL(fileURLWithPath: path + "/" + file)) }
        return path
    }

    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    @Test("a writer's partial folder holds the mark naming its output until it commits; the output has no mark")
    func markedUntilCommitted() throws {
        let path = folder + "/frames"
        let out = try OutputFolder.create(path, replacingExisting: false, owns: Self.isFrame)
        let mark = try String(contentsOfFile: out.temporaryPath + "/.lumatrace-partial", encoding: .utf8)
        #expect(mark == "lumatrace: the unfinished output folder frames\n")
        #expect(PartialFolders.isNamedPartial(PathParts(out.temporaryPath).name, of: path))
        try out.write(Array("a".utf8), to: "frame-000000.png")
        try out.commit()
        #expect(try FileManager.default.contentsOfDirectory(atPath: path) == ["frame-000000.png"])
    }

    @Test("the next writer of the output, with --force or not, removes the partial folders killed writers of it left")
    func staleOnesRemoved() throws {
        let path = folder + "/frames"
        let mark = "lumatrace: the unfinished output folder frames\n"
        let empty = try partial(".frames.4242-1.partial", mark: mark, files: [])
        let written = try partial(".frames.4243-7.partial", mark: mark, files: ["frame-000000.png", "frame-000001.png"])
        let out = try OutputFolder.create(path, replacingExisting: false, owns: Self.isFrame)
        #expect(!exists(empty) && !exists(written))
        out.abandon()

        let again = try partial(".frames.4244-1.partial", mark: mark, files: ["frame-000002.png"])
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try Data("old".utf8).write(to: URL(fileURLWithPath: path + "/frame-000000.png"))
        let forced = try OutputFolder.create(path, replacingExisting: true, owns: Self.isFrame)
        #expect(!exists(again))
        try forced.commit()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["frames"])
    }

    @Test("left alone: another output's, one without the mark or with another's, one holding a file the writer never writes, a link, a name not PID-N")
    func othersKept() throws {
        let path = folder + "/frames"
        let mark = "lumatrace: the unfinished output folder frames\n"
        let kept = [
            try partial(".frames2.1-1.partial", mark: "lumatrace: the unfinished output folder frames2\n", files: []),
            try partial(".other.1-1.partial", mark: "lumatrace: the unfinished output folder other\n", files: []),
            try partial(".frames.1-2.partial", mark: nil, files: ["frame-000000.png"]),
            try partial(".frames.1-3.partial", mark: "lumatrace: the unfinished output folder other\n", files: []),
            try partial(".frames.1-4.partial", mark: mark, files: ["notes.txt"]),
            try partial(".frames.x-5.partial", mark: mark, files: []),
            try partial(".frames.1-6.partial.keep", mark: mark, files: []),
        ]
        let target = try partial("elsewhere", mark: mark, files: [])
        try FileManager.default.createSymbolicLink(atPath: folder + "/.frames.1-7.partial", withDestinationPath: target)
        let out = try OutputFolder.create(path, replacingExisting: false, owns: Self.isFrame)
        out.abandon()
        for path in kept + [folder + "/.frames.1-7.partial", target] { #expect(exists(path), "\(path) was removed") }
        #expect(exists(kept[4] + "/notes.txt") && exists(target + "/.lumatrace-partial"))
    }

    @Test("a writer killed in its final swap leaves folders the next writer recognizes and removes: the old output aside, the partial name holding the old output, an empty one, a mark in the output")
    func killedInTheSwap() throws {
        let path = folder + "/frames"
        let mark = "lumatrace: the unfinished output folder frames\n"
        let aside = try partial(".frames.4242-1.old", mark: nil, files: ["frame-000000.png"])
        let exchanged = try partial(".frames.4242-2.partial", mark: mark, files: ["frame-000000.png", "frame-000001.png"])
        let emptied = try partial(".frames.4242-3.partial", mark: nil, files: [])
        _ = try partial("frames", mark: mark, files: ["frame-000000.png"])
        // Without --force the finished output is refused, and what the killed writer left removed all the same.
        #expect(throws: OutputError.exists(path: path)) { try OutputFolder.create(path, replacingExisting: false, owns: Self.isFrame) }
        #expect(!exists(aside) && !exists(exchanged) && !exists(emptied))
        #expect(!exists(path + "/.lumatrace-partial"), "the mark a killed swap left in the output")
        let out = try OutputFolder.create(path, replacingExisting: true, owns: Self.isFrame)
        try out.write(Array("b".utf8), to: "frame-000000.png")
        try out.commit()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["frames"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: path) == ["frame-000000.png"])
    }

    @Test("an old folder aside holding anything the writer never writes is left alone")
    func foreignOldKept() throws {
        let kept = try partial(".frames.4242-1.old", mark: nil, files: ["frame-000000.png", "notes.txt"])
        let out = try OutputFolder.create(folder + "/frames", replacingExisting: false, owns: Self.isFrame)
        out.abandon()
        #expect(exists(kept + "/notes.txt"))
    }

    @Test("the output is never a symbolic link, and a link or a folder inside it makes it someone else's, even with --force")
    func linksRefused() throws {
        let target = try partial("elsewhere", mark: nil, files: ["frame-000000.png"])
        try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: target)
        #expect(throws: OutputError.symbolicLink(path: folder + "/link")) {
            try OutputFolder.create(folder + "/link", replacingExisting: true, owns: Self.isFrame)
        }
        let inside = try partial("frames", mark: nil, files: ["frame-000000.png"])
        try FileManager.default.createSymbolicLink(atPath: inside + "/frame-000001.png", withDestinationPath: target + "/frame-000000.png")
        #expect(throws: OutputError.symbolicLink(path: inside + "/frame-000001.png")) {
            try OutputFolder.create(inside, replacingExisting: true, owns: Self.isFrame)
        }
        try FileManager.default.removeItem(atPath: inside + "/frame-000001.png")
        try FileManager.default.createDirectory(atPath: inside + "/frame-000002.png", withIntermediateDirectories: false)
        #expect(throws: OutputError.foreignFolder(path: inside, example: "frame-000002.png")) {
            try OutputFolder.create(inside, replacingExisting: true, owns: Self.isFrame)
        }
        #expect(exists(target + "/frame-000000.png"))
    }
}
