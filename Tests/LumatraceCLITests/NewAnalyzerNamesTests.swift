import Foundation
import LumaBase
import Testing
import LumaTestSupport

/// `lumatrace new-analyzer` writes names it does not choose (the checkout's path, the package's
/// folder) into Swift source and into a shell line it prints: each is a name there, never code
/// (issue 56, H2 and L13).
@Suite("new-analyzer: no folder name becomes code in the package it writes or the command it prints")
struct NewAnalyzerNamesTests {
    /// A folder name that closes a Swift string literal and adds code that makes a file, with a
    /// backslash, an interpolation, a tab, a newline and a shell command substitution besides.
    static let hostileName = #"x")]);import Foundation;let _=FileManager.default.createFile(atPath:"PWNED-manifest",contents:nil);#\ \(1)\#t$(touch PWNED-shell)"# + "\nz"

    /// A folder that `new-analyzer` takes for a Lumatrace checkout (it has a Package.swift).
    static func checkout(named name: String, in dir: String) throws -> String {
        let folder = "\(dir)/\(name)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "// a checkout\n".write(toFile: "\(folder)/Package.swift", atomically: false, encoding: .utf8)
        return folder
    }

    /// `swift package dump-package` of the package at `folder`: what SwiftPM makes of its manifest.
    static func dumpPackage(_ folder: String) throws -> Any {
        let swift = try ExternalTool.swift.require()
        let dump = try ProgramRun.run(swift, ["package", "dump-package"], cwd: folder, patience: ProgramRun.buildPatience)
        #expect(dump.status == 0, "the manifest does not parse:\n\(dump.stderr.suffix(3000))")
        return try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8))
    }

    /// Every string anywhere in a JSON value.
    static func strings(in json: Any) -> [String] {
        switch json {
        case let s as String: return [s]
        case let a as [Any]: return a.flatMap(strings(in:))
        case let d as [String: Any]: return d.values.flatMap(strings(in:))
        default: return []
        }
    }

    /// The `cd …` of a printed `next: cd FOLDER && …` line, run by a shell followed by `pwd`.
    static func pasteCd(_ stdout: String, in dir: String) throws -> ProgramResult {
        let line = try #require(stdout.split(separator: "\n").first { $0.hasPrefix("next: ") }, "\(stdout)")
        let cd = try #require(line.dropFirst("next: ".count).components(separatedBy: " && ").first)
        return try ProgramRun.run("/bin/sh", ["-c", "\(cd) && pwd -P"], cwd: dir)
    }

    @Test("a checkout path with quotes, backslashes, \\( ), a newline and $( ) is written into Package.swift as a Swift string literal: SwiftPM reads that path and runs nothing")
    func checkoutPathIsALiteral() throws {
        try withScratchFolder("cli") { dir in
            let checkout = try Self.checkout(named: Self.hostileName, in: dir)
            let created = try CLI.run(["new-analyzer", "Glare", "--lumatrace", checkout, "--path", "plugin"], cwd: dir)
            #expect(created.status == 0, "\(created.stderr)")
            let manifest = try String(contentsOfFile: "\(dir)/plugin/Package.swift", encoding: .utf8)
            #expect(manifest.contains(".package(name: \"Lumatrace\", path: \(SwiftLiteral.quoted(checkout))),"), "\(manifest)")
            let dumped = try Self.dumpPackage("\(dir)/plugin")
            #expect(Self.strings(in: dumped).contains(checkout), "SwiftPM reads another path:\n\(dumped)")
            for planted in ["PWNED-manifest", "PWNED-shell", "plugin/PWNED-manifest", "plugin/PWNED-shell"] {
                #expect(!FileManager.default.fileExists(atPath: "\(dir)/\(planted)"), "\(planted) was made: the name ran as code")
            }
        }
    }

    @Test("a tagged checkout with such a name is written as a file:// URL literal, and its package name as a literal too")
    func taggedCheckoutURLIsALiteral() throws {
        let git = try ExternalTool.git.require()
        try withScratchFolder("cli") { dir in
            let checkout = try Self.checkout(named: Self.hostileName, in: dir)
            for arguments in [["init", "-q"], ["add", "-A"], ["-c", "user.name=test", "-c", "user.email=test@example.invalid", "commit", "-qm", "release"],
                              ["tag", "0.1.0"]] {
                let run = try ProgramRun.run(git, ["-C", checkout] + arguments)
                #expect(run.status == 0, "git \(arguments): \(run)")
            }
            let created = try CLI.run(["new-analyzer", "Glare", "--lumatrace", checkout, "--path", "plugin"], cwd: dir)
            #expect(created.status == 0, "\(created.stderr)")
            let manifest = try String(contentsOfFile: "\(dir)/plugin/Package.swift", encoding: .utf8)
            #expect(manifest.contains(".package(url: \(SwiftLiteral.quoted("file://" + checkout)), from: \"0.1.0\"),"), "\(manifest)")
            #expect(manifest.contains("package: \(SwiftLiteral.quoted(URL(fileURLWithPath: checkout).lastPathComponent)))"), "\(manifest)")
            _ = try Self.dumpPackage("\(dir)/plugin")
            #expect(!FileManager.default.fileExists(atPath: "\(dir)/plugin/PWNED-manifest"), "the name ran as code")
        }
    }

    @Test("the printed `next: cd …` line, pasted into a shell, goes to the folder made and runs nothing its name holds (Swift and Python)")
    func nextLineIsQuoted() throws {
        try withScratchFolder("cli") { dir in
            let folder = "p$(touch PWNED-cd)'q \"r"
            let swift = try CLI.run(["new-analyzer", "Glare", "--lumatrace", PackageLayout.root.path, "--path", folder], cwd: dir)
            #expect(swift.status == 0, "\(swift.stderr)")
            let cd = try Self.pasteCd(swift.stdout, in: dir)
            #expect(cd.status == 0 && cd.stdout == "\(URL(fileURLWithPath: dir).resolvingSymlinksInPath().path)/\(folder)\n", "\(swift.stdout)\n\(cd)")

            // The Python line names the checkout's interpreter: a stand-in that says how it was called.
            let checkout = try Self.checkout(named: "co_$(touch PWNED-py)", in: dir)
            try FileManager.default.createDirectory(atPath: "\(checkout)/.venv/bin", withIntermediateDirectories: true)
            try "#!/bin/sh\necho \"python $*\"\n".write(toFile: "\(checkout)/.venv/bin/python", atomically: false, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: "\(checkout)/.venv/bin/python")
            let python = try CLI.run(["new-analyzer", "--language", "python", "Glare", "--lumatrace", checkout, "--path", "py$(touch PWNED-cd)"], cwd: dir)
            #expect(python.status == 0, "\(python.stderr)")
            let line = try #require(python.stdout.split(separator: "\n").first { $0.hasPrefix("next: ") }, "\(python.stdout)")
            let pasted = try ProgramRun.run("/bin/sh", ["-c", String(line.dropFirst("next: ".count))], cwd: dir)
            #expect(pasted.status == 0 && pasted.stdout == "python -m pytest\n", "\(line)\n\(pasted)")
            for planted in ["PWNED-cd", "PWNED-py", "\(folder)/PWNED-cd", "py$(touch PWNED-cd)/PWNED-cd", "py$(touch PWNED-cd)/PWNED-py"] {
                #expect(!FileManager.default.fileExists(atPath: "\(dir)/\(planted)"), "\(planted) was made: a printed line ran its name")
            }
        }
    }

    @Test("a checkout or package folder whose name is not UTF-8 is refused, naming the flag and showing the byte, and nothing is written")
    func nonUTF8NamesAreRefused() throws {
        try withScratchFolder("cli") { dir in
            let r = try ProgramRun.run("/bin/sh", ["-c", """
                N=$(printf 'co\\351'); mkdir "$N"; : > "$N/Package.swift"
                '\(CLI.binary)' new-analyzer Glare --lumatrace "$N" --path plugin
                echo "status $?"
                '\(CLI.binary)' new-analyzer Glare --lumatrace '\(PackageLayout.root.path)' --path "$(printf 'pl\\351')"
                echo "status $?"
                """], cwd: dir)
            #expect(r.stdout == "status 64\nstatus 64\n", "\(r)")
            let lines = r.stderr.split(separator: "\n")
            #expect(lines.count == 2 && lines.allSatisfy { $0.contains("not UTF-8") }, "\(r.stderr)")
            #expect(lines.first?.contains("--lumatrace co\\xE9: the name holds bytes that are not UTF-8") == true, "\(r.stderr)")
            #expect(lines.last?.contains("--path pl\\xE9") == true, "\(r.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir).count == 1, "something was written")
        }
    }

    /// A `sitecustomize` module that makes every Python process started with `PYTHONPATH` at its
    /// folder append the top-level names of the modules it imported to the file `$LUMATRACE_IMPORTED`.
    static let importRecorder = """
        import atexit, os, sys
        def _record():
            with open(os.environ["LUMATRACE_IMPORTED"], "a") as f:
                f.write("\\n".join(sorted({name.split(".")[0] for name in list(sys.modules)})) + "\\n")
        atexit.register(_record)

        """

    /// `sre_compile` → `SreCompile`: the type name whose script has that module name.
    static func typeName(ofModule module: String) -> String {
        module.split(separator: "_").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    @Test("a Python analyzer is refused a name whose script would hide any module Python imports to run it and its tests, as the interpreter reports them")
    func pythonModuleNames() throws {
        let python = try ProjectPython.require()
        try withScratchFolder("cli") { dir in
            try FileManager.default.createDirectory(atPath: "\(dir)/hook", withIntermediateDirectories: true)
            try Self.importRecorder.write(toFile: "\(dir)/hook/sitecustomize.py", atomically: false, encoding: .utf8)
            var environment = ProcessInfo.processInfo.environment
            (environment["PYTHONPATH"], environment["LUMATRACE_IMPORTED"]) = ("\(dir)/hook", "\(dir)/imported.txt")
            #expect(try CLI.run(["new-analyzer", "--language", "python", "HeadLamp", "--lumatrace", PackageLayout.root.path], cwd: dir).status == 0)
            let folder = "\(dir)/HeadLamp"
            let tests = try ProgramRun.run(python, ["-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd: folder, environment: environment)
            #expect(tests.status == 0, "\(tests)")
            let recording = PackageLayout.root.appendingPathComponent("Recordings/toss-real.luma").path
            let replay = try CLI.run(["replay", recording, "--analyzer", "external", "--set", "external.command=\(python) head_lamp.py",
                                      "-o", "\(dir)/lamp.events.jsonl"], cwd: folder, environment: environment)
            #expect(replay.status == 0, "\(replay.stderr)")

            // The modules a type name can make a script of: lower case, an underscore only before a letter.
            let imported = Set(try String(contentsOfFile: "\(dir)/imported.txt", encoding: .utf8).split(separator: "\n").map(String.init))
                .filter { $0.range(of: "^[a-z][a-z0-9]*(_[a-z][a-z0-9]*)*$", options: .regularExpression) != nil }
                .subtracting(["sitecustomize", "head_lamp", "test_head_lamp"])
            let examples = ["enum", "warnings", "operator", "copyreg", "weakref", "inspect", "contextlib", "keyword", "token", "tokenize", "linecache"]
            #expect(Set(examples).isSubset(of: imported), "Python no longer imports \(Set(examples).subtracting(imported).sorted())")
            var allowed: [String] = []
            for module in imported.sorted() {
                let name = Self.typeName(ofModule: module)
                let r = try CLI.run(["new-analyzer", "--language", "python", name, "--lumatrace", "\(dir)/no-checkout"], cwd: dir)
                if !(r.status == 64 && r.stderr.contains("would hide the module \(module) that")) { allowed.append(module) }
            }
            #expect(allowed.isEmpty, "names Python imports but new-analyzer accepts (add them to PythonAnalyzerTemplate.importedModules): \(allowed)")
        }
    }
}
