import Foundation
import LumaEngine
import LumaTestSupport
import Testing

/// What a user adopting Lumatrace looks for: a licence, a notice of what is bundled, a release step
/// that refuses what it cannot release, and one place for the version.
@Suite("Release: licence, notice, one version, and scripts/release's refusals")
struct ReleaseTests {
    static let root = PackageLayout.root
    static let script = root.appendingPathComponent("scripts/release").path

    @Test("LICENSE is Apache-2.0, as the Python package declares; NOTICE names what is bundled and linked")
    func licenceAndNotice() throws {
        let licence = try String(contentsOf: Self.root.appendingPathComponent("LICENSE"), encoding: .utf8)
        #expect(licence.contains("Apache License") && licence.contains("Version 2.0, January 2004"))
        let pyproject = try String(contentsOf: Self.root.appendingPathComponent("python/pyproject.toml"), encoding: .utf8)
        #expect(pyproject.contains("Apache-2.0"), "python/pyproject.toml declares another licence")
        let notice = try String(contentsOf: Self.root.appendingPathComponent("NOTICE"), encoding: .utf8)
        for name in ["toss-real.luma", "Florian Trautweiler", "KISS FFT", "Zstandard", "swift-argument-parser"] {
            #expect(notice.contains(name), "NOTICE does not name \(name)")
        }
    }

    @Test(".spi.yml documents exactly the libraries that have a DocC catalog")
    func documentedLibraries() throws {
        let spi = try String(contentsOf: Self.root.appendingPathComponent(".spi.yml"), encoding: .utf8)
        let line = try #require(spi.split(separator: "\n").first { $0.contains("documentation_targets:") })
        let named = Set(line.drop { $0 != "[" }.dropFirst().prefix { $0 != "]" }.split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) })
        let sources = Self.root.appendingPathComponent("Sources")
        let catalogs = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { target in
            FileManager.default.fileExists(atPath: sources.appendingPathComponent("\(target)/\(target).docc").path)
        }
        #expect(named == Set(catalogs), ".spi.yml names \(named.sorted()); catalogs: \(catalogs.sorted())")
    }

    @Test("the version is written once in the Swift sources: LumatraceVersion, which scripts/release sets")
    func oneVersion() throws {
        let version = LumatraceVersion.engine
        #expect(version.split(separator: ".").count == 3 && version.split(separator: ".").allSatisfy { Int($0) != nil })
        let sources = Self.root.appendingPathComponent("Sources")
        var spelled: [String] = []
        let files = try #require(FileManager.default.enumerator(atPath: sources.path))
        for case let file as String in files where file.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            if text.contains("\"\(version)\"") { spelled.append(file) }
        }
        #expect(spelled == ["LumaEngine/LumatraceVersion.swift"], "\(version) is spelled out in \(spelled)")
    }

    @Test("scripts/release refuses a malformed version and one CHANGELOG has no section for, before it changes anything",
          arguments: [("1.2", "not a version MAJOR.MINOR.PATCH"), ("01.2.3", "not a version MAJOR.MINOR.PATCH"),
                      ("v0.2.0", "not a version MAJOR.MINOR.PATCH"), ("9.9.9", "CHANGELOG.md has no section '## 9.9.9'")])
    func refusals(version: String, reason: String) throws {
        let run = try ProgramRun.run(Self.script, [version, "--dry-run"])
        #expect(run.status == 2, "\(run)")
        #expect(run.stderr.hasPrefix("release \(version): ") && run.stderr.contains(reason), "\(run.stderr)")
        let usage = try ProgramRun.run(Self.script, [])
        #expect(usage.status == 64 && usage.stderr.contains("usage: scripts/release X.Y.Z"))
    }
}
