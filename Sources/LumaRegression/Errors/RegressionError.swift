import Foundation
import LumaAnalysis
import LumaEngine
/// Why a golden replay or a regression run cannot go on (a pipeline file's problems are
/// ``PipelineFileError``, a program not allowed ``ProgramNotAllowed``, both in LumaEngine). Messages name the file
/// and say what is wrong; they never name a command-line flag (the command adds what it offers).
public enum RegressionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The log's recording is not beside it.
    case recordingMissing(log: String, recordingFile: String, lookedFor: String)
    /// The recording found is not the one the log was made from.
    case wrongRecording(path: String, log: String, digest: String, expected: String)
    /// The recording found has no index (its recorder was killed, or the disk filled, before it
    /// was closed), and the frames found by scanning it are not those the log was made from.
    case recordingNotClosed(path: String, log: String)
    /// The log names an analyzer this build does not have.
    case unknownAnalyzer(log: String, analyzer: String, known: [String])
    /// The folder of a regression run is not a folder, or holds no golden log.
    case notAFolder(String)
    case noGoldenLogs(folder: String)
    /// A setting names an analyzer that no golden log of the run has.
    case settingForAbsentAnalyzer(String)
    /// Two logs compared are of different recordings.
    /// The timescales are the recordings': when they differ, the digest (which counts time in
    /// ticks) differs even for the same frames recorded twice from one source.
    case otherRecording(old: String, new: String, oldRecording: String, newRecording: String, oldDigest: String, newDigest: String,
                        oldTimescale: Int64, newTimescale: Int64)
    /// A golden log could not be replaced by its new log.
    case cannotReplace(path: String, problem: StagingProblem)
    /// A file given as a shard's part is not one.
    case part(path: String, problem: PartProblem)
    /// Parts that are not every shard of one run, exactly once, or staged logs that cannot be moved.
    case mergeRefused(MergeRefusal)
    /// The staging folder of a sharded update, or a log in it, is not usable.
    case staging(path: String, problem: StagingProblem)

    public var description: String {
        switch self {
        case .recordingMissing(let log, let file, let looked):
            return "\(log): its recording \(file) is not next to it (looked for \(looked)); keep each recording beside its golden log, copied or linked"
        case .wrongRecording(let path, let log, let digest, let expected):
            return "\(path) is not the recording \(log) was made from (frames digest \(digest.prefix(12))…, the log says \(expected.prefix(12))…)"
        case .recordingNotClosed(let path, let log):
            return "\(path) was not closed (no index: its recorder stopped before the end), so its frames are not those \(log) was made from"
        case .unknownAnalyzer(let log, let analyzer, let known):
            return "\(log) was written with analyzer '\(analyzer)', which this lumatrace does not have (it has \(known.joined(separator: ", "))); "
                + "use the lumatrace built with that analyzer"
        case .notAFolder(let path):
            return "\(path) is not a folder"
        case .noGoldenLogs(let folder):
            return "\(folder) holds no golden logs (*.events.jsonl)"
        case .settingForAbsentAnalyzer(let name):
            return "\(name).…: no golden log in the folder runs analyzer '\(name)'"
        case .otherRecording(let old, let new, let oldRecording, let newRecording, let oldDigest, let newDigest, let oldTimescale, let newTimescale):
            var text = "\(new):1: is a log of another recording (\(newRecording), frames digest \(newDigest.prefix(12))…) "
                + "than \(old) (\(oldRecording), \(oldDigest.prefix(12))…)"
            if oldTimescale != newTimescale {
                text += " (the recordings count time at \(oldTimescale)/s and \(newTimescale)/s, and the digest covers ticks: "
                    + "the same frames recorded twice from one source can differ so; checked against that recording, both are compared)"
            }
            return text
        case .part(let path, let problem):
            return "\(path): \(problem)"
        case .staging(let path, let problem):
            return "\(path): \(problem)"
        case .mergeRefused(let refusal):
            return "cannot merge: \(refusal)"
        case .cannotReplace(let path, let problem):
            return "cannot replace \(path): \(problem)"
        }
    }
}
