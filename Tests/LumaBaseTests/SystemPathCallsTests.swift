#if canImport(Glibc)
import Glibc
#endif
import LumaBase
import LumaTestSupport
import Testing

/// The layer's calls on paths, on real files in a scratch folder.
@Suite("SystemPath calls: status, moves, removal, listing, folders")
struct SystemPathCallsTests {
    @Test("status follows links, linkStatus does not; a missing path is .stat with ENOENT")
    func status() throws {
        try withScratchFolder("system-path") { dir in
            try SystemFile.create(dir + "/f", .exclusive).write([1, 2, 3])
            #expect(symlink("f", dir + "/link") == 0 && symlink("nowhere", dir + "/dangling") == 0)
            #expect(try SystemPath.status(of: dir + "/link").kind == .regularFile)
            #expect(try SystemPath.status(of: dir + "/link").size == 3)
            #expect(try SystemPath.status(of: dir + "/link").isSameFile(as: SystemPath.status(of: dir + "/f")))
            #expect(try SystemPath.linkStatus(of: dir + "/link").kind == .symbolicLink)
            #expect(try SystemPath.linkStatus(of: dir + "/dangling").kind == .symbolicLink)
            #expect(throws: SystemCallError(.stat, errno: ENOENT)) { try SystemPath.status(of: dir + "/dangling") }
            #expect(try SystemPath.status(of: dir).kind == .folder)
            #expect(try SystemPath.resolved(dir + "/./link") == SystemPath.resolved(dir + "/f"))
            #expect(throws: SystemCallError(.resolve, errno: ENOENT)) { try SystemPath.resolved(dir + "/missing/x") }
        }
    }

    @Test("a move without replacing refuses an existing file with EEXIST and leaves both; with replacing, replaces")
    func moves() throws {
        try withScratchFolder("system-path") { dir in
            try SystemFile.create(dir + "/new", .exclusive).write(Array("new".utf8))
            try SystemFile.create(dir + "/old", .exclusive).write(Array("old".utf8))
            #expect(throws: SystemCallError(.moveIntoPlace, errno: EEXIST)) { try SystemPath.moveWithoutReplacing(dir + "/new", to: dir + "/old") }
            #expect(SystemPath.contents(of: dir + "/old") == Array("old".utf8))
            #expect(SystemPath.contents(of: dir + "/new") == Array("new".utf8))
            try SystemPath.moveWithoutReplacing(dir + "/new", to: dir + "/placed")
            #expect(SystemPath.contents(of: dir + "/placed") == Array("new".utf8))
            #expect(throws: SystemCallError(.stat, errno: ENOENT)) { try SystemPath.linkStatus(of: dir + "/new") }
            try SystemPath.move(dir + "/placed", to: dir + "/old")
            #expect(SystemPath.contents(of: dir + "/old") == Array("new".utf8))
            #expect(throws: SystemCallError(.moveIntoPlace, errno: ENOENT)) { try SystemPath.move(dir + "/placed", to: dir + "/x") }
        }
    }

    @Test("folders are made, listed, synced and removed; each failure names its call")
    func folders() throws {
        try withScratchFolder("system-path") { dir in
            let folder = dir + "/made"
            try SystemPath.makeFolder(folder)
            #expect(throws: SystemCallError(.makeFolder, errno: EEXIST)) { try SystemPath.makeFolder(folder) }
            for name in ["b", "a", "caf\u{F7E9}"] { _ = try SystemFile.create(folder + "/" + name, .exclusive) }
            #expect(try SystemPath.entries(of: folder).sorted() == ["a", "b", "caf\u{F7E9}"])
            try SystemPath.syncFolder(folder)
            #expect(throws: SystemCallError(.removeFolder, errno: ENOTEMPTY)) { try SystemPath.removeFolder(folder) }
            for name in try SystemPath.entries(of: folder) { try SystemPath.remove(folder + "/" + name) }
            #expect(throws: SystemCallError(.remove, errno: ENOENT)) { try SystemPath.remove(folder + "/a") }
            try SystemPath.removeFolder(folder)
            #expect(throws: SystemCallError(.list, errno: ENOENT)) { try SystemPath.entries(of: folder) }
            #expect(throws: SystemCallError(.open, errno: ENOENT)) { try SystemPath.syncFolder(folder) }
        }
    }

    @Test("an executable file is one that is regular and may be executed")
    func executable() throws {
        try withScratchFolder("system-path") { dir in
            _ = try SystemFile.create(dir + "/plain", .exclusive)
            #expect(!SystemPath.isExecutableFile(dir + "/plain"))
            #expect(!SystemPath.isExecutableFile(dir))
            #expect(SystemPath.isExecutableFile("/bin/sh"))
        }
    }
}
