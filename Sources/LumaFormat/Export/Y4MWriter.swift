/// Writes 8-bit luma frames as a YUV4MPEG2 `Cmono` stream, which ffmpeg and most tools read
/// (`lumatrace export rec.luma --format y4m | ffmpeg -i - out.mp4`).
public struct Y4MWriter {
    public let width: Int
    public let height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The stream header. Y4M has one constant rate; variable timestamps are not representable,
    /// so the nominal rate is used (0:0 becomes 30:1 with a note in `X`).
    public func header(rateNumerator: Int, rateDenominator: Int) -> [UInt8] {
        let rate = rateNumerator > 0 && rateDenominator > 0 ? "F\(rateNumerator):\(rateDenominator)" : "F30:1 XLUMATRACE_RATE=unknown"
        return Array("YUV4MPEG2 W\(width) H\(height) \(rate) Ip A1:1 Cmono\n".utf8)
    }

    public static let frameMarker: [UInt8] = Array("FRAME\n".utf8)
}
