/// Where a recording's bytes come from: random-access reads of a source whose length is known
/// when it is opened — a file (``FileByteSource``), bytes in memory (``MemoryByteSource``), or an
/// object on a web server or in an object store, read with HTTP range requests
/// (``HTTPByteSource``). ``RecordingReader`` reads only through this, so every command that reads
/// a recording reads it from any of them.
///
/// A source never changes length under its reader: one that finds its bytes changed (a file
/// replaced on the server) says so in an error, rather than handing back bytes of two versions.
public protocol ByteSource: AnyObject, Sendable {
    /// What messages call the source: a path, or a URL as ``RecordingLocation`` shows it (no
    /// password, no query: they may hold secrets).
    var name: String { get }
    /// The recording's file name (what an event log's header keeps): a path's last component, a
    /// URL path's last segment.
    var fileName: String { get }
    /// A failure of the source itself that ends every read from now on (a web request that failed
    /// for good), or `nil`: what a reader reports instead of calling bytes it could not read damage.
    var failure: LumaFormatError? { get }
    /// Bytes in the source, fixed when it was opened.
    var size: UInt64 { get }
    /// Reads exactly `buffer.count` bytes at `offset`; a read past ``size``, or a source that
    /// cannot give them, is an error naming the source and the offset.
    func read(at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) throws(LumaFormatError)
}

extension ByteSource {
    public var fileName: String { RecordingLocation(name).fileName }
    public var failure: LumaFormatError? { nil }

    /// `count` bytes at `offset`, as an array.
    public func read(at offset: UInt64, count: Int) throws(LumaFormatError) -> [UInt8] {
        if count == 0 { return [] }
        var failure: LumaFormatError?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { storage, initialized in
            do throws(LumaFormatError) {
                try read(at: offset, into: UnsafeMutableRawBufferPointer(storage))
                initialized = count
            } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// The error for a read that runs past the end of the source.
    func pastTheEnd(_ offset: UInt64, count: Int) -> LumaFormatError {
        .fileEnds(path: name, at: size, needed: count, from: offset)
    }
}

/// Opening a recording's bytes from what a user typed: a path, or an `http://` or `https://` URL.
public enum ByteSources {
    /// Whether `location` names a web resource rather than a file.
    public static func isURL(_ location: String) -> Bool {
        let lower = location.prefix(8).lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// The source `location` names: ``HTTPByteSource`` for an `http(s)://` URL, else the file at
    /// that path. `report` hears of every retry of a web request (for a progress line).
    public static func open(_ location: RecordingLocation, report: (@Sendable (HTTPByteSource.Retry) -> Void)? = nil) throws(LumaFormatError) -> any ByteSource {
        if location.isURL { return try HTTPByteSource(location, report: report) }
        return try FileByteSource(path: location.openableText)
    }
}
