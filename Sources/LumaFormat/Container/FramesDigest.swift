import Crypto

/// SHA-256 over a recording's content: for every frame in order, its timestamp (int64 ticks,
/// little-endian) then its pixels. Two recordings with the same digest replay identically, however
/// they were chunked or compressed; the event log names its recording by this digest.
public struct FramesDigest {
    private var hasher = SHA256()

    public init() {}

    public mutating func add(ticks: Int64, pixels: UnsafeBufferPointer<UInt8>) {
        withUnsafeBytes(of: ticks.littleEndian) { hasher.update(bufferPointer: $0) }
        hasher.update(bufferPointer: UnsafeRawBufferPointer(pixels))
    }

    public func finalize() -> [UInt8] { Array(hasher.finalize()) }
}

extension Array where Element == UInt8 {
    /// Lower-case hexadecimal.
    public var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(count * 2)
        for b in self {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
