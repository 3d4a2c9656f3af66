#if canImport(Glibc)
import Glibc
#endif
import LumaBase
import LumaTestSupport
import Testing

/// `SystemFile.readWhole`: the one way a small file a user names (a truth file, a label file, a
/// `--set @FILE` value, a regress part) is read, never holding more than its limit.
@Suite("SystemFile.readWhole: a small file read whole, or refused for what it is, before it is held")
struct WholeFileReadTests {
    @Test("a regular file up to the limit is read whole; one byte over is refused with its size")
    func regularFiles() throws {
        try withScratchFolder("whole-file") { dir in
            let path = dir + "/value.txt"
            try SystemFile.create(path, .exclusive).write(Array(repeating: 0x41, count: 100))
            #expect(try SystemFile.readWhole(path, maximumBytes: 100) == Array(repeating: 0x41, count: 100))
            #expect(throws: SystemFile.WholeFileProblem.tooLarge(bytes: 100, limit: 99)) { try SystemFile.readWhole(path, maximumBytes: 99) }
            #expect(SystemFile.WholeFileProblem.tooLarge(bytes: 100, limit: 99).description == "is 100 bytes, over the 99-byte limit")
            let empty = dir + "/empty"
            _ = try SystemFile.create(empty, .exclusive)
            #expect(try SystemFile.readWhole(empty, maximumBytes: 10) == [])
        }
    }

    @Test("a 4 GiB sparse file named as a small one is refused by its size, nothing of it read")
    func hugeFileIsNotRead() throws {
        try withScratchFolder("whole-file") { dir in
            let path = dir + "/huge.txt"
            let file = try SystemFile.create(path, .exclusive)
            try file.truncate(to: 4 << 30)
            let used = ThreadCPUTime.measure {
                #expect(throws: SystemFile.WholeFileProblem.tooLarge(bytes: 4 << 30, limit: 16 << 20)) {
                    try SystemFile.readWhole(path, maximumBytes: 16 << 20)
                }
            }.used
            // Reading 4 GiB of zeros takes seconds of CPU; refusing by the size takes microseconds.
            #expect(used < .milliseconds(500), "refusing took \(used) of CPU")
        }
    }

    @Test("a folder, a device, or a pipe where pipes are not taken is refused for what it is, without waiting for a writer")
    func notFiles() {
        withScratchFolder("whole-file") { dir in
            #expect(throws: SystemFile.WholeFileProblem.notAFile(.folder)) { try SystemFile.readWhole(dir, maximumBytes: 10) }
            #expect(throws: SystemFile.WholeFileProblem.notAFile(.characterDevice)) { try SystemFile.readWhole("/dev/zero", maximumBytes: 10) }
            #expect(SystemFile.WholeFileProblem.notAFile(.characterDevice).description == "is a character device")
            let fifo = dir + "/fifo"
            #expect(mkfifo(fifo, 0o600) == 0)
            // No writer ever comes: a reader that waited would hang here.
            #expect(throws: SystemFile.WholeFileProblem.notAFile(.fifo)) { try SystemFile.readWhole(fifo, maximumBytes: 10) }
        }
    }

    @Test("a missing file is .unreadable with the open's errno")
    func missing() {
        withScratchFolder("whole-file") { dir in
            let missing = dir + "/missing"
            #expect(throws: SystemFile.WholeFileProblem.unreadable(SystemCallError(.open, errno: ENOENT))) {
                try SystemFile.readWhole(missing, maximumBytes: 10)
            }
        }
    }

    @Test("a pipe (the shell's <(…)) is read to its end where pipes are taken; one that sends more than the limit is refused")
    func pipes() throws {
        func pipe(sending bytes: [UInt8]) throws -> (path: String, readEnd: Int32) {
            var ends: [Int32] = [0, 0]
            #expect(Glibc.pipe(&ends) == 0)
            try SystemFile.adopting(ends[1]).write(bytes)   // closed when released: the end of the stream
            return ("/dev/fd/\(ends[0])", ends[0])
        }
        let small = try pipe(sending: Array("12.5\n".utf8))
        defer { close(small.readEnd) }
        #expect(try SystemFile.readWhole(small.path, maximumBytes: 10, acceptingPipes: true) == Array("12.5\n".utf8))

        let large = try pipe(sending: Array(repeating: 7, count: 5000))
        defer { close(large.readEnd) }
        #expect(throws: SystemFile.WholeFileProblem.tooLarge(bytes: nil, limit: 100)) {
            try SystemFile.readWhole(large.path, maximumBytes: 100, acceptingPipes: true)
        }
        #expect(SystemFile.WholeFileProblem.tooLarge(bytes: nil, limit: 100).description == "holds more than the 100-byte limit")
    }
}
