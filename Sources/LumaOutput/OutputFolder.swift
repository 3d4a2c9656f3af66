#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LumaBase

/// A result that is a folder of files (rendered PNG frames, exported PGM frames).
///
/// The files are written into a temporary sibling folder and the folder takes the final name only
/// in ``commit()``, so a failure leaves nothing half-written under that name. An existing folder is
/// replaced only with `replacingExisting`, and only if every entry in it is one this command would
/// write (`owns`): a folder holding anything else (a recording, a user's files) is never replaced.
/// An existing empty folder is simply filled.
public final class OutputFolder {
    /// The folder the user named.
    public let path: String
    /// Where the files go until ``commit()``.
    public let temporaryPath: String
    private let owns: (String) -> Bool
    private var lock: OutputLock?
    private var finished = false

    private init(path: String, temporaryPath: String, owns: @escaping (String) -> Bool, lock: OutputLock) {
        self.path = path
        self.temporaryPath = temporaryPath
        self.owns = owns
        self.lock = lock
    }

    deinit { if !finished { abandon() } }

    /// Checks `path` and creates the temporary folder, marked as this output's (``PartialFolders``);
    /// removes the partial folders writers of `path` killed before they finished left. Nothing at
    /// `path` changes yet.
    ///
    /// - Parameters:
    ///   - path: the folder to write.
    ///   - replacingExisting: an existing folder of this command's files may be replaced.
    ///   - inputs: files the command reads; `path` must not hold any of them.
    ///   - owns: whether a file name is one this command writes (e.g. `frame-000012.png`).
    public static func create(_ path: String, replacingExisting: Bool, inputs: [String] = [],
                              owns: @escaping (String) -> Bool) throws(OutputError) -> OutputFolder {
        var path = path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        try checkExisting(path, replacingExisting: replacingExisting, inputs: inputs, owns: owns)
        let lock = try OutputLock.claim(path)
        try checkExisting(path, replacingExisting: replacingExisting, inputs: inputs, owns: owns)
        PartialFolders.removeStale(of: path, owns: owns)
        let parts = PathParts(path)
        while true {
            let temporary = parts.hiddenSibling(".\(TemporaryName.next()).partial")
            do throws(SystemCallError) { try SystemPath.makeFolder(temporary) } catch {
                if error.errno == EEXIST { continue }
                throw OutputError.io(path: path, error.named(.create(temporary: temporary)))
            }
            let folder = OutputFolder(path: path, temporaryPath: temporary, owns: owns, lock: lock)
            do throws(SystemCallError) { try PartialFolders.mark(temporary, for: path) } catch {
                throw OutputError.io(path: path, error.named(.create(temporary: temporary)))
            }
            return folder
        }
    }

    private static func checkExisting(_ path: String, replacingExisting: Bool, inputs: [String],
                                      owns: (String) -> Bool) throws(OutputError) {
        let status = try OutputFile.checkDestination(path, replacingExisting: replacingExisting, inputs: inputs, wanted: "a folder")
        switch status.kind {
        case .missing:
            return
        case .present(.folder):
            let entries = try entries(of: path)
            if entries.isEmpty { return }
            if let foreign = entries.first(where: { !owns($0) }) { throw OutputError.foreignFolder(path: path, example: foreign) }
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
    /// hold only files this command writes) is swapped out and removed after the new one is in place.
    public func commit() throws(OutputError) {
        guard !finished else { return }
        finished = true
        defer { lock?.release(); lock = nil }
        PartialFolders.unmark(temporaryPath)
        do throws(OutputError) {
            for name in try Self.entries(of: temporaryPath) {
                do throws(SystemCallError) { try SystemFile.open(filePath(name), for: .read).sync() } catch {
                    throw OutputError.io(path: path, error.named(.sync(member: name)))
                }
            }
            OutputFile.syncFolder(of: filePath("x"))
            if PathStatus.of(path).kind == .present(.folder) {
                try Self.checkExisting(path, replacingExisting: true, inputs: [], owns: owns)
                let old = PathParts(path).hiddenSibling(".\(TemporaryName.next()).old")
                do throws(SystemCallError) { try SystemPath.move(path, to: old) } catch { throw OutputError.io(path: path, error.named(.moveAside)) }
                do throws(SystemCallError) { try SystemPath.move(temporaryPath, to: path) } catch {
                    try? SystemPath.move(old, to: path)
                    throw OutputError.io(path: path, error)
                }
                Self.remove(old)
            } else {
                do throws(SystemCallError) { try SystemPath.move(temporaryPath, to: path) } catch { throw OutputError.io(path: path, error) }
            }
            OutputFile.syncFolder(of: path)
        } catch {
            Self.remove(temporaryPath)
            throw error
        }
    }

    /// Removes the temporary folder; the final name is untouched. Idempotent.
    public func abandon() {
        guard !finished else { return }
        finished = true
        Self.remove(temporaryPath)
        lock?.release()
        lock = nil
    }

    /// Removes `folder` and what it holds, folders within included (never following a link).
    static func remove(_ folder: String) {
        for name in (try? entries(of: folder)) ?? [] {
            let entry = folder + "/" + name
            if (try? SystemPath.linkStatus(of: entry))?.kind == .folder { remove(entry) } else { try? SystemPath.remove(entry) }
        }
        try? SystemPath.removeFolder(folder)
    }
}
