#if canImport(Glibc)
import Glibc
#endif
import LumaBase
import LumaEngine
import LumaOutput

/// The logs a sweep keeps on request (`--keep-logs DIR`): one per setting per recording, cut from
/// the replay that ran the setting beside others, and written as a replay of that setting alone
/// would write it (its header names only its instance), so `verify` re-runs it byte for byte.
public struct SweepLogs: Sendable {
    /// The folder the logs go into.
    public var folder: String
    /// Whether an existing log may be replaced (`--force`).
    public var replacingExisting: Bool

    public init(folder: String, replacingExisting: Bool) {
        self.folder = folder
        self.replacingExisting = replacingExisting
    }

    /// Where the log of setting `id` on recording `entry` goes: `FOLDER/STEM.ID.events.jsonl`.
    public func path(_ entry: SweepCorpus.Entry, setting id: String) -> String {
        (folder.hasSuffix("/") ? folder : folder + "/") + "\(entry.stem).\(id).events.jsonl"
    }

    /// Makes the folder when missing and, unless replacing, refuses a log of the sweep already there:
    /// before anything runs, rather than after the first replay.
    public func prepare(_ corpus: SweepCorpus, settings: [SweepSetting]) throws(SweepError) {
        do throws(SystemCallError) { try SystemPath.makeFolder(folder) } catch {
            guard error.errno == EEXIST else { throw .keptLogsUnwritable(folder: folder, error) }
            if let kind = (try? SystemPath.status(of: folder))?.kind {
                guard kind == .folder else { throw .keptLogsNotAFolder(folder: folder, found: kind.inWords) }
            } else {
                throw .keptLogsNotAFolder(folder: folder, found: "a symbolic link to nothing")
            }
        }
        guard !replacingExisting else { return }
        for entry in corpus.entries {
            for setting in settings where (try? SystemPath.status(of: path(entry, setting: setting.id))) != nil {
                throw .keptLogExists(path: path(entry, setting: setting.id))
            }
        }
    }

    /// Writes the log of every instance `pass` ran on `entry`, each with the engine's own events
    /// (gaps) and its own events, in log order.
    public func keep(_ pass: EventLog, of entry: SweepCorpus.Entry) throws(OutputError) {
        guard let end = pass.end else { return }
        for setup in pass.header.analyzers {
            var header = pass.header
            header.analyzers = [setup]
            let log = try EventLogWriter(path: path(entry, setting: setup.name), header: header, replacingExisting: replacingExisting,
                                         inputs: [entry.recordingPath, entry.truthPath])
            for event in pass.events where event.analyzer == setup.name || event.analyzer == "engine" { try log.write(event) }
            try log.finish(framesReplayed: end.framesReplayed, ending: header.ending)
        }
    }
}
