import Foundation
import Testing
import LumaTestSupport

extension BuildGraphTests {
    /// Every module a Swift file imports is a dependency its target declares, in all three packages
    /// of the checkout (Lumatrace, and `Benchmarks/` and `Fuzz/`, which build on its products).
    ///
    /// A module a target imports without declaring it compiles only because a declared dependency
    /// happens to put it on the search path: remove that dependency and the build breaks, change the
    /// module and the importer may not be rebuilt (the stale layout behind the release-only crash
    /// that `BuildGraphTests` tells of). The manifests are read by `swift package dump-package`,
    /// not parsed: they are code (`analyzerPlugin(…)` makes four targets), and only running them
    /// gives the real graph. It needs no network and takes under a second per package.
    ///
    /// Every import counts, whatever `#if` branch it is in (a Darwin-only import of an undeclared
    /// module breaks the macOS build just the same), and so does a module tested by `canImport`: it
    /// would be true or false depending on what happened to be built first.
    @Suite("Build graph: every module a file imports is a dependency its target declares")
    struct Imports {
        /// Modules of the toolchain and the operating system, which no manifest declares.
        static let systemModules: Set<String> = [
            "Swift", "_Concurrency", "_StringProcessing", "_Differentiation", "RegexBuilder", "Synchronization",
            "Observation", "Distributed", "Dispatch", "Foundation", "FoundationEssentials", "FoundationInternationalization",
            "FoundationXML", "FoundationNetworking", "Glibc", "Musl", "Bionic", "Android", "WASILibc", "Darwin", "os",
            "ucrt", "WinSDK", "XCTest", "Testing",
        ]

        @Test("each file's imports are declared by its target", .enabled(if: ExternalTool.swift.isInstalled, "needs the swift toolchain on PATH"),
              arguments: [".", "Benchmarks", "Fuzz"])
        func importsAreDeclared(package folder: String) throws {
            let root = folder == "." ? PackageLayout.root : PackageLayout.root.appendingPathComponent(folder)
            let prefix = folder == "." ? "" : folder + "/"
            let manifest = try Manifest.dumped(from: root)
            // How the manifest's other targets spell a product, to say what to add (ArgumentParser is
            // `.product(name: "ArgumentParser", package: "swift-argument-parser")`).
            var productPackages: [String: String] = [:]
            for dependency in manifest.targets.flatMap(\.dependencies) {
                if let package = dependency.package { productPackages[dependency.name] = package }
            }
            let targetNames = Set(manifest.targets.map(\.name))

            var scanned = 0
            for target in manifest.targets {
                // A product is read as the module of the same name: true of swift-argument-parser's
                // ArgumentParser and every Lumatrace product. A product named otherwise fails
                // here loudly, never silently.
                let declared = Set(target.dependencies.map(\.name)).union([target.name])
                var importers: [String: [String]] = [:]
                for file in target.swiftFiles(in: root) {
                    let source = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
                    for module in Self.modulesUsed(by: source) where !declared.contains(module) && !Self.systemModules.contains(module) {
                        importers[module, default: []].append(prefix + file)
                    }
                    scanned += 1
                }
                for (module, files) in importers.sorted(by: { $0.key < $1.key }) {
                    let spelling = targetNames.contains(module) ? "\"\(module)\""
                        : ".product(name: \"\(module)\", package: \"\(productPackages[module] ?? "<its package>")\")"
                    Issue.record(Comment(rawValue: """
                        Target \(target.name) imports \(module) without declaring it: add \(spelling) to its dependencies \
                        in \(prefix)Package.swift (today it is reached only through another dependency). Imported by \
                        \(files.sorted().joined(separator: ", ")).
                        """))
                }
            }

            // Proof that the walk saw the package: every Swift file under the targets' top folders
            // (Sources, Plugins, Tests) lies in some target's folder, and there were files to read.
            let folders = manifest.targets.map { $0.folder }
            let tops = Set(folders.compactMap { $0.split(separator: "/").first.map(String.init) })
            let unclaimed = tops.sorted().flatMap { top in
                Manifest.Target.swiftFiles(under: root.appendingPathComponent(top)).map { "\(top)/\($0)" }
                    .filter { file in !folders.contains { file.hasPrefix($0 + "/") } }
            }
            #expect(unclaimed.isEmpty, "Swift files in no target's folder, whose imports this test cannot check: \(unclaimed)")
            #expect(scanned > 0, "no Swift files found in the targets of \(prefix)Package.swift")
        }

        /// The modules a Swift file imports or tests with `canImport`, read from its code only: not
        /// from comments, nor from string literals (the Python scripts tests write begin `import sys`).
        static func modulesUsed(by source: String) -> Set<String> {
            // [attributes] [access level] import [kind] Module[.Symbol]
            let declaration = #/^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?(\w+)/#
            let condition = #/canImport\(\s*(\w+)/#
            var modules = Set<String>()
            for line in SwiftCode.blankingCommentsAndStrings(source).split(whereSeparator: { $0 == "\n" || $0 == ";" }) {
                let statement = line.drop { $0 == " " || $0 == "\t" }
                if let match = statement.prefixMatch(of: declaration) { modules.insert(String(match.1)) }
                if statement.hasPrefix("#if") || statement.hasPrefix("#elseif") {
                    for match in statement.matches(of: condition) { modules.insert(String(match.1)) }
                }
            }
            return modules
        }

        @Test("imports are read from code, not from comments and strings")
        func readsOnlyCode() {
            let source = #"""
                @preconcurrency import Glibc
                @testable import LumaFormat
                import struct Foundation.URL
                internal import ArgumentParser; import LumaBase
                #if canImport(CKissFFT) && !os(Windows)
                    import CKissFFT
                #endif
                // import Commented
                /* import Blocked /* nested */ import StillBlocked */
                let script = """
                    import sys
                    \(interpolated("import NotAnImport"))
                    """
                let raw = #"import RawString \"#
                let plain = "\"; import Quoted"
                func imported() {}
                """#
            #expect(Self.modulesUsed(by: source) == ["Glibc", "LumaFormat", "Foundation", "ArgumentParser", "LumaBase", "CKissFFT"])
        }
    }
}

/// A package's targets as `swift package dump-package` prints them: only what the import check reads.
private struct Manifest: Decodable {
    var targets: [Target]

    struct Target: Decodable {
        var name: String
        var type: String
        var path: String?
        var exclude: [String]
        var sources: [String]?
        var dependencies: [Dependency]

        /// The folder SwiftPM compiles, relative to the package.
        var folder: String {
            if let path { return path.hasSuffix("/") ? String(path.dropLast()) : path }
            switch type {
            case "test": return "Tests/" + name
            case "plugin": return "Plugins/" + name
            default: return "Sources/" + name
            }
        }

        /// The target's Swift files, relative to the package: those in its folder, less `exclude`,
        /// and only those in `sources` when it names any.
        func swiftFiles(in package: URL) -> [String] {
            let inside = { (file: String, paths: [String]) in paths.contains { file == $0 || file.hasPrefix($0 + "/") } }
            return Self.swiftFiles(under: package.appendingPathComponent(folder))
                .filter { file in !inside(file, exclude) && (sources.map { inside(file, $0) } ?? true) }
                .map { folder + "/" + $0 }
        }

        static func swiftFiles(under folder: URL) -> [String] {
            (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".swift") }.sorted()
        }
    }

    /// One entry of a target's `dependencies`: `{"byName": [name, condition]}`, `{"target": […]}`
    /// or `{"product": [name, package, moduleAliases, condition]}`.
    struct Dependency: Decodable {
        var name: String
        /// The package of a `.product`; nil for a target or a name.
        var package: String?

        private struct Kind: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            let entry = try decoder.container(keyedBy: Kind.self)
            guard let kind = entry.allKeys.first else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "an empty dependency"))
            }
            var fields = try entry.nestedUnkeyedContainer(forKey: kind)
            name = try fields.decode(String.self)
            package = kind.stringValue == "product" ? try fields.decodeIfPresent(String.self) : nil
        }
    }

    /// Runs the manifest of the package at `root` (the scratch folder keeps clear of the lock of
    /// any build under way in the package, including the one running this test).
    static func dumped(from root: URL) throws -> Manifest {
        return try withScratchFolder("dump-package") { scratch in
            let run = try ProgramRun.run(.swift, ["package", "dump-package", "--package-path", root.path,
                                                                             "--scratch-path", scratch])
            guard run.status == 0 else {
                throw BuildGraphTests.Failure(description: "swift package dump-package --package-path \(root.path) failed: \(run.stderr)")
            }
            return try JSONDecoder().decode(Manifest.self, from: Data(run.stdout.utf8))
        }
    }
}
