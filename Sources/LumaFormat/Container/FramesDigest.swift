import LumaBase

/// SHA-256 over a recording's content: for every frame in order, its timestamp (int64 ticks,
/// little-endian) then its pixels. Two recordings with the same digest replay identically, however
/// they were chunked or compressed; the event log names its recording by this digest.
public struct FramesDigest {
    private var hasher = SHA256Hasher()

    public init() {}

    public mutating func add(ticks: Int64, pixels: UnsafeBufferPointer<UInt8>) {
        withUnsafeBytes(of: ticks.littleEndian) { hasher.update($0) }
        hasher.update(UnsafeRawBufferPointer(pixels))
    }

    public func finalize() -> [UInt8] { hasher.finalize() }
}
