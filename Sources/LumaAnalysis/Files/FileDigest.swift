import LumaBase

/// The SHA-256 of a file's bytes, read in 1 MiB pieces, so memory stays the same however large
/// the file: an external analyzer's program (recorded in a log's header), a golden log (in a
/// corpus listing and a staged update).
package enum FileDigest {
    /// The SHA-256 of the file at `path`, in lowercase hex. Throws `.open` or `.read()` with the
    /// `errno`; the caller names the path.
    package static func sha256(ofFileAt path: String) throws(SystemCallError) -> String {
        let file = try SystemFile.open(path, for: .readWithoutWaiting)
        var hasher = SHA256Hasher()
        var piece = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = try file.read(into: &piece)
            if count == 0 { break }
            piece.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        }
        return hasher.finalize().hexString
    }
}
