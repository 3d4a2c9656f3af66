import LumaFormat

/// Frames from a YUV4MPEG2 stream (a file, or `-` for stdin). Y4M has no timestamps: frame `i` is
/// at `i / rate`, with the rate from the `F` tag or the one given.
public struct Y4MSource: FrameSource {
    let reader: Y4MReader
    let rate: FrameRate
    public let name: String
    var index: Int64 = 0
    public var expectedFrameCount: Int? { nil }

    public init(path: String, fps: FrameRate?, stop: StopFlag?, live: Bool) throws {
        try self.init(stream: ByteStream.open(path, stopRequested: stop), fps: fps, live: live)
    }

    /// Reads an opened stream (e.g. one whose first bytes were peeked to sniff its format).
    public init(stream: ByteStream, fps: FrameRate?, live: Bool) throws {
        reader = try Y4MReader(stream: stream)
        name = stream.name
        if let fps {
            rate = fps
        } else if reader.info.rateNumerator > 0 {
            rate = FrameRate(numerator: reader.info.rateNumerator, denominator: reader.info.rateDenominator)
        } else {
            throw RecordingInputError.noFrameRate(name)
        }
        self.live = live
    }

    let live: Bool
    public var width: Int { reader.info.width }
    public var height: Int { reader.info.height }
    public var timescale: Int64 { rate.timescale }
    public var rateNumerator: Int { rate.numerator }
    public var rateDenominator: Int { rate.denominator }
    public var metadata: [String: String] {
        var m = ["source": name, "source.format": "y4m", "y4m.colorspace": reader.info.colorspace, "y4m.interlacing": reader.info.interlacing,
                 "y4m.aspect": reader.info.aspect]
        if !reader.info.extensions.isEmpty { m["y4m.extensions"] = reader.info.extensions.joined(separator: " ") }
        if live { m["source.live"] = "true" }
        return m.merging(reader.info.lumaSignal.metadata) { $1 }
    }

    public var leftOut: [String] { reader.info.colorspace == "mono" ? [] : ["colour"] }

    public mutating func nextFrame(into pixels: UnsafeMutableBufferPointer<UInt8>) throws -> Int64? {
        guard try reader.readFrame(into: pixels) else { return nil }
        defer { index += 1 }
        return index * rate.ticksPerFrame
    }
}
