#if canImport(Glibc)
import Glibc
#endif
import LumaBase
import LumaOutput

/// The scores of an unfinished sweep, kept on disk so that a sweep interrupted (killed, a machine
/// gone) resumes from them: one file per recording, `FOLDER/STEM.json`, written atomically as soon
/// as every setting has been scored on that recording. Each file names the sweep
/// (``SweepDefinition``) and the recording and truth (``SweepRecordingIdentity``) its scores are of;
/// a file of another sweep, recording or truth is refused, naming it, never silently reused.
public struct SweepResume: Sendable {
    /// The file of one recording's scores.
    public struct Stored: Sendable, Equatable, Codable {
        public static let format = "lumatrace.sweep-scores"
        public static let formatVersion = 1
        public var format = Self.format
        public var version = Self.formatVersion
        public var sweep: SweepDefinition
        public var recording: SweepRecordingIdentity
        /// Every setting's score on the recording, in grid order.
        public var scores: [SweepScore]
    }

    /// The sweep's output folder, and the folder of the stored scores in it (`OUT/scores`).
    public var output: String
    public var folder: String { output + "/scores" }

    /// The name of the stored scores' folder in the output folder.
    public static let folderName = "scores"

    public init(output: String) {
        var output = output
        while output.count > 1, output.hasSuffix("/") { output.removeLast() }
        self.output = output
    }

    /// Where the scores of `recording` are stored: `FOLDER/STEM.json`.
    public func path(of recording: SweepRecordingIdentity) -> String {
        folder + "/" + String(recording.name.dropLast(".luma".count)) + ".json"
    }

    /// The scores stored for `sweep` over the corpus `recordings`, by recording index. Every file
    /// of the folder must be one of them (hidden names, the leftovers of a write cut short, aside);
    /// one of another sweep, recording or truth, or unreadable, is refused naming it.
    public func stored(_ sweep: SweepDefinition, recordings: [SweepRecordingIdentity]) throws(SweepFileError) -> [Int: [SweepScore]] {
        let names: [String]
        do throws(SystemCallError) { names = try SystemPath.entries(of: folder).sorted() } catch {
            if error.errno == ENOENT { return [:] }
            throw SweepFileError(path: folder, problem: .unreadable(error))
        }
        var found: [Int: [SweepScore]] = [:]
        for name in names where !name.hasPrefix(".") {
            let path = folder + "/" + name
            guard let index = recordings.firstIndex(where: { self.path(of: $0) == path }) else {
                throw SweepFileError(path: path, problem: .notInCorpus(name: name.hasSuffix(".json") ? String(name.dropLast(".json".count)) + ".luma" : name))
            }
            let stored = try SweepStoredFile.read(Stored.self, from: path, format: Stored.format, version: Stored.formatVersion, kind: "a sweep's stored scores")
            // A recording's scores are stored once every pass is done, so how the settings were
            // split into passes (the memory budget then) does not matter to them.
            var current = sweep
            current.passSize = stored.sweep.passSize
            if let (field, mine, theirs) = stored.sweep.difference(from: current) {
                throw SweepFileError(path: path, problem: .otherSweep(field: field, stored: mine, now: theirs))
            }
            let now = recordings[index]
            guard stored.recording.name == now.name else { throw SweepFileError(path: path, problem: .notInCorpus(name: stored.recording.name)) }
            if stored.recording.framesSHA256 != now.framesSHA256 || stored.recording.frames != now.frames {
                throw SweepFileError(path: path, problem: .otherRecording(name: now.name, what: "recording"))
            }
            if stored.recording.truthSHA256 != now.truthSHA256 { throw SweepFileError(path: path, problem: .otherRecording(name: now.name, what: "truth")) }
            guard stored.scores.count == sweep.settings.count else {
                throw SweepFileError(path: path, problem: .impossible(.scores(count: stored.scores.count, settings: sweep.settings.count)))
            }
            for (setting, score) in zip(sweep.settings, stored.scores) {
                if let why = score.implausibility(frames: now.frames) {
                    throw SweepFileError(path: path, problem: .impossible(.implausibleScore(setting: setting.id, recording: now.name, why)))
                }
            }
            found[index] = stored.scores
        }
        return found
    }

    /// Stores every setting's score on `recording` (its file replaced whole, or not at all).
    /// The folders are made on the first store, so a sweep that fails before any recording is
    /// scored leaves nothing behind.
    public func store(_ scores: [SweepScore], of recording: SweepRecordingIdentity, sweep: SweepDefinition) throws {
        try prepare()
        let out = try OutputFile.create(path(of: recording), replacingExisting: true, kind: .text, streams: .refused(why: "stored scores are a file"))
        try out.write(try SweepStoredFile.bytes(Stored(sweep: sweep, recording: recording, scores: scores)))
        try out.commit()
    }

    /// Makes the folder (and the output folder it is in) when missing. A symbolic link at either
    /// is refused, naming it: the scores are never written through a link, which could lead
    /// outside the output folder.
    func prepare() throws(SweepFileError) {
        for path in [output, folder] {
            do throws(SystemCallError) { try SystemPath.makeFolder(path) } catch {
                let there = (try? SystemPath.linkStatus(of: path))?.kind
                if there == .symbolicLink { throw SweepFileError(path: path, problem: .notAFile(found: "a symbolic link")) }
                guard error.errno == EEXIST, there == .folder else {
                    throw SweepFileError(path: path, problem: .cannotMakeFolder(error))
                }
            }
        }
    }

    /// Whether an entry of the output folder below its top level (`scores/toss-real.json`, its
    /// path on disk) is one a sweep wrote: a stored-scores file `scores/STEM.json` (a plain file
    /// whose first bytes name the format), or the leftover of a store cut short
    /// (`scores/.STEM.json.PID-N.partial`, `scores/.STEM.json.lock`). Only these are replaced.
    public static func isOwnEntry(_ relative: String, path: String) -> Bool {
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == Substring(folderName),
              (try? SystemPath.linkStatus(of: path))?.kind == .regularFile else { return false }
        let name = parts[1]
        if name.hasPrefix(".") { return name.contains(".json.") && (name.hasSuffix(".partial") || name.hasSuffix(".lock")) }
        guard name.hasSuffix(".json"), name.count > ".json".count,
              let head = try? SystemFile.open(path, for: .readWithoutWaiting).read(upTo: 256) else { return false }
        let text = String(decoding: head, as: UTF8.self).filter { !$0.isWhitespace }
        return text.hasPrefix("{") && text.contains("\"format\":\"\(Stored.format)\"")
    }
}
