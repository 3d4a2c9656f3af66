import Foundation
import LumaBase
import LumaProcess

/// How a new plugin package depends on Lumatrace: by version when the checkout is a tagged
/// release, so SwiftPM resolves it like any other versioned package (and refuses, as it would for
/// anyone, a Lumatrace whose targets carry unsafe flags); by path otherwise, so a working tree's
/// edits are what the plugin builds against.
struct LumatraceDependency: Equatable {
    /// The checkout's absolute path.
    var checkout: String
    /// The release the checkout's HEAD is tagged with (`0.1.0`, from a tag `0.1.0` or `v0.1.0`),
    /// when its working tree has no changes; `nil` otherwise.
    var release: String?

    /// Looks at the checkout with git: its HEAD's version tags, and whether anything is changed.
    /// Without git, or outside a git repository, the dependency is by path.
    static func of(checkout: String) -> LumatraceDependency {
        LumatraceDependency(checkout: checkout, release: releaseTag(of: checkout))
    }

    /// The `.package(…)` line of the plugin's Package.swift: the checkout's path (or its `file://`
    /// URL) as a Swift string literal, so a folder named with `"`, `\\` or a newline is a name, not code.
    var packageLine: String {
        if let release { return ".package(url: \(SwiftLiteral.quoted("file://" + checkout)), from: \(SwiftLiteral.quoted(release)))," }
        return ".package(name: \"Lumatrace\", path: \(SwiftLiteral.quoted(checkout))),"
    }

    /// The name products are taken from: a versioned package is known by its URL's last component
    /// (SwiftPM's identity), a path one by the name given on its line.
    var packageName: String {
        guard release != nil else { return "Lumatrace" }
        let last = URL(fileURLWithPath: checkout).lastPathComponent
        return last.hasSuffix(".git") ? String(last.dropLast(4)) : last
    }

    /// `packageName` as a Swift string literal, for the manifest's `.product(…, package: …)`.
    var packageNameLiteral: String { SwiftLiteral.quoted(packageName) }

    /// A sentence for the plugin's README.
    var readmeSentence: String {
        if let release {
            return "Lumatrace \(release) is used from the git repository `\(checkout)` by version (`from: \"\(release)\"`); point the URL in `Package.swift` at any clone that has the tag."
        }
        return "Lumatrace is used from `\(checkout)` by path; change the path in `Package.swift` to move it."
    }

    /// The highest `X.Y.Z` (or `vX.Y.Z`) tag on HEAD of a clean checkout.
    static func releaseTag(of checkout: String) -> String? {
        guard let git = Tool.find("git") else { return nil }
        func lines(_ arguments: [String]) -> [String]? {
            guard let output = try? Program(git, ["-C", checkout] + arguments).run(), output.termination == .exited(0) else { return nil }
            return output.standardOutputText.split(separator: "\n").map(String.init)
        }
        guard let changes = lines(["status", "--porcelain", "--untracked-files=no"]), changes.isEmpty,
              let tags = lines(["tag", "--points-at", "HEAD"]) else { return nil }
        let versions = tags.compactMap { tag -> [Int]? in
            let parts = (tag.hasPrefix("v") ? tag.dropFirst() : Substring(tag)).split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 3 else { return nil }
            let numbers = parts.compactMap { $0.allSatisfy(\.isASCII) ? Int($0) : nil }
            return numbers.count == 3 && numbers.allSatisfy { $0 >= 0 } ? numbers : nil
        }
        return versions.max { $0.lexicographicallyPrecedes($1) }.map { $0.map(String.init).joined(separator: ".") }
    }
}
