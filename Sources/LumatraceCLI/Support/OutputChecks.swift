import Foundation
import LumaEngine
import LumaFormat

/// Checks made before any frame is decoded, by commands that draw a log over its recording.
enum OutputChecks {
    /// The folder that is to hold `output` exists, and an existing `output` file is replaced only
    /// with `--force`.
    static func requireWritable(_ output: String, force: Bool, isFile: Bool = true) throws {
        let parent = URL(fileURLWithPath: output).deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: parent, isDirectory: &isFolder), isFolder.boolValue else {
            throw CLIError("-o \(output): the folder \(parent) does not exist")
        }
        if isFile, !force, FileManager.default.fileExists(atPath: output) {
            throw CLIError("\(output): already exists; pass --force to overwrite it")
        }
    }

    /// Requires the log to have been made from `reader`'s frames, unless `force`; returns the
    /// recording's frames digest.
    @discardableResult
    static func requireSameRecording(_ log: EventLog, reader: RecordingReader, recording: String, force: Bool) throws -> String {
        let digest = try reader.framesDigest().hexString
        if !force, digest != log.header.recordingDigest {
            throw CLIError("\(log.path) is a log of another recording (\(log.header.recordingFile), frames digest \(log.header.recordingDigest.prefix(12))…), "
                + "not of \(recording) (\(digest.prefix(12))…); pass --force to use it anyway")
        }
        return digest
    }
}
