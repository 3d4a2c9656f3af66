import Foundation
import LumaBase
import LumaOutput
import LumaRegression

extension Sweep {
    /// Whether an entry of the output folder is one a sweep writes: at the top level its outputs
    /// and `scores/`, and inside `scores/` only the stored-scores files a sweep wrote
    /// (``SweepResume/isOwnEntry(_:path:)``). `--force` replaces nothing else.
    static func ownsTopLevel(_ name: String) -> Bool { (fileNames + [SweepResume.folderName]).contains(name) }

    /// Refuses, before anything runs, outputs that could not be written at the end: `-o` empty, a
    /// link, a folder holding anything a sweep did not write (a link at `OUT/scores` included), and
    /// `--keep-logs` at or inside `-o` (its logs would be files the sweep's folder does not hold).
    func checkOutputs(inputs: [String]) throws {
        guard !output.isEmpty else { throw UsageError("-o needs the name of the output folder, not an empty one") }
        try OutputFolder.check(output, replacingExisting: true, inputs: inputs, owns: Self.ownsTopLevel, ownsInside: SweepResume.isOwnEntry)
        guard let keepLogs else { return }
        guard !keepLogs.isEmpty else { throw UsageError("--keep-logs needs the name of a folder, not an empty one") }
        if Self.isSameOrInside(keepLogs, output) {
            throw CLIError("--keep-logs \(keepLogs) is the output folder -o \(output) or inside it: keep the logs in a folder of their own")
        }
    }

    /// Whether `path` is `folder` or inside it, their folders' links resolved.
    static func isSameOrInside(_ path: String, _ folder: String) -> Bool {
        func resolved(_ path: String) -> String? {
            let url = URL(fileURLWithPath: path)
            guard let parent = try? SystemPath.resolved(url.deletingLastPathComponent().path) else { return nil }
            return parent == "/" ? "/" + url.lastPathComponent : parent + "/" + url.lastPathComponent
        }
        guard let inner = resolved(path), let outer = resolved(folder) else { return false }
        let innerFull = (try? SystemPath.resolved(inner)) ?? inner
        return inner == outer || innerFull == outer || innerFull.hasPrefix(outer + "/") || inner.hasPrefix(outer + "/")
    }

    /// Whether `output` is the folder of an unfinished sweep: it holds only stored scores (and
    /// perhaps the mark a sweep killed in its final swap left).
    static func isUnfinished(_ output: String) -> Bool {
        (try? FileManager.default.contentsOfDirectory(atPath: output))?.filter { $0 != OutputFolder.markName } == [SweepResume.folderName]
    }
}
