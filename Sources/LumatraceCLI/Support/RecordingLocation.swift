import ArgumentParser
import LumaFormat

/// A recording argument is a ``RecordingLocation``: a path, or an http(s) URL that every message
/// shows without its password and query (`\(recording)` is safe to print; only opening it reads
/// `RecordingLocation/openableText`).
extension RecordingLocation: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
    public var defaultValueDescription: String { description }
}

/// Opens the recording a command was given: a file's path or an `http://`/`https://` URL (a web
/// server, or an object store's presigned URL), read with range requests. Each retried web
/// request is reported on standard error, so a struggling server is seen, not taken for a hang.
func openRecording(_ location: RecordingLocation) throws(LumaFormatError) -> RecordingReader {
    try RecordingReader(location: location) { retry in warn("\(retry)") }
}
