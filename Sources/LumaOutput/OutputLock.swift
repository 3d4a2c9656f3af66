import LumaBase

/// An exclusive claim on an output path, held while a result is written there, so two lumatrace
/// processes never write the same output at once (the second is refused at once, naming it).
///
/// The claim is an `flock` on a hidden sibling, `.NAME.lock`, in the output's folder with its links
/// resolved: `-o out`, `-o ./out/` and `-o linkdir/out` (with `linkdir` a link to `.`) claim
/// one lock. (A link at `NAME` itself is refused by ``OutputFolder``.) The kernel drops it when the process
/// dies, so a killed writer never leaves a stale claim; the holder removes the file when it is done.
/// A waiter that locked a file the holder has just removed notices (the path no longer names the
/// file it locked) and tries again, so two holders can never coexist.
final class OutputLock {
    let path: String
    private var file: SystemFile?

    private init(path: String, file: SystemFile) {
        self.path = path
        self.file = file
    }

    deinit { release() }

    /// Claims `output`, or throws ``OutputError/busy(path:)`` if another process holds it.
    static func claim(_ output: String) throws(OutputError) -> OutputLock {
        let lockPath = lockPath(of: output)
        for _ in 0..<100 {
            let file: SystemFile
            do throws(SystemCallError) { file = try SystemFile.create(lockPath, .keepingContents) } catch {
                throw OutputError.io(path: output, error.named(.createLock(lockPath)))
            }
            let locked: Bool
            do throws(SystemCallError) { locked = try file.tryLock() } catch {
                throw OutputError.io(path: output, error.named(.lock(lockPath)))
            }
            guard locked else { throw OutputError.busy(path: output) }
            if let held = try? file.status(), let named = try? SystemPath.status(of: lockPath), held.isSameFile(as: named) {
                return OutputLock(path: lockPath, file: file)
            }
            file.close()  // the holder removed it between our open and our lock: take the new one
        }
        throw OutputError.busy(path: output)
    }

    /// `.NAME.lock` beside `output`, in its folder with every link resolved (as given when the
    /// folder cannot be resolved: the claim then fails naming it).
    static func lockPath(of output: String) -> String {
        var parts = PathParts(output)
        if let folder = try? SystemPath.resolved(parts.folder) { parts.folder = folder }
        return parts.hiddenSibling(".lock")
    }

    /// Removes the lock file and drops the claim (idempotent).
    func release() {
        guard let file else { return }
        try? SystemPath.remove(path)
        file.close()
        self.file = nil
    }
}
