import LumaFormat

/// Frames from a folder of PGM, PNG or JPEG images, in name order (numeric-aware, so `frame2.png`
/// comes before `frame10.png`), evenly spaced at the given rate. Colour images become luma.
public struct ImageFolderSource: FrameSource {
    let sequence: ImageSequence
    let rate: FrameRate
    public let name: String
    private var index = 0

    public init(folder: String, rate: FrameRate) throws {
        sequence = try ImageSequence(folder: folder)
        self.rate = rate
        name = folder
    }

    public var header: RecordingHeader {
        RecordingHeader(width: sequence.width, height: sequence.height, timescale: rate.timescale, rateNumerator: rate.numerator,
                        rateDenominator: rate.denominator,
                        metadata: ["source": name, "source.format": "images", "source.files": "\(sequence.files.count)",
                                   "source.timing": "evenly spaced at \(rate.numerator)/\(rate.denominator) fps"].merging(Self.signal.metadata) { $1 })
    }
    public var expectedFrameCount: Int? { sequence.files.count }

    /// Image files hold full-range luma: JPEG's Y channel (JFIF: BT.601, full range), gray as is,
    /// and RGB converted with BT.601 weights (``ImageFileDecoder``).
    static let signal = LumaSignal(range: .full, matrix: "bt601",
                                   origin: "image files: JPEG Y channel, gray as is, RGB as (77 R + 150 G + 29 B + 128) >> 8")

    public mutating func nextFrame(into pixels: UnsafeMutableBufferPointer<UInt8>) throws -> Int64? {
        guard index < sequence.files.count else { return nil }
        let image = try sequence.decode(index)
        image.pixels.withUnsafeBufferPointer { pixels.baseAddress!.update(from: $0.baseAddress!, count: pixels.count) }
        defer { index += 1 }
        return Int64(index) * rate.ticksPerFrame
    }
}
