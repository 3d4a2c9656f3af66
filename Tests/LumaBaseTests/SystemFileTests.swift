#if canImport(Glibc)
import Glibc
#endif
import LumaBase
import LumaTestSupport
import Testing

/// The system layer on real files in a scratch folder: what each call does, and that each failure
/// is the `SystemCallError` (call and `errno`) its caller wraps with the path.
@Suite("SystemFile: open, create, read, write, and the errors they throw")
struct SystemFileTests {
    @Test("opening a missing file is .open with ENOENT")
    func openMissing() {
        withScratchFolder("system-file") { dir in
            #expect(throws: SystemCallError(.open, errno: ENOENT)) { try SystemFile.open(dir + "/missing", for: .read) }
            #expect(throws: SystemCallError(.openForWriting, errno: ENOENT)) { try SystemFile.open(dir + "/missing", for: .update) }
            #expect(SystemCallError(.open, errno: ENOENT).description == "cannot open: No such file or directory")
        }
    }

    @Test("creating an existing file exclusively is EEXIST and leaves it alone; truncating empties it")
    func createExclusive() throws {
        try withScratchFolder("system-file") { dir in
            let path = dir + "/a"
            try SystemFile.create(path, .exclusive).write(Array("kept".utf8))
            #expect(throws: SystemCallError(.create(), errno: EEXIST)) { try SystemFile.create(path, .exclusive) }
            #expect(SystemPath.contents(of: path) == Array("kept".utf8))
            _ = try SystemFile.create(path, .truncating)
            #expect(SystemPath.contents(of: path) == [])
        }
    }

    @Test("a positioned read fills the buffer, or says how much the file had; a read past the end is 0 bytes")
    func positionedReads() throws {
        try withScratchFolder("system-file") { dir in
            let path = dir + "/bytes"
            try SystemFile.create(path, .exclusive).write((0..<100).map { UInt8($0) })
            let file = try SystemFile.open(path, for: .read)
            #expect(try file.status().size == 100)
            #expect(try file.status().kind == .regularFile)
            var buffer = [UInt8](repeating: 0xFF, count: 10)
            let whole = try buffer.withUnsafeMutableBytes { try file.read(at: 40, into: $0) }
            #expect(whole == 10)
            #expect(buffer == Array(40..<50))
            let cut = try buffer.withUnsafeMutableBytes { try file.read(at: 95, into: $0) }
            #expect(cut == 5, "only 5 bytes from 95 in a file of 100")
            let past = try buffer.withUnsafeMutableBytes { try file.read(at: 1000, into: $0) }
            #expect(past == 0)
            // The sequential position was not moved by the positioned reads.
            #expect(try file.read(upTo: 3) == [0, 1, 2])
        }
    }

    @Test("a write is whole; seek, truncate and sync act on the file; a write to a file opened for reading is .write with EBADF")
    func writes() throws {
        try withScratchFolder("system-file") { dir in
            let path = dir + "/w"
            let file = try SystemFile.create(path, .exclusive)
            let big = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            try file.write(big)
            #expect(try file.position() == UInt64(big.count))
            try file.truncate(to: 10)
            try file.seek(to: 10)
            try file.write([1, 2, 3])
            try file.sync()
            #expect(SystemPath.contents(of: path) == Array(big[..<10]) + [1, 2, 3])
            let reader = try SystemFile.open(path, for: .read)
            #expect(throws: SystemCallError(.write, errno: EBADF)) { try reader.write([0]) }
        }
    }

    @Test("only one open file holds the lock; closing it lets the next take it")
    func locks() throws {
        try withScratchFolder("system-file") { dir in
            let first = try SystemFile.create(dir + "/.lock", .keepingContents)
            let second = try SystemFile.create(dir + "/.lock", .keepingContents)
            #expect(try first.tryLock())
            #expect(try !second.tryLock())
            first.close()
            #expect(try second.tryLock())
        }
    }

    @Test("a borrowed descriptor is not closed; an owned one is, once")
    func ownership() throws {
        try withScratchFolder("system-file") { dir in
            let owned = try SystemFile.create(dir + "/o", .exclusive)
            let number = owned.descriptor
            SystemFile.borrowing(number).close()
            #expect(fcntl(number, F_GETFD) >= 0, "closing a borrowed file closed the descriptor")
            owned.close()
            owned.close()  // (the number is not checked closed: a test running beside this one may have it now)
            #expect(owned.descriptor == -1)
        }
    }
}
