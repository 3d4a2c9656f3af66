import LumaBase

/// The temporary folders an ``OutputFolder`` is written in, `.NAME.PID-N.partial` beside the
/// output `NAME`, each marked as a writer's own; and the removal of those a writer killed before
/// it finished (SIGKILL, a machine gone) left behind.
///
/// A folder is removed only when it can be proved to be a partial output of this same output:
/// a real folder (not a link) beside it, named `.NAME.PID-N.partial`, holding the mark (a plain
/// file naming `NAME`) and otherwise only what the command writes, at any depth; or a folder the
/// output replaced that a writer killed in its final swap left (`.NAME.PID-N.old`, or the
/// partial name after the exchange, which then holds the old output and the mark the writer put
/// in it first); or an empty one of those names. The output's lock is held
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

    /// Writes the mark into the new partial folder `temporary` of the output `path` (or into the
    /// output itself, just before it is swapped out, so that it is recognized wherever it lands).
    static func mark(_ temporary: String, for path: String) throws(SystemCallError) {
        try? SystemPath.remove(temporary + "/" + markName)  // a mark a killed swap left: a new one, never through a link
        let file = try SystemFile.create(temporary + "/" + markName, .exclusive)
        try file.write(markText(for: path))
    }

    /// Removes the mark from `temporary`, once the folder has the output's name.
    static func unmark(_ temporary: String) {
        try? SystemPath.remove(temporary + "/" + markName)
    }

    /// Whether the entry `name` beside the output `path` is named as one of its partial folders
    /// (`.NAME.` then digits, `-`, digits, then `.partial`) or, with `orReplaced`, as a folder the
    /// output replaced (the same with `.old`, left by a writer killed in its final swap).
    static func isNamedPartial(_ name: String, of path: String, orReplaced: Bool = false) -> Bool {
        let prefix = "." + PathParts(path).name + "."
        guard let suffix = ([".partial"] + (orReplaced ? [".old"] : [])).first(where: { name.hasSuffix($0) }),
              name.hasPrefix(prefix), name.count > prefix.count + suffix.count else { return false }
        let middle = name.dropFirst(prefix.count).dropLast(suffix.count).split(separator: "-", omittingEmptySubsequences: false)
        return middle.count == 2 && middle.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
    }

    /// Whether `folder` holds the mark naming the output `path` (a plain file, not a link).
    static func isMarked(_ folder: String, for path: String) -> Bool {
        guard (try? SystemPath.linkStatus(of: folder + "/" + markName))?.kind == .regularFile,
              let mark = try? SystemFile.readWhole(folder + "/" + markName, maximumBytes: 4096) else { return false }
        return mark == markText(for: path)
    }

    /// Whether `folder` (beside the output `path`) is a partial folder of it: a real folder holding
    /// only entries `ownership` accepts, at any depth, and the mark naming `path`'s name; or empty
    /// (a removal cut short after its mark, removed last, was gone). A `.old` folder (`replaced`)
    /// needs no mark: it is only ever made by renaming the output, checked to be all its own.
    static func isOwnPartial(_ folder: String, of path: String, ownership: OutputOwnership, replaced: Bool = false) -> Bool {
        guard (try? SystemPath.linkStatus(of: folder))?.kind == .folder, let entries = try? SystemPath.entries(of: folder) else { return false }
        if entries.isEmpty { return true }
        guard replaced || isMarked(folder, for: path) else { return false }
        return ownership.firstForeign(in: folder, ignoring: [markName]) == nil
    }

    /// Removes the partial folders of the output `path` that writers killed before they finished
    /// left, and the folders it replaced that a writer killed in its final swap left (`.old`); the
    /// caller holds the output's lock. Returns the paths removed.
    @discardableResult
    static func removeStale(of path: String, ownership: OutputOwnership) -> [String] {
        let parts = PathParts(path)
        guard let names = try? SystemPath.entries(of: parts.folder) else { return [] }
        var removed: [String] = []
        for name in names.sorted() where isNamedPartial(name, of: path, orReplaced: true) {
            let folder = (parts.folder == "/" ? "/" : parts.folder + "/") + name
            guard isOwnPartial(folder, of: path, ownership: ownership, replaced: name.hasSuffix(".old")) else { continue }
            remove(folder)
            removed.append(folder)
        }
        return removed
    }

    /// Removes `folder` and what it holds, folders within included, never following a link (a
    /// link is removed, not what it points to). Its mark goes last, just before the folder itself,
    /// so a removal cut short leaves a folder the next writer still recognizes as its own.
    static func remove(_ folder: String) {
        guard (try? SystemPath.linkStatus(of: folder))?.kind == .folder else { return }
        for name in ((try? SystemPath.entries(of: folder)) ?? []).sorted() where name != markName {
            let entry = folder + "/" + name
            if (try? SystemPath.linkStatus(of: entry))?.kind == .folder { remove(entry) } else { try? SystemPath.remove(entry) }
        }
        try? SystemPath.remove(folder + "/" + markName)
        try? SystemPath.removeFolder(folder)
    }
}
