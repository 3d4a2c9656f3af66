import Foundation
import Glibc
import LumaBase
import Testing

@Suite("SystemPath.makeFolders: a folder and its missing parents, as mkdir -p")
struct MakeFoldersTests {
    @Test("nested folders are made, a folder already there is fine, a file in the way is refused with EEXIST")
    func nested() throws {
        let root = NSTemporaryDirectory() + "make-folders-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: root) }
        try SystemPath.makeFolders(root + "/a/b/c/")
        #expect(try SystemPath.status(of: root + "/a/b/c").kind == .folder)
        try SystemPath.makeFolders(root + "/a/b")
        FileManager.default.createFile(atPath: root + "/a/file", contents: Data())
        #expect(throws: SystemCallError(.makeFolder, errno: EEXIST)) { try SystemPath.makeFolders(root + "/a/file/d") }
    }
}
