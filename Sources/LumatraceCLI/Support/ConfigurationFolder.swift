import Foundation
import LumaAnalysis
import LumaEngine

/// Paths inside analyzer configurations (an external plugin's folder) are relative to the file
/// they are written in: the pipeline file they were read from, the log whose header holds them.
/// When `replay` writes them into a log in another folder, it re-expresses them relative to the
/// log, so a golden log finds its plugin from wherever it is verified, and both can move together.
enum ConfigurationFolder {
    /// The folder of `file` (a log or pipeline path; `-` is standard output: the current folder),
    /// absolute and without `.` or `..` steps.
    static func of(_ file: String) -> String {
        guard file != "-" else { return current }
        return URL(fileURLWithPath: file, relativeTo: URL(fileURLWithPath: current)).deletingLastPathComponent().standardized.path
    }

    /// The current folder, absolute.
    static var current: String { URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardized.path }

    /// `setup` with each of its path options (``AnalyzerDescriptor/pathOptions``), read relative to
    /// `base`, rewritten relative to `folder`. Absolute paths stay as they are.
    static func rebase(_ setup: inout AnalyzerSetup, registry: AnalyzerRegistry, from base: String, to folder: String) throws {
        let keys = try registry.descriptor(named: setup.analyzer).pathOptions
        guard !keys.isEmpty, base != folder, case .object(var members) = setup.configuration else { return }
        for i in members.indices where keys.contains(members[i].key) {
            guard let path = members[i].value.stringValue, !path.hasPrefix("/") else { continue }
            let absolute = URL(fileURLWithPath: base).appendingPathComponent(path).standardized.path
            members[i].value = .string(relativePath(to: absolute, from: folder))
        }
        setup.configuration = .object(members)
    }

    /// The relative path that leads from folder `from` to `to` (both absolute): `../plugins`, `.`.
    static func relativePath(to target: String, from folder: String) -> String {
        let a = URL(fileURLWithPath: folder).standardized.pathComponents, b = URL(fileURLWithPath: target).standardized.pathComponents
        var common = 0
        while common < a.count, common < b.count, a[common] == b[common] { common += 1 }
        let steps = Array(repeating: "..", count: a.count - common) + b[common...]
        return steps.isEmpty ? "." : steps.joined(separator: "/")
    }
}
