import LumaOutput

/// What a YUV4MPEG2 stream header declares.
public struct Y4MStreamInfo: Equatable, Sendable {
    public var width: Int
    public var height: Int
    /// Frame rate as a fraction; `0/0` when the stream has no `F` tag.
    public var rateNumerator: Int
    public var rateDenominator: Int
    /// The `C` tag (colour space and chroma subsampling); `420jpeg` when absent, as the spec says.
    public var colorspace: String
    /// The `I` tag (`p`, `t`, `b`, `m` or `?`) and `A` tag (pixel aspect), kept for the metadata.
    public var interlacing: String
    public var aspect: String
    /// `X` tags, verbatim.
    public var extensions: [String]

    /// Bytes of chroma (and alpha) that follow the Y plane in each frame and are skipped.
    public var trailingPlaneBytes: Int

    /// What the Y plane's codes mean, as far as the stream says: the range from `XCOLORRANGE`
    /// (Y4M has no matrix tag).
    public var lumaSignal: LumaSignal {
        LumaSignal(range: LumaSignal.range(y4mExtensions: extensions), origin: "Y plane of Y4M C\(colorspace)")
    }
}

/// Reads a YUV4MPEG2 (Y4M) stream, as written by `ffmpeg -f yuv4mpegpipe`, keeping the Y plane.
///
/// Every 8-bit colour layout ffmpeg writes is accepted (`mono`, `420jpeg`, `420paldv`, `420mpeg2`,
/// `420`, `411`, `422`, `444`, `444alpha`); high bit depths (`420p10`, `mono16`, …) are refused with
/// the ffmpeg option that converts them. Frame parameters after `FRAME` are accepted and ignored.
public final class Y4MReader {
    public let info: Y4MStreamInfo
    public let stream: ByteStream
    public private(set) var framesRead = 0
    static let headerLineLimit = 4096

    public init(stream: ByteStream) throws(LumaFormatError) {
        self.stream = stream
        let source = stream.name
        guard let line = try stream.readLine(limit: Y4MReader.headerLineLimit) else {
            throw LumaFormatError.invalidInput(source: source, frame: nil, problem: .empty(expected: "a Y4M stream starting with 'YUV4MPEG2'"))
        }
        guard let text = String(validating: line, as: UTF8.self), text.hasPrefix("YUV4MPEG2") else {
            throw LumaFormatError.invalidInput(source: source, frame: nil, problem: .notY4M(looksLike: FileKindSniffer.describe(head: Array(line.prefix(64)))))
        }
        // The sizes as written, so a refusal quotes them: `W99999999999999999999` is not "W-1".
        var widthText = "", heightText = ""
        var rate = (numerator: 0, denominator: 0)
        var colorspace = "420jpeg", interlacing = "?", aspect = "0:0"
        var extensions: [String] = []
        for token in text.split(separator: " ").dropFirst() {
            let value = String(token.dropFirst())
            switch token.first {
            case "W": widthText = value
            case "H": heightText = value
            case "F":
                let parts = value.split(separator: ":")
                guard parts.count == 2, let n = Int(parts[0]), let d = Int(parts[1]), n > 0, d > 0, n <= Int(Int32.max), d <= Int(Int32.max) else {
                    throw LumaFormatError.invalidInput(source: source, frame: nil, problem: .frameRateTag(value))
                }
                rate = (n, d)
            case "C": colorspace = value
            case "I": interlacing = value
            case "A": aspect = value
            case "X": extensions.append(value)
            default:
                throw LumaFormatError.invalidInput(source: source, frame: nil, problem: .unknownTag(String(token)))
            }
        }
        let limit = RecordingHeader.maximumDimension
        guard let width = Int(widthText), let height = Int(heightText), (1...limit).contains(width), (1...limit).contains(height) else {
            let shown = (widthText.isEmpty ? "no W tag" : "W\(widthText.prefix(32))") + " " + (heightText.isEmpty ? "no H tag" : "H\(heightText.prefix(32))")
            throw LumaFormatError.invalidInput(source: source, frame: nil, problem: .frameSize(shown: shown, limit: limit))
        }
        let cw = (width + 1) / 2, ch = (height + 1) / 2
        let trailing: Int
        switch colorspace {
        case "mono": trailing = 0
        case "420jpeg", "420paldv", "420mpeg2", "420": trailing = 2 * cw * ch
        case "411": trailing = 2 * ((width + 3) / 4) * height
        case "422": trailing = 2 * cw * height
        case "444": trailing = 2 * width * height
        case "444alpha": trailing = 3 * width * height
        default:
            if colorspace.contains("p") || colorspace.hasPrefix("mono1") || colorspace.hasPrefix("mono9") {
                throw LumaFormatError.invalidInput(source: source, frame: nil, problem: .highBitDepth(colorspace: colorspace))
            }
            throw LumaFormatError.invalidInput(source: source, frame: nil, problem: .unknownColorspace(colorspace))
        }
        info = Y4MStreamInfo(width: width, height: height, rateNumerator: rate.numerator, rateDenominator: rate.denominator, colorspace: colorspace,
                             interlacing: interlacing, aspect: aspect, extensions: extensions, trailingPlaneBytes: trailing)
    }

    /// Reads the next frame's Y plane into `pixels` (exactly `width × height` bytes).
    /// Returns `false` at a clean end of stream; a frame cut short is an error naming the frame.
    public func readFrame(into pixels: UnsafeMutableBufferPointer<UInt8>) throws(LumaFormatError) -> Bool {
        precondition(pixels.count == info.width * info.height, "buffer must hold one frame")
        guard let line = try stream.readLine(limit: Y4MReader.headerLineLimit) else { return false }
        guard line.starts(with: Array("FRAME".utf8)), line.count == 5 || line[5] == 32 else {
            throw LumaFormatError.invalidInput(source: stream.name, frame: framesRead, problem: .noFrameLine(atByte: stream.position - UInt64(line.count) - 1, found: String(decoding: line.prefix(16), as: UTF8.self)))
        }
        let size = pixels.count
        let y = try stream.read(size, into: pixels)
        let rest = y == size ? try stream.read(info.trailingPlaneBytes, into: nil) : 0
        guard y == size, rest == info.trailingPlaneBytes else {
            throw LumaFormatError.invalidInput(source: stream.name, frame: framesRead, problem: .frameCutShort(got: y + rest, of: size + info.trailingPlaneBytes))
        }
        framesRead += 1
        return true
    }
}
