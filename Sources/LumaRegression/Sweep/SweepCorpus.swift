import Foundation
import LumaBase

/// The recordings a sweep scores: every `*.luma` of a folder with `STEM.truth.json` beside it (the
/// truth `regress` finds for a golden), in name order.
public struct SweepCorpus: Sendable, Equatable {
    /// One recording and its truth.
    public struct Entry: Sendable, Equatable {
        /// The file name (`balls-synth.luma`): how tables and files name it.
        public var name: String
        public var recordingPath: String
        public var truthPath: String

        /// The name without `.luma`.
        public var stem: String { String(name.dropLast(".luma".count)) }
    }

    public var folder: String
    /// The recordings with truth, in name order.
    public var entries: [Entry]
    /// The recordings left out for lack of truth (file names), in name order.
    public var withoutTruth: [String]

    /// Lists `folder`; refuses one where no recording has truth.
    public static func list(_ folder: String) throws(SweepError) -> SweepCorpus {
        let names: [String]
        do throws(SystemCallError) { names = try SystemPath.entries(of: folder).sorted() } catch {
            throw .corpusUnreadable(folder: folder, error)
        }
        let present = Set(names)
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        var corpus = SweepCorpus(folder: folder, entries: [], withoutTruth: [])
        for name in names where name.hasSuffix(".luma") && name.count > ".luma".count {
            let truth = String(name.dropLast(".luma".count)) + ".truth.json"
            if present.contains(truth) {
                corpus.entries.append(Entry(name: name, recordingPath: base + name, truthPath: base + truth))
            } else {
                corpus.withoutTruth.append(name)
            }
        }
        guard !corpus.entries.isEmpty else { throw .noTruth(folder: folder, recordings: corpus.withoutTruth.count) }
        return corpus
    }
}
