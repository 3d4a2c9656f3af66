import LumaBase

/// The SHA-256 of some bytes as hex: the digest a recording keeps of its frames, used by tests to
/// compare frames compactly.
public func sha256Hex(_ bytes: [UInt8]) -> String { SHA256Hasher.hash(bytes).hexString }
