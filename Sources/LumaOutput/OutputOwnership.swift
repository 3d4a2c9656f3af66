import LumaBase

/// What a command writes into its output folder, at any depth, so that replacing the folder
/// (`--force`, a finished sweep taking the place of its unfinished one) removes only that.
///
/// The top level is judged by name (`frame-000012.png`, `sweep.txt`); a folder the command writes
/// (a sweep's `scores/`) holds only what `ownsInside` accepts, judged by its relative path and
/// the file itself (a sweep reads the file's first bytes). A symbolic link is never the
/// command's: it writes files and folders, never links, so a link anywhere makes the folder
/// someone else's.
struct OutputOwnership {
    /// Whether a top-level name is one the command writes.
    let owns: (String) -> Bool
    /// Whether an entry below the top level (`scores/toss-real.json`, its path on disk) is one the
    /// command wrote; `nil`: the command writes no folders, and any folder inside is foreign.
    let ownsInside: ((_ relative: String, _ path: String) -> Bool)?

    /// The first entry of a folder that the command did not write.
    enum Foreign: Equatable {
        /// An entry the command does not write (its path relative to the folder).
        case entry(String)
        /// A symbolic link (its path relative to the folder).
        case link(String)

        var relative: String {
            switch self {
            case .entry(let name), .link(let name): name
            }
        }
    }

    /// The first entry of `folder`, in name order and depth first, that the command did not write;
    /// `nil` when every entry is its own. Names in `ignoring` are skipped at the top level (a
    /// partial folder's mark) when they are plain files. An unreadable folder counts as foreign.
    func firstForeign(in folder: String, ignoring: Set<String> = []) -> Foreign? {
        firstForeign(in: folder, relative: "", ignoring: ignoring)
    }

    private func firstForeign(in folder: String, relative: String, ignoring: Set<String>) -> Foreign? {
        guard let names = try? SystemPath.entries(of: folder).sorted() else { return .entry(relative.isEmpty ? "." : relative) }
        for name in names {
            let path = folder + "/" + name, inside = relative.isEmpty ? name : relative + "/" + name
            guard let status = try? SystemPath.linkStatus(of: path) else { return .entry(inside) }
            if status.kind == .symbolicLink { return .link(inside) }
            if ignoring.contains(name), status.kind == .regularFile { continue }
            let mine = relative.isEmpty ? owns(name) : (ownsInside?(inside, path) ?? false)
            guard mine else { return .entry(inside) }
            if status.kind == .folder {
                guard ownsInside != nil else { return .entry(inside) }
                if let foreign = firstForeign(in: path, relative: inside, ignoring: []) { return foreign }
            }
        }
        return nil
    }

    /// The refusal of the output `path` for holding `foreign`.
    static func refusal(_ path: String, _ foreign: Foreign) -> OutputError {
        switch foreign {
        case .entry(let name): OutputError.foreignFolder(path: path, example: name)
        case .link(let name): OutputError.symbolicLink(path: path + "/" + name)
        }
    }
}
