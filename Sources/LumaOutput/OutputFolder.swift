#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LumaBase
import Synchronization

/// A result that is a folder of files (rendered PNG frames, exported PGM frames, a sweep's outputs).
///
/// The files are written into a temporary sibling folder and the folder takes the final name only
/// in ``commit()``, so a failure leaves nothing half-written under that name. An existing folder is
/// replaced only with `replacingExisting`, and only if everything in it, at any depth, is what this
/// command writes (`owns`, `ownsInside`): a folder holding anything else (a recording, a user's
/// files, a symbolic link) is never replaced. An existing empty folder is simply filled. The
/// output itself is never a symbolic link: one is refused, naming it, so nothing is written or
/// removed through it.
public final class OutputFolder {
    /// The folder the user named.
    public let path: String
    /// Where the files go until ``commit()``.
    public let temporaryPath: String
    let ownership: OutputOwnership
    private var lock: OutputLock?
    /// Whether ``commit()`` or ``abandon()`` has begun: the first one wins, whichever thread it runs
    /// on (a signal's handler abandons while the main thread may be committing).
    private let finished = Mutex(false)

    /// The name of the mark a partial folder holds, which a writer killed in its final swap may
    /// leave in the output: not one of the output's files.
    public static let markName = PartialFolders.markName

    private init(path: String, temporaryPath: String, ownership: OutputOwnership, lock: OutputLock) {
        self.path = path
        self.temporaryPath = temporaryPath
        self.ownership = ownership
        self.lock = lock
    }

    deinit { abandon() }

    /// Marks the output finished; false when it already was.
    private func finish() -> Bool { finished.withLock { done in defer { done = true }; return !done } }

    /// Checks `path` and creates the temporary folder, marked as this output's (``PartialFolders``);
    /// removes the partial folders writers of `path` killed before they finished left. Nothing at
    /// `path` changes yet.
    ///
    /// - Parameters:
    ///   - path: the folder to write.
    ///   - replacingExisting: an existing folder of this command's files may be replaced.
    ///   - inputs: files the command reads; `path` must not hold any of them.
    ///   - owns: whether a file name is one this command writes (e.g. `frame-000012.png`).
    ///   - ownsInside: whether an entry below the top level (its path relative to the folder, and
    ///     its path on disk) is one this command wrote, for a command that writes folders inside
    ///     (a sweep's `scores/STEM.json`); without it, any folder inside is someone else's.
    public static func create(_ path: String, replacingExisting: Bool, inputs: [String] = [],
                              owns: @escaping (String) -> Bool,
                              ownsInside: ((_ relative: String, _ path: String) -> Bool)? = nil) throws(OutputError) -> OutputFolder {
        var path = path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        let ownership = OutputOwnership(owns: owns, ownsInside: ownsInside)
        try checkExisting(path, replacingExisting: true, inputs: inputs, ownership: ownership)
        let lock = try OutputLock.claim(path)
        try checkExisting(path, replacingExisting: true, inputs: inputs, ownership: ownership)
        // What killed writers left goes first, even when the output itself is then refused.
        PartialFolders.removeStale(of: path, ownership: ownership)
        PartialFolders.unmark(path)  // a mark a writer killed in its final swap left in the output
        try checkExisting(path, replacingExisting: replacingExisting, inputs: inputs, ownership: ownership)
        let parts = PathParts(path)
        while true {
            let temporary = parts.hiddenSibling(".\(TemporaryName.next()).partial")
            do throws(SystemCallError) { try SystemPath.makeFolder(temporary) } catch {
                if error.errno == EEXIST { continue }
                throw OutputError.io(path: path, error.named(.create(temporary: temporary)))
            }
            let folder = OutputFolder(path: path, temporaryPath: temporary, ownership: ownership, lock: lock)
            do throws(SystemCallError) { try PartialFolders.mark(temporary, for: path) } catch {
                throw OutputError.io(path: path, error.named(.create(temporary: temporary)))
            }
            return folder
        }
    }

    /// Checks that `path` could become this output (``create(_:replacingExisting:inputs:owns:ownsInside:)``'s
    /// checks), without claiming or creating anything: for commands that check their outputs
    /// before a long run.
    public static func check(_ path: String, replacingExisting: Bool, inputs: [String] = [], owns: @escaping (String) -> Bool,
                             ownsInside: ((_ relative: String, _ path: String) -> Bool)? = nil) throws(OutputError) {
        var path = path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        try checkExisting(path, replacingExisting: replacingExisting, inputs: inputs,
                          ownership: OutputOwnership(owns: owns, ownsInside: ownsInside))
    }

    private static func checkExisting(_ path: String, replacingExisting: Bool, inputs: [String],
                                      ownership: OutputOwnership) throws(OutputError) {
        guard !path.isEmpty else { throw OutputError.wrongKind(path: path, found: "an empty name", wanted: "a folder") }
        if (try? SystemPath.linkStatus(of: path))?.kind == .symbolicLink { throw OutputError.symbolicLink(path: path) }
        let status = try OutputFile.checkDestination(path, replacingExisting: replacingExisting, inputs: inputs, wanted: "a folder")
        switch status.kind {
        case .missing:
            return
        case .present(.folder):
            let entries = try entries(of: path).filter { $0 != PartialFolders.markName }
            if entries.isEmpty { return }
            if let foreign = ownership.firstForeign(in: path, ignoring: [PartialFolders.markName]) {
                throw OutputOwnership.refusal(path, foreign)
            }
            if !replacingExisting { throw OutputError.exists(path: path) }
        default:
            throw OutputError.wrongKind(path: path, found: status.noun, wanted: "a folder")
        }
    }

    /// The names in `folder` (not `.` and `..`).
    static func entries(of folder: String) throws(OutputError) -> [String] {
        do throws(SystemCallError) { return try SystemPath.entries(of: folder).sorted() } catch {
            throw OutputError.io(path: folder, error)
        }
    }

    /// The temporary path of the file `name` inside the folder being written.
    public func filePath(_ name: String) -> String { temporaryPath + "/" + name }

    /// Writes the file `name` into the folder, whole, or throws naming the output.
    public func write(_ bytes: [UInt8], to name: String) throws(OutputError) {
        let file = filePath(name)
        let opened: SystemFile
        do throws(SystemCallError) { opened = try SystemFile.create(file, .exclusive) } catch {
            throw OutputError.io(path: path + "/" + name, error)
        }
        do throws(SystemCallError) { try opened.write(bytes) } catch {
            throw OutputError.writeFailed(path: path + "/" + name, error, leaves: .nothingIn(path))
        }
    }

    /// Syncs every file, then puts the folder under its final name. An existing folder (checked to
    /// hold only what this command writes) is exchanged with the new one in one step where the
    /// system can (`renameat2`'s `RENAME_EXCHANGE`), so the name never goes missing, and removed
    /// afterwards. Before the swap the old folder gets the partial folders' mark and the new one
    /// keeps its own until it has the name: a writer killed at any step leaves folders the next
    /// writer of this output recognizes and removes.
    public func commit() throws(OutputError) {
        guard finish() else { return }
        defer { lock?.release(); lock = nil }
        do throws(OutputError) {
            for name in try Self.entries(of: temporaryPath) {
                do throws(SystemCallError) { try SystemFile.open(filePath(name), for: .read).sync() } catch {
                    throw OutputError.io(path: path, error.named(.sync(member: name)))
                }
            }
            OutputFile.syncFolder(of: filePath("x"))
            if let replaced = try swapIntoPlace() {
                PartialFolders.unmark(path)
                PartialFolders.remove(replaced)
            } else {
                PartialFolders.unmark(path)
            }
            OutputFile.syncFolder(of: path)
        } catch {
            PartialFolders.remove(temporaryPath)
            throw error
        }
    }

    /// Gives the temporary folder the output's name; returns where the folder it replaced is now
    /// (`nil` when there was none).
    private func swapIntoPlace() throws(OutputError) -> String? {
        guard (try? SystemPath.linkStatus(of: path)) != nil else {
            do throws(SystemCallError) { try SystemPath.move(temporaryPath, to: path) } catch { throw OutputError.io(path: path, error) }
            return nil
        }
        try Self.checkExisting(path, replacingExisting: true, inputs: [], ownership: ownership)
        do throws(SystemCallError) { try PartialFolders.mark(path, for: path) } catch { throw OutputError.io(path: path, error.named(.moveAside)) }
        do throws(SystemCallError) {
            try SystemPath.exchange(temporaryPath, path)
            return temporaryPath
        } catch {
            guard error.errno == EINVAL || error.errno == ENOSYS || error.errno == ENOTSUP else {
                PartialFolders.unmark(path)
                throw OutputError.io(path: path, error)
            }
        }
        // No exchange here (an old kernel, some network file systems): aside, then into place.
        let old = PathParts(path).hiddenSibling(".\(TemporaryName.next()).old")
        do throws(SystemCallError) { try SystemPath.move(path, to: old) } catch {
            PartialFolders.unmark(path)
            throw OutputError.io(path: path, error.named(.moveAside))
        }
        do throws(SystemCallError) { try SystemPath.move(temporaryPath, to: path) } catch {
            try? SystemPath.move(old, to: path)
            PartialFolders.unmark(path)
            throw OutputError.io(path: path, error)
        }
        return old
    }

    /// Removes the temporary folder; the final name is untouched. Idempotent, and safe to call
    /// from another thread (a signal's handler): returns false, doing nothing, once the output is
    /// committed, being committed or abandoned.
    @discardableResult
    public func abandon() -> Bool {
        guard finish() else { return false }
        PartialFolders.remove(temporaryPath)
        lock?.release()
        lock = nil
        return true
    }
}
