#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSystemCalls

extension SystemPath {
    /// Makes the folder `path` (its parent must exist). Throws `.makeFolder`; `EEXIST` when
    /// anything is there already.
    package static func makeFolder(_ path: String, permissions: mode_t = 0o755) throws(SystemCallError) {
        guard mkdir(bytes(path), permissions) == 0 else { throw SystemCallError(.makeFolder) }
    }

    /// Makes the folder `path` and any of its parents that are missing (`mkdir -p`); a folder
    /// already there is fine. Throws `.makeFolder` for the first one that cannot be made
    /// (`EEXIST`: something other than a folder has its name).
    package static func makeFolders(_ path: String, permissions: mode_t = 0o755) throws(SystemCallError) {
        if (try? status(of: path))?.kind == .folder { return }
        var parent = path
        while parent.count > 1, parent.hasSuffix("/") { parent.removeLast() }  // `a/b/` is `a/b`
        if let slash = parent.lastIndex(of: "/") {
            parent = String(parent[..<slash])
            if !parent.isEmpty { try makeFolders(parent, permissions: permissions) }
        }
        do { try makeFolder(path, permissions: permissions) } catch {
            // Made meanwhile by another process: as good as made here.
            guard error.errno == EEXIST, (try? status(of: path))?.kind == .folder else { throw error }
        }
    }

    /// Gives the file or folder at `source` the name `destination`, in one step (`rename`): an
    /// existing file there is replaced (atomically: a reader sees the old file or the new one), an
    /// existing empty folder too. Throws `.moveIntoPlace` (`EXDEV`: another file system).
    package static func move(_ source: String, to destination: String) throws(SystemCallError) {
        guard rename(bytes(source), bytes(destination)) == 0 else { throw SystemCallError(.moveIntoPlace) }
    }

    /// Swaps the names of two existing entries in one step (`renameat2` with `RENAME_EXCHANGE`):
    /// neither name is ever missing. Throws `.moveIntoPlace`; `EINVAL` or `ENOSYS` where the
    /// kernel or the file system cannot exchange (the caller falls back to two renames).
    package static func exchange(_ a: String, _ b: String) throws(SystemCallError) {
        guard lumatrace_exchange_names(bytes(a), bytes(b)) == 0 else { throw SystemCallError(.moveIntoPlace) }
    }

    /// Gives the file at `source` the name `destination` only if nothing is there: a hard link,
    /// then the old name removed, so a file that appeared meanwhile fails with `EEXIST` and is left
    /// alone (`rename` would replace it). On a file system without hard links (some FUSE and
    /// network mounts) it checks, then renames. Throws `.moveIntoPlace`.
    package static func moveWithoutReplacing(_ source: String, to destination: String) throws(SystemCallError) {
        if link(bytes(source), bytes(destination)) == 0 {
            try? remove(source)
            return
        }
        let failure = SystemCallError(.moveIntoPlace)
        if failure.errno == EEXIST { throw failure }
        if (try? linkStatus(of: destination)) != nil { throw SystemCallError(.moveIntoPlace, errno: EEXIST) }
        try move(source, to: destination)
    }

    /// Removes the file (or link) at `path`. Throws `.remove`.
    package static func remove(_ path: String) throws(SystemCallError) {
        guard unlink(bytes(path)) == 0 else { throw SystemCallError(.remove) }
    }

    /// Removes the empty folder at `path`. Throws `.removeFolder` (`ENOTEMPTY`).
    package static func removeFolder(_ path: String) throws(SystemCallError) {
        guard rmdir(bytes(path)) == 0 else { throw SystemCallError(.removeFolder) }
    }

    /// Makes the entries of `folder` durable: a file just created or renamed into it survives a
    /// crash only once its folder is synced. Some file systems cannot sync a folder: callers that
    /// can live without it ignore the error. Throws `.open` or `.sync()`.
    package static func syncFolder(_ folder: String) throws(SystemCallError) {
        try SystemFile.open(folder, for: .folder).sync()
    }
}
