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
