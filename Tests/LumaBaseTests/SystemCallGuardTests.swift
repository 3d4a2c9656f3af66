import Foundation
import LumaTestSupport
import Testing

/// The file system is called only through the system layer, `Sources/LumaBase/System`, and a
/// program's life only there and in LumaProcess: so every failure is a `SystemCallError` with its
/// `errno`, every write is whole, every interrupted call retried, in one place each. A raw
/// `open(`, `rename(` or `stat(` anywhere else in `Sources/` or `Plugins/` fails here, naming the
/// file, the line and the call, with what to use instead.
@Suite("System calls: the file system is called only through LumaBase/System")
struct SystemCallGuardTests {
    /// Where calls may be made, and which: the layer makes them all; LumaProcess, the layer for
    /// programs, makes the calls of a program's life and reads, writes, polls and closes the
    /// program's pipes.
    static let allowed: [(folder: String, calls: Set<String>)] = [
        ("Sources/LumaBase/System/", RawSystemCalls.fileSystem.union(RawSystemCalls.process)),
        ("Sources/LumaProcess/", RawSystemCalls.process.union(["read", "write", "close", "fcntl", "poll"])),
    ]

    @Test("no file-system or process call outside the layers")
    func callsStayInTheLayers() throws {
        var scanned = 0
        var found: [String] = []
        for top in ["Sources", "Plugins"] {
            let folder = PackageLayout.root.appendingPathComponent(top)
            let files = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted()
            for file in files {
                let path = top + "/" + file
                let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                let permitted = Self.allowed.filter { path.hasPrefix($0.folder) }.reduce(into: Set<String>()) { $0.formUnion($1.calls) }
                let forbidden = RawSystemCalls.fileSystem.union(RawSystemCalls.process).subtracting(permitted)
                for call in RawSystemCalls.calls(in: source, of: forbidden) {
                    found.append("\(path):\(call.line): \(call.name)(")
                }
                scanned += 1
            }
        }
        #expect(scanned > 100, "the walk found only \(scanned) Swift files under Sources and Plugins")
        #expect(found.isEmpty, Comment(rawValue: """
            Raw system calls outside the system layer: use SystemFile (open, create, read, write, seek, truncate, sync, \
            lock, status) or SystemPath (status, move, remove, makeFolder, entries, syncFolder, resolved) from LumaBase, \
            whose failures are SystemCallErrors, and wrap them with the path in the module's own error; a program's \
            pipes and life belong to LumaProcess.
            \(found.joined(separator: "\n"))
            """))
    }

    /// Foundation's ways of reading a whole file, which read however much is there: a 2 GiB file
    /// named as a small one would be held in memory before anything could refuse it.
    static let unboundedReads = [".contents(atPath:", "Data(contentsOf:", "String(contentsOf", "FileHandle(forReadingAtPath:",
                                 "readDataToEndOfFile(", ".readToEnd(", "attributesOfItem("]

    /// The lines of `source`'s code (comments and strings blanked) that read a whole file with Foundation.
    static func unboundedReads(in source: String) -> [(line: Int, read: String)] {
        SwiftCode.blankingCommentsAndStrings(source).split(separator: "\n", omittingEmptySubsequences: false).enumerated().flatMap { index, line in
            unboundedReads.filter { line.contains($0) }.map { (index + 1, $0) }
        }
    }

    @Test("no whole-file read with Foundation: files are read through SystemFile.readWhole, bounded")
    func wholeFileReadsAreBounded() throws {
        var found: [String] = []
        for top in ["Sources", "Plugins"] {
            let folder = PackageLayout.root.appendingPathComponent(top)
            for file in try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter({ $0.hasSuffix(".swift") }).sorted() {
                let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                found += Self.unboundedReads(in: source).map { "\(top)/\(file):\($0.line): \($0.read)" }
            }
        }
        #expect(found.isEmpty, Comment(rawValue: """
            Whole-file reads with Foundation, which hold whatever size the file has: use SystemFile.readWhole(path, \
            maximumBytes:) for a file a user names, FileDigest for a digest, SystemPath.contents(of:) for a file \
            already read and checked.
            \(found.joined(separator: "\n"))
            """))
    }

    @Test("the whole-file scan finds Foundation's reads in code, not in comments or strings")
    func findsUnboundedReads() {
        let source = #"""
            let data = FileManager.default.contents(atPath: path)       // 1
            // Data(contentsOf: url) in a comment
            let text = try String(contentsOfFile: path, encoding: .utf8) // 3
            let message = "use Data(contentsOf:) never"
            let bytes = try SystemFile.readWhole(path, maximumBytes: 16) // bounded
            """#
        #expect(Self.unboundedReads(in: source).map { "\($0.line): \($0.read)" } == ["1: .contents(atPath:", "3: String(contentsOf"])
    }

    @Test("the scan finds raw calls, and only in code")
    func findsRawCalls() {
        let source = #"""
            import Glibc
            let fd = open(path, O_RDONLY)                 // 2: raw
            let n = Glibc.read(fd, &b, 4)                 // 3: raw, qualified
            _ = Foundation.rename(a, b); unlink(a)        // 4: two
            var st = stat()                               // 5: the stat struct
            if fstat(fd,
                     &st) == 0 { close(fd) }              // 6: two (fstat's line)
            try? file.read(at: 0, into: buffer)           // a member
            try read(frames)                              // throws: not C
            let x = write(bytes, to: "name")              // labelled: not C
            func link(_ a: String) {}                     // a declaration, and this file's own link(
            link("a")
            case .open(let path): break                   // an enum case
            // open(path, O_RDONLY) in a comment
            let text = "rename(a, b) in a string"
            let message = "\(mkdir(p, 0o755))"            // 16: interpolations are code
            """#
        let calls = RawSystemCalls.calls(in: source, of: RawSystemCalls.fileSystem)
        #expect(calls.map(\.description) == ["line 2: open(", "line 3: read(", "line 4: rename(", "line 4: unlink(", "line 5: stat(",
                                             "line 6: fstat(", "line 7: close(", "line 16: mkdir("])
    }

    @Test("a call is allowed only in its layer")
    func allowedOnlyInItsLayer() {
        let pipeCall = "let r = pipe(&ends)\nclose(ends[0])\nlet s = stat(p, &st)"
        #expect(RawSystemCalls.calls(in: pipeCall, of: RawSystemCalls.fileSystem.union(RawSystemCalls.process)).map(\.name) == ["pipe", "close", "stat"])
        let inProcess = Self.allowed.first { $0.folder == "Sources/LumaProcess/" }!.calls
        #expect(RawSystemCalls.calls(in: pipeCall, of: RawSystemCalls.fileSystem.union(RawSystemCalls.process).subtracting(inProcess)).map(\.name) == ["stat"])
    }
}
