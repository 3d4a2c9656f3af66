import Foundation
import Testing
import LumaTestSupport

/// What the manifests must declare for incremental builds to be sound.
///
/// SwiftPM recompiles a target when the `.swiftmodule` of a module it *declares* changes. A module
/// whose interface did not change is not rewritten, so a target that holds another module's
/// structs by value (the benchmark keeps a `TrajectoryAnalyzer` on its stack) is not recompiled
/// when a struct of a module it only reaches through others (LumaImaging's `ConnectedComponents`)
/// grows: it keeps the old, smaller layout, and the analyzer's last field overwrites whatever the
/// stack holds next. That was the "release-only crash" of issue 20 (the events array's pointer,
/// bumped by `reported += 1`; SIGSEGV appending events), found with a hardware watchpoint.
@Suite("Build graph: the benchmark declares every Lumatrace module it is built on")
struct BuildGraphTests {
    /// A manifest's targets: name → the names it depends on (targets and products), and its folder.
    static func targets(of package: URL) throws -> [String: (dependencies: [String], folder: URL)] {
        return try withScratchFolder("dump-package") { scratch in
            let run = try ProgramRun.run(.swift, ["package", "dump-package", "--package-path", package.path,
                                                                             "--scratch-path", scratch])
            guard run.status == 0, let json = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any],
                  let targets = json["targets"] as? [[String: Any]] else {
                throw Failure(description: "swift package dump-package \(package.path) failed: \(run.stderr)")
            }
            var result: [String: (dependencies: [String], folder: URL)] = [:]
            for target in targets {
                guard let name = target["name"] as? String else { continue }
                let dependencies = target["dependencies"] as? [[String: Any]] ?? []
                let names = dependencies.compactMap { d -> String? in
                    for key in ["byName", "target", "product"] { if let v = d[key] as? [Any], let n = v.first as? String { return n } }
                    return nil
                }
                result[name] = (names, package.appendingPathComponent(target["path"] as? String ?? "Sources/\(name)"))
            }
            return result
        }
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    @Test("lumatrace-bench declares every Swift module of Lumatrace its dependencies are built on",
          .enabled(if: ExternalTool.swift.isInstalled, "needs the swift toolchain on PATH"))
    func benchmarkDeclaresItsModules() throws {
        let root = PackageLayout.root
        let lumatrace = try Self.targets(of: root)
        let bench = try Self.targets(of: root.appendingPathComponent("Benchmarks"))
        let declared = try #require(bench["lumatrace-bench"]).dependencies
        // Each library product of Lumatrace is its one target, named alike.
        var reached = Set<String>(), stack = declared.filter { lumatrace[$0] != nil }
        while let next = stack.popLast() {
            guard reached.insert(next).inserted else { continue }
            stack += lumatrace[next]?.dependencies ?? []
        }
        let swiftModules = reached.filter { name in
            guard let folder = lumatrace[name]?.folder.path else { return false }
            return (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).contains { $0.hasSuffix(".swift") }
        }
        #expect(swiftModules.contains("LumaImaging"), "the walk found LumaImaging below the analyzers: \(swiftModules.sorted())")
        let missing = swiftModules.subtracting(declared).sorted()
        #expect(missing.isEmpty, "Benchmarks/Package.swift: lumatrace-bench reaches \(missing) without declaring them; an incremental release build can keep a stale layout of their structs")
    }
}
