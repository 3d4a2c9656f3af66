import Foundation
import Testing
import LumaTestSupport

/// The documents link each other, and a page merged, moved or renamed must not leave a link
/// nowhere: every relative link in the README, ARCHITECTURE.md, CHANGELOG.md, python/README.md
/// and docs/ names a file that exists, and a `#section` one of its headings.
@Suite("Documents: every relative link reaches a file, and a heading when it names one")
struct DocumentLinkTests {
    static let documents = ["README.md", "ARCHITECTURE.md", "CHANGELOG.md", "python/README.md"]

    static var allDocuments: [String] {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: PackageLayout.root.appendingPathComponent("docs").path)) ?? []
        return documents + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
    }

    /// The text outside fenced code blocks, where a link is a link.
    static func prose(_ path: String) throws -> String {
        let text = try String(contentsOf: PackageLayout.root.appendingPathComponent(path), encoding: .utf8)
        var inFence = false
        return text.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            if line.hasPrefix("```") { inFence.toggle(); return false }
            return !inFence
        }.joined(separator: "\n")
    }

    /// The anchors GitHub gives a document's headings: lower case, punctuation dropped, spaces as `-`.
    static func anchors(_ path: String) throws -> Set<String> {
        Set(try prose(path).split(separator: "\n").filter { $0.hasPrefix("#") }.map { line in
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
            return String(title.filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == " " }.map { $0 == " " ? "-" : $0 })
        })
    }

    @Test("every relative link reaches an existing file, and its #anchor a heading there")
    func linksResolve() throws {
        #expect(Self.allDocuments.contains("docs/writing-an-analyzer.md"))
        let link = try Regex(#"\]\(([^)\s]+)\)"#)
        var broken: [String] = []
        for document in Self.allDocuments {
            for match in try Self.prose(document).matches(of: link) {
                let target = String(match.output[1].substring ?? "")
                guard !target.contains(":") else { continue }  // https:, mailto:
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let base = URL(fileURLWithPath: document, relativeTo: PackageLayout.root).deletingLastPathComponent()
                let file = parts[0].isEmpty ? document
                    : URL(fileURLWithPath: String(parts[0]), relativeTo: base).standardizedFileURL.path
                        .replacingOccurrences(of: PackageLayout.root.standardizedFileURL.path + "/", with: "")
                guard FileManager.default.fileExists(atPath: PackageLayout.root.appendingPathComponent(file).path) else {
                    broken.append("\(document): \(target) (no such file)"); continue
                }
                if parts.count == 2, file.hasSuffix(".md"), try !Self.anchors(file).contains(String(parts[1])) {
                    broken.append("\(document): \(target) (no such heading)")
                }
            }
        }
        #expect(broken.isEmpty, "\(broken.joined(separator: "\n"))")
    }
}
