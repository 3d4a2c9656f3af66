/// Bytes as text: digests (SHA-256 of frames, of plugin files) are printed this way everywhere.
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
