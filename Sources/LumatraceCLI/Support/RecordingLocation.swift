import LumaFormat

/// Opens the recording a command was given: a file's path or an `http://`/`https://` URL (a web
/// server, or an object store's presigned URL), read with range requests. Each retried web
/// request is reported on standard error, so a struggling server is seen, not taken for a hang.
func openRecording(_ location: String) throws(LumaFormatError) -> RecordingReader {
    try RecordingReader(location: location) { retry in warn("\(retry)") }
}
