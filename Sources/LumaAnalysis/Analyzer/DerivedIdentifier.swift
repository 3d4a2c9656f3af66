import LumaBase

/// Ids for observations that are derived, never random: a UUID-formatted string built from the
/// SHA-256 of the stream's identity (``StreamInfo/identity``), the analyzer's name, a kind of thing
/// and an ordinal. The same replay, and the live analysis of the same frames, always give the same
/// ids; different recordings, analyzers or ordinals give different ones.
///
/// ```swift
/// let id = DerivedIdentifier.make(streamIdentity: context.stream.identity,
///                                 analyzer: Self.name, kind: "trajectory", ordinal: 3)
/// // "5F0C0B8E-…", stable across runs and machines
/// ```
public enum DerivedIdentifier {
    public static func make(streamIdentity: String, analyzer: String, kind: String, ordinal: Int) -> String {
        let digest = SHA256Hasher.hash(Array("\(streamIdentity)\u{0}\(analyzer)\u{0}\(kind)\u{0}\(ordinal)".utf8))
        var bytes = Array(digest.prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x50  // version 5 (name-based, SHA) layout
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 4122 variant
        let hex = bytes.hexString.uppercased()
        let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.dropFirst(20)]
        return parts.joined(separator: "-")
    }
}
