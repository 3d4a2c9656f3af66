import LumaBase

/// The temporary folders an ``OutputFolder`` is written in, `.NAME.PID-N.partial` beside the
/// output `NAME`, each marked as a writer's own; and the removal of those a writer killed before
/// it finished (SIGKILL, a machine gone) left behind.
///
/// A folder is removed only when it can be proved to be a partial output of this same output:
/// a real folder (not a link) beside it, named `.NAME.PID-N.partial`, holding the mark (a plain
/// file naming `NAME`) and otherwise only names the command writes. The output's lock is held
/// while they are removed, so no live writer of the output owns one. Another output's partial
/// folders, a folder without the mark (one of an earlier lumatrace), or one holding anything
/// else, are left as they are.
enum PartialFolders {
    /// The name of the mark inside a partial folder.
    static let markName = ".lumatrace-partial"

    /// The mark's text for the output `path`: the output's name, so a partial folder of another
    /// output is never taken for this one's.
    static func markText(for path: String) -> [UInt8] {
        Array("lumatrace: the unfinished output folder \(PathParts(path).name)\n".utf8)
    }

    /// Writes the mark into the new partial folder `temporary` of the output `path`.
    static func mark(_ temporary: String, for path: String) throws(SystemCallError) {
        let file = try SystemFile.create(temporary + "/" + markName, .exclusive)
        try file.write(markText(for: path))
    }

    /// Removes the mark from `temporary`, before the folder takes the output's name.
    static func unmark(_ temporary: String) {
        try? SystemPath.remove(temporary + "/" + markName)
    }

    /// Whether the entry `name` beside the output `path` is named as one of its partial folders:
    /// `.NAME.` then digits, `-`, digits, then `.partial`.
    static func isNamedPartial(_ name: String, of path: String) -> Bool {
        let prefix = "." + PathParts(path).name + ".", suffix = ".partial"
        guard name.hasPrefix(prefix), name.hasSuffix(suffix), name.count > prefix.count + suffix.count else { return false }
        let middle = name.dropFirst(prefix.count).dropLast(suffix.count).split(separator: "-", omittingEmptySubsequences: false)
        return middle.count == 2 && middle.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
    }

    /// Whether `folder` (beside the output `path`) is a partial folder of it: a real folder holding
    /// the mark naming `path`'s name, and otherwise only entries `owns` accepts.
    static func isOwnPartial(_ folder: String, of path: String, owns: (String) -> Bool) -> Bool {
        guard (try? SystemPath.linkStatus(of: folder))?.kind == .folder,
              (try? SystemPath.linkStatus(of: folder + "/" + markName))?.kind == .regularFile,
              let mark = try? SystemFile.readWhole(folder + "/" + markName, maximumBytes: 4096),
              mark == markText(for: path),
              let entries = try? SystemPath.entries(of: folder) else { return false }
        return entries.allSatisfy { $0 == markName || owns($0) }
    }

    /// Removes the partial folders of the output `path` that writers killed before they finished
    /// left; the caller holds the output's lock. Returns the paths removed.
    @discardableResult
    static func removeStale(of path: String, owns: (String) -> Bool) -> [String] {
        let parts = PathParts(path)
        guard let names = try? SystemPath.entries(of: parts.folder) else { return [] }
        var removed: [String] = []
        for name in names.sorted() where isNamedPartial(name, of: path) {
            let folder = (parts.folder == "/" ? "/" : parts.folder + "/") + name
            guard isOwnPartial(folder, of: path, owns: owns) else { continue }
            OutputFolder.remove(folder)
            removed.append(folder)
        }
        return removed
    }
}
