/// Why a chunk payload did not compress or decompress: zstd's own error, or a frame that is not
/// what a chunk must hold (one zstd frame with its size declared and its content checksum on).
public enum ZstdFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bytes do not start with a zstd frame.
    case notAZstdFrame
    /// The frame does not carry zstd's content checksum, so damage could go unseen.
    case noContentChecksum
    /// The frame does not declare its decompressed size.
    case sizeNotDeclared
    /// The frame declares a decompressed size other than the chunk header's.
    case declaredSize(UInt64, expected: Int)
    /// The frame decompressed to a size other than the chunk header's.
    case decodedSize(Int, expected: Int)
    /// zstd refused, with its error name (for example "Restored data doesn't match checksum").
    case library(String)

    public var description: String {
        switch self {
        case .notAZstdFrame: return "payload is not a zstd frame"
        case .noContentChecksum: return "payload has no content checksum"
        case .sizeNotDeclared: return "payload does not declare its size"
        case .declaredSize(let declared, let expected): return "payload declares \(declared) bytes, expected \(expected)"
        case .decodedSize(let decoded, let expected): return "payload decoded to \(decoded) bytes, expected \(expected)"
        case .library(let name): return name
        }
    }
}
