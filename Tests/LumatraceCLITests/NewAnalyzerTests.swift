import Foundation
import LumaAnalysis
import LumaEngine
import Testing
import LumaTestSupport

/// `lumatrace new-analyzer`: an out-of-tree plugin package, built against this checkout.
@Suite("new-analyzer: a plugin package that builds, tests and replays out of the box")
struct NewAnalyzerTests {
    /// This checkout's files (tracked, and new ones git does not ignore) committed into a new git
    /// repository `folder`, tagged `tag`: a release of the working tree, as a user would clone it.
    static func taggedRelease(in folder: String, tag: String) throws {
        let git = try ExternalTool.git.require()
        let root = PackageLayout.root.path
        let listed = try ProgramRun.run(git, ["-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard"])
        #expect(listed.status == 0, "\(listed)")
        for file in listed.stdout.split(separator: "\0").map(String.init) where FileManager.default.fileExists(atPath: "\(root)/\(file)") {
            let target = URL(fileURLWithPath: "\(folder)/\(file)")
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: "\(root)/\(file)", toPath: target.path)
        }
        for arguments in [["init", "-q"], ["add", "-A"], ["-c", "user.name=test", "-c", "user.email=test@example.invalid", "commit", "-qm", "release"],
                          ["tag", tag]] {
            let run = try ProgramRun.run(git, ["-C", folder] + arguments)
            #expect(run.status == 0, "git \(arguments): \(run)")
        }
    }

    @Test("new-analyzer Foo on a tagged release → a package depending on it by version (from: \"0.1.0\") builds, tests, and its lumatrace replays a bundled recording through foo and the built-ins")
    func scaffold() throws {
        let swift = try ExternalTool.swift.require()
        try withScratchFolder("cli") { dir in
            // SwiftPM refuses a package depended on by version whose targets carry unsafe flags: this
            // is the build a plugin author makes against a Lumatrace release.
            let release = "\(dir)/lumatrace"
            try Self.taggedRelease(in: release, tag: "0.1.0")
            let created = try CLI.run(["new-analyzer", "Foo", "--lumatrace", release], cwd: dir)
            #expect(created.status == 0, "\(created.stderr)")
            let package = "\(dir)/Foo"
            let manifest = try String(contentsOfFile: "\(package)/Package.swift", encoding: .utf8)
            #expect(manifest.contains(".package(url: \"file://\(release)\", from: \"0.1.0\")"), "\(manifest)")
            #expect(manifest.contains(".product(name: \"LumaImaging\", package: \"lumatrace\")"), "\(manifest)")
            let test = try ProgramRun.run(swift, ["test"], cwd: package, patience: ProgramRun.buildPatience)
            #expect(test.status == 0, "swift test in the generated package failed:\n\(test.stdout.suffix(3000))\(test.stderr.suffix(3000))")
            // The analyzer's build and tests compile no command line; its lumatrace is the package in Tool/.
            let built = try FileManager.default.contentsOfDirectory(atPath: "\(package)/.build/debug/Modules").filter { $0.hasSuffix(".swiftmodule") }
            #expect(!built.contains("LumatraceCLI.swiftmodule") && built.contains("Foo.swiftmodule"), "\(built.sorted())")
            let tool = try ProgramRun.run(swift, ["build", "--package-path", "Tool"], cwd: package, patience: ProgramRun.buildPatience)
            #expect(tool.status == 0, "swift build of Tool/ failed:\n\(tool.stdout.suffix(3000))\(tool.stderr.suffix(3000))")
            let binPath = try ProgramRun.run(swift, ["build", "--package-path", "Tool", "--show-bin-path"], cwd: package).stdout
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let recording = PackageLayout.root.appendingPathComponent("Recordings/toss-real.luma").path
            let replay = try ProgramRun.run("\(binPath)/lumatrace-foo", ["replay", recording, "--analyzer", "foo", "--analyzer", "differencing",
                                                                     "-o", "\(dir)/foo.events.jsonl"])
            #expect(replay.status == 0, "\(replay.stderr)")
            let log = try EventLog.read("\(dir)/foo.events.jsonl")
            #expect(log.header.analyzers.map(\.name) == ["foo", "differencing"])
            #expect(log.events.contains { $0.analyzer == "differencing" })
            #expect(log.events.contains { $0.analyzer == "foo" }, "the example analyzer, with its defaults, reports on the bundled toss")
            // A working tree with changes is used by path, so its edits are what the plugin builds against.
            try "// changed\n".write(toFile: "\(release)/Package.swift", atomically: false, encoding: .utf8)
            #expect(try CLI.run(["new-analyzer", "Baz", "--lumatrace", release], cwd: dir).status == 0)
            #expect(try String(contentsOfFile: "\(dir)/Baz/Package.swift", encoding: .utf8).contains(".package(name: \"Lumatrace\", path: \"\(release)\")"))
            // Refusals: an existing folder, a name that is not a type name.
            #expect(try CLI.run(["new-analyzer", "Foo"], cwd: dir).stderr.contains("Foo already exists"))
            #expect(try CLI.run(["new-analyzer", "foo-bar"], cwd: dir).stderr.contains("is not a type name"))
        }
    }

    @Test("new-analyzer --language python HeadLamp → its pytest passes with the project's Python, and a bundled recording replays through it with external")
    func pythonScaffold() throws {
        let python = try ProjectPython.require()
        try withScratchFolder("cli") { dir in
            let created = try CLI.run(["new-analyzer", "--language", "python", "HeadLamp", "--lumatrace", PackageLayout.root.path], cwd: dir)
            #expect(created.status == 0, "\(created.stderr)")
            #expect(created.stdout.contains("next: cd HeadLamp && \(python) -m pytest"), "\(created.stdout)")
            let folder = "\(dir)/HeadLamp"
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == [".gitignore", "README.md", "head_lamp.py", "test_head_lamp.py"])
            // The files name `python3`, never a path of this machine: the folder works wherever it is copied.
            for file in ["README.md", "head_lamp.py", "test_head_lamp.py"] {
                let text = try String(contentsOfFile: "\(folder)/\(file)", encoding: .utf8)
                #expect(!text.contains(PackageLayout.root.path) && !text.contains(".venv/bin/python "), "\(file) names a path of this machine:\n\(text)")
            }

            let tests = try ProgramRun.run(python, ["-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd: folder)
            #expect(tests.status == 0 && tests.stdout.contains("4 passed"), "pytest in the generated folder failed:\n\(tests.stdout.suffix(3000))\(tests.stderr.suffix(2000))")

            // Through the external analyzer, as its README says: toss-real's mean moves by over half a
            // grey level twice.
            let recording = PackageLayout.root.appendingPathComponent("Recordings/toss-real.luma").path
            let replay = try CLI.run(["replay", recording, "--analyzer", "external", "--set", "external.command=\(python) head_lamp.py",
                                      "--set", "external.options={\"threshold\":0.5}", "-o", "\(dir)/lamp.events.jsonl"], cwd: folder)
            #expect(replay.status == 0, "\(replay.stderr)")
            let log = try EventLog.read("\(dir)/lamp.events.jsonl")
            #expect(log.header.analyzers.first?.events == [EventSchema(kind: "brightness.change", version: 1, shape: nil)])
            #expect(log.header.analyzers.first?.programFiles.map(\.path).last == "head_lamp.py")
            let changes = log.events.filter { $0.kind == "brightness.change" }
            #expect(changes.count == 2, "\(changes.map(\.frame))")
            #expect(changes.allSatisfy { e in
                guard let before = e.data["before"]?.doubleValue, let after = e.data["after"]?.doubleValue else { return false }
                return abs(after - before) > 0.5
            })
            let verify = try CLI.run(["verify", "\(dir)/lamp.events.jsonl", "--recording", recording, "--allow-external"], cwd: "/")
            #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
            // Its options are checked by the script, and the refusal reaches the user.
            let refused = try CLI.run(["replay", recording, "--analyzer", "external", "--set", "external.command=\(python) head_lamp.py",
                                       "--set", "external.options={\"threshold\":0}", "-o", "/dev/null"], cwd: folder)
            #expect(refused.status != 0 && refused.stderr.contains("refused to start: threshold must be grey levels, 0.1...255 (got 0)"), "\(refused.stderr)")
            #expect(try CLI.run(["new-analyzer", "--language", "cobol", "Lamp"], cwd: dir).stderr.contains("Please provide one of 'swift' and 'python'"))
        }
    }
}
