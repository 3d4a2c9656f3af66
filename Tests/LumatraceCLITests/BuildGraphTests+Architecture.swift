import Foundation
import Testing
import LumaTestSupport

extension BuildGraphTests {
    /// ARCHITECTURE.md's layer diagram and import table say what `Package.swift` declares, so the
    /// document cannot drift from the build: a module added, or a dependency added or dropped,
    /// fails here until the document says it too.
    @Suite("Build graph: ARCHITECTURE.md's diagram and import table match Package.swift")
    struct Architecture {
        /// The Swift modules of `Sources/`: the ones the document describes.
        static func sourceModules(_ targets: [String: (dependencies: [String], folder: URL)]) -> [String: [String]] {
            let sources = PackageLayout.root.appendingPathComponent("Sources").standardizedFileURL.path + "/"
            var modules: [String: [String]] = [:]
            for (name, target) in targets where target.folder.standardizedFileURL.path.hasPrefix(sources) {
                let files = FileManager.default.enumerator(atPath: target.folder.path)?.allObjects as? [String] ?? []
                if files.contains(where: { $0.hasSuffix(".swift") }) { modules[name] = target.dependencies }
            }
            return modules
        }

        /// The words of `text` that are names of `modules`.
        static func modules(namedIn text: Substring, of modules: Set<String>) -> Set<String> {
            Set(text.split { !($0.isLetter || $0.isNumber) }.map(String.init).filter(modules.contains))
        }

        static var document: String {
            get throws { try String(contentsOf: PackageLayout.root.appendingPathComponent("ARCHITECTURE.md"), encoding: .utf8) }
        }

        @Test("each module's row names exactly the Swift modules its target depends on",
              .enabled(if: ExternalTool.swift.isInstalled, "needs the swift toolchain on PATH"))
        func importTableMatchesManifest() throws {
            let modules = Self.sourceModules(try BuildGraphTests.targets(of: PackageLayout.root))
            let names = Set(modules.keys)
            var described = Set<String>()
            for line in try Self.document.split(separator: "\n") where line.hasPrefix("| `") {
                let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
                guard cells.count == 5 else {
                    Issue.record("ARCHITECTURE.md: a table row of \(cells.count - 2) cells, not 3 (module | holds | may import): \(line)")
                    continue
                }
                let module = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
                guard let dependencies = modules[module] else { continue }
                described.insert(module)
                // The command line may import everything; the table says so in words.
                if cells[3] == "everything above" { continue }
                let written = Self.modules(namedIn: Substring(cells[3]), of: names)
                let declared = Set(dependencies).intersection(names)
                #expect(written == declared, """
                    ARCHITECTURE.md: the row of \(module) says it may import \(written.sorted()), \
                    Package.swift declares \(declared.sorted())
                    """)
            }
            // The executable is drawn in the diagram; it holds nothing to describe in the table.
            let undescribed = names.subtracting(described).subtracting(["lumatrace"]).sorted()
            #expect(undescribed.isEmpty, "ARCHITECTURE.md: no row in the import table for \(undescribed)")
            #expect(described.count > 10, "the table's rows were not found: \(described.sorted())")
        }

        @Test("the layer diagram draws every module of Sources/",
              .enabled(if: ExternalTool.swift.isInstalled, "needs the swift toolchain on PATH"))
        func diagramDrawsEveryModule() throws {
            let names = Set(Self.sourceModules(try BuildGraphTests.targets(of: PackageLayout.root)).keys)
            let document = try Self.document
            let layers = try #require(document.range(of: "## Layers\n\n```\n"), "ARCHITECTURE.md has no diagram under ## Layers")
            let end = try #require(document[layers.upperBound...].range(of: "```"), "ARCHITECTURE.md: the diagram is not closed")
            let drawn = Self.modules(namedIn: document[layers.upperBound..<end.lowerBound], of: names)
            let missing = names.subtracting(drawn).sorted()
            #expect(missing.isEmpty, "ARCHITECTURE.md: the layer diagram does not draw \(missing)")
        }
    }
}
