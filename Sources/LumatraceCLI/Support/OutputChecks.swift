import Foundation
import LumaAnalysis
import LumaEngine
import LumaFormat
import LumaOutput

/// Checks made before any frame is decoded, by commands that draw a log over its recording.
/// (Where results may be written is ``OutputFile``'s and ``OutputFolder``'s business.)
enum OutputChecks {
    /// Two outputs of one command must be two files: `first` and `second` are each a flag and the
    /// path given to it (`nil` when not given, `-` for standard output, which may be shared).
    static func requireDistinct(_ first: (flag: String, path: String?), _ second: (flag: String, path: String?)) throws {
        guard let a = first.path, let b = second.path, a != "-", a == b || OutputFile.sameName(a, b) else { return }
        throw UsageError("\(first.flag) \(a) and \(second.flag) \(b) name the same file: each output needs a file of its own")
    }

    /// Requires the log to have been made from `reader`'s frames, unless `force`; returns the
    /// recording's frames digest.
    @discardableResult
    static func requireSameRecording(_ log: EventLog, reader: RecordingReader, recording: RecordingLocation, force: Bool) throws -> String {
        let digest = try reader.framesDigest().hexString
        // The digest covers times in ticks of the recording's timescale: the same frames at the
        // same times recorded at another timescale are the same recording, and are compared so.
        if !force, digest != log.header.recordingDigest, log.header.timescale != reader.header.timescale,
           try reader.framesDigest(atTimescale: log.header.timescale)?.hexString == log.header.recordingDigest {
            return digest
        }
        if !force, digest != log.header.recordingDigest {
            throw CLIError("\(log.path) is a log of another recording (\(log.header.recordingFile), frames digest \(log.header.recordingDigest.prefix(12))…), "
                + "not of \(recording) (\(digest.prefix(12))…); pass --force to use it anyway")
        }
        return digest
    }
}
