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
    /// so the nominal rate is used (0:0 becomes 30:1 with a note in `X`; ``FrameTimes`` keeps the
    /// real ones). The luma range, when known, is declared as ffmpeg does (`XCOLORRANGE=LIMITED`),
    /// so tools read the codes as the source meant them.
    public func header(rateNumerator: Int, rateDenominator: Int, signal: LumaSignal? = nil) -> [UInt8] {
        let rate = rateNumerator > 0 && rateDenominator > 0 ? "F\(rateNumerator):\(rateDenominator)" : "F30:1 XLUMATRACE_RATE=unknown"
        let range = signal?.y4mTag.map { " " + $0 } ?? ""
        return Array("YUV4MPEG2 W\(width) H\(height) \(rate) Ip A1:1 Cmono\(range)\n".utf8)
    }

    /// The rate the header declares: the nominal one, or 30/1 when it is unknown.
    public static func declaredRate(numerator: Int, denominator: Int) -> (numerator: Int, denominator: Int) {
        numerator > 0 && denominator > 0 ? (numerator, denominator) : (30, 1)
    }

    public static let frameMarker: [UInt8] = Array("FRAME\n".utf8)
}
