import Foundation
import LumaBase
import LumaOutput
import LumaRegression

/// Ctrl-C (SIGINT) or SIGTERM during a sweep: the unfinished output folder, its lock and this
/// process's half-written files are removed, one line says what is kept (the stored scores, from
/// which the same command resumes), and the sweep exits with status 2. A signal that arrives while
/// the outputs are being put in place lets that finish. The folder is held weakly: a sweep that
/// fails drops it, which removes it.
final class SweepInterruption: @unchecked Sendable {
    private let sources: SignalSources

    /// Ready when `init` returns (``SignalSources``).
    init(_ folder: OutputFolder, resume: SweepResume, keptLogs: String?) {
        sources = SignalSources { [weak folder] name in
            guard let folder, folder.abandon() else { return }
            for scratch in [resume.folder, keptLogs].compactMap({ $0 }) { Self.removeOwnTemporaries(in: scratch) }
            let stored = (try? SystemPath.entries(of: resume.folder).filter { !$0.hasPrefix(".") }.count) ?? 0
            let kept = stored == 0 ? "nothing is kept" : "the scores of \(Plural.count(stored, "recording")) are kept in \(resume.folder), and the same command resumes from them"
            FileHandle.standardError.write(Data("\nlumatrace: error: sweep stopped by \(name): \(kept)\n".utf8))
            exit(2)
        }
    }

    /// Stops listening: the signals kill the process again.
    func restore() { sources.restore() }

    /// Removes the files this process was writing in `folder` (`.NAME.PID-N.partial`, with their
    /// `.NAME.lock`), which its writers would have removed had they been let finish.
    static func removeOwnTemporaries(in folder: String) {
        let mine = ".\(getpid())-"
        for name in (try? SystemPath.entries(of: folder)) ?? [] where name.hasPrefix(".") && name.hasSuffix(".partial") {
            guard let at = name.range(of: mine, options: .backwards) else { continue }
            let base = String(name[..<at.lowerBound])
            try? SystemPath.remove(folder + "/" + name)
            try? SystemPath.remove(folder + "/" + base + ".lock")
        }
    }
}
