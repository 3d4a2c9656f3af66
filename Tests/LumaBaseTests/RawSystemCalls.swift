import LumaTestSupport

/// Finds the C library's file-system and process calls in Swift source: the calls that must go
/// through the system layer (`Sources/LumaBase/System`), or, for a program's life, LumaProcess.
///
/// Read from code only (``SwiftCode``: comments and strings blanked). A name is a call of the C
/// library when it is followed by `(` and is either qualified by a C module (`Glibc.read(`) or
/// unqualified and looks like one. It does not look like one, and is skipped, when it is:
/// - a member (`file.read(`, `.open(` of an enum case or a static method), a declaration
///   (`func read(`, `case read(`);
/// - called with `try` or `await` (C functions do not throw);
/// - given an argument label (`read(at: 0)`, `write(bytes, to: name)`): C functions have none;
/// - declared by the same file (`func close(` there: an unqualified `close(` calls it, as Swift
///   shadows the C function, which that file would have to write `Glibc.close(`).
struct RawSystemCalls {
    /// The C library's calls on files, descriptors, folders and paths.
    static let fileSystem: Set<String> = [
        "open", "openat", "creat", "close", "read", "pread", "readv", "write", "pwrite", "writev", "lseek",
        "ftruncate", "truncate", "fsync", "fdatasync", "sync_file_range", "flock", "lockf", "fcntl", "ioctl",
        "stat", "lstat", "fstat", "fstatat", "statx", "statvfs", "fstatvfs", "access", "faccessat", "realpath",
        "readlink", "symlink", "link", "linkat", "unlink", "unlinkat", "rename", "renameat", "renameat2",
        "mkdir", "mkdirat", "rmdir", "opendir", "fdopendir", "readdir", "closedir", "chmod", "fchmod", "chown",
        "fchown", "utimensat", "dup", "dup2", "dup3", "fopen", "fdopen", "fclose", "fread", "fwrite", "mkstemp",
        "mkdtemp", "chdir", "fchdir", "getcwd", "poll", "select", "mmap", "munmap", "sendfile", "copy_file_range",
    ]

    /// The calls of a program's life: starting, piping, signalling and waiting for one.
    static let process: Set<String> = [
        "pipe", "pipe2", "posix_spawn", "posix_spawnp", "fork", "vfork", "execv", "execve", "execvp", "waitpid",
        "waitid", "kill", "killpg", "setsid", "setpgid",
    ]

    /// The modules a C function is qualified by.
    static let cModules: Set<String> = ["Glibc", "Musl", "Darwin", "Foundation", "SwiftGlibc"]

    struct Call: Equatable, CustomStringConvertible {
        var line: Int
        var name: String
        var description: String { "line \(line): \(name)(" }
    }

    /// Every call of a name in `names` that is the C library's, with its line.
    static func calls(in source: String, of names: Set<String>) -> [Call] {
        let code = Array(SwiftCode.blankingCommentsAndStrings(source).utf8)
        let declared = declaredFunctions(in: code)
        var found: [Call] = []
        var line = 1
        var i = 0
        while i < code.count {
            if code[i] == UInt8(ascii: "\n") { line += 1; i += 1; continue }
            guard isIdentifierStart(code[i]), i == 0 || !isIdentifier(code[i - 1]) else { i += 1; continue }
            var end = i
            while end < code.count, isIdentifier(code[end]) { end += 1 }
            let name = String(decoding: code[i..<end], as: UTF8.self)
            defer { i = end }
            guard names.contains(name), end < code.count, code[end] == UInt8(ascii: "(") else { continue }
            let before = word(before: i, in: code)
            if let qualifier = before.qualifier {
                guard cModules.contains(qualifier) else { continue }
            } else {
                if ["func", "case", "try", "try?", "try!", "await", "init"].contains(before.word) { continue }
                if declared.contains(name) { continue }
            }
            if hasLabel(code, openingAt: end) { continue }
            found.append(Call(line: line, name: name))
        }
        return found
    }

    // MARK: - Reading code

    private static func isIdentifierStart(_ b: UInt8) -> Bool { b == UInt8(ascii: "_") || (b | 0x20) >= 97 && (b | 0x20) <= 122 }
    private static func isIdentifier(_ b: UInt8) -> Bool { isIdentifierStart(b) || (b >= 48 && b <= 57) }

    /// What precedes a name at `start`: the module or value it is a member of (`Glibc` in
    /// `Glibc.read`, "" for `.read` or `x).read`), or else the word before it (`try`, `func`).
    private static func word(before start: Int, in code: [UInt8]) -> (qualifier: String?, word: String) {
        var j = start - 1
        while j >= 0, code[j] == UInt8(ascii: " ") || code[j] == UInt8(ascii: "\t") { j -= 1 }
        if j >= 0, code[j] == UInt8(ascii: ".") {
            var k = j
            while k > 0, isIdentifier(code[k - 1]) { k -= 1 }
            return (String(decoding: code[k..<j], as: UTF8.self), "")
        }
        var end = j + 1
        if j >= 0, code[j] == UInt8(ascii: "?") || code[j] == UInt8(ascii: "!") { j -= 1 } else { end = j + 1 }
        var k = j + 1
        while k > 0, isIdentifier(code[k - 1]) { k -= 1 }
        return (nil, String(decoding: code[k..<end], as: UTF8.self))
    }

    /// Whether an argument of the call whose `(` is at `open` has a label (`name:` at its start).
    private static func hasLabel(_ code: [UInt8], openingAt open: Int) -> Bool {
        var depth = 0
        var argumentStart = open + 1
        var i = open + 1
        func labelled(_ range: Range<Int>) -> Bool {
            var k = range.lowerBound
            while k < range.upperBound, code[k] == 32 || code[k] == 9 || code[k] == 10 { k += 1 }
            guard k < range.upperBound, isIdentifierStart(code[k]) else { return false }
            while k < range.upperBound, isIdentifier(code[k]) { k += 1 }
            while k < range.upperBound, code[k] == 32 { k += 1 }
            return k < range.upperBound && code[k] == UInt8(ascii: ":") && (k + 1 >= code.count || code[k + 1] != UInt8(ascii: ":"))
        }
        while i < code.count {
            switch code[i] {
            case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                if depth == 0 { return labelled(argumentStart..<i) }
                depth -= 1
            case UInt8(ascii: ","):
                if depth == 0 {
                    if labelled(argumentStart..<i) { return true }
                    argumentStart = i + 1
                }
            default: break
            }
            i += 1
        }
        return false
    }

    /// The names the file declares as functions (`func close(`), which its unqualified calls reach.
    private static func declaredFunctions(in code: [UInt8]) -> Set<String> {
        let text = String(decoding: code, as: UTF8.self)
        return Set(text.matches(of: #/\bfunc\s+(\w+)\s*[(<]/#).map { String($0.1) })
    }
}
