import LumaOutput

/// What is wrong with an input stream being recorded (Y4M, PPM frames from ffmpeg): the data
/// behind ``LumaFormatError/invalidInput(source:frame:problem:)``. Text quoted from the stream is
/// cut short, so a hostile stream cannot fill a message.
public enum InputProblem: Equatable, Sendable, CustomStringConvertible {
    /// The stream holds nothing.
    case empty(expected: String)
    /// The stream does not start like the format (`looksLike` guesses what it is).
    case notY4M(looksLike: FileKind)
    /// A Y4M frame rate tag that is not a positive fraction.
    case frameRateTag(String)
    /// A Y4M header tag that does not exist.
    case unknownTag(String)
    /// A frame size missing, or outside `1...limit` (as written in the stream).
    case frameSize(shown: String, limit: Int)
    /// A Y4M colour space of more than 8 bits per sample.
    case highBitDepth(colorspace: String)
    /// A Y4M colour space that does not exist.
    case unknownColorspace(String)
    /// No `FRAME` line where one must start.
    case noFrameLine(atByte: UInt64, found: String)
    /// The stream ends inside a frame.
    case frameCutShort(got: Int, of: Int)
    /// The frame size changes between frames.
    case frameSizeChanges(width: Int, height: Int, toWidth: Int, toHeight: Int)
    /// A PPM frame header that is not `P6`.
    case notPPM(found: String)
    /// The stream ends inside a PPM header.
    case ppmHeaderCut
    /// A PPM size line that is not two numbers within `1...limit`.
    case ppmSize(String, limit: Int)
    /// A PPM maxval other than 255.
    case ppmMaxval(String)
    /// A header line longer than `limit` bytes.
    case lineTooLong(limit: Int, atByte: UInt64)
    /// The stream ends inside a header line.
    case lineCut(atByte: UInt64)

    public var description: String {
        switch self {
        case .empty(let expected): return expected.isEmpty ? "no frames: the stream is empty" : "empty input: expected \(expected)"
        case .notY4M(let looksLike): return "not a Y4M stream: it does not start with 'YUV4MPEG2' (\(looksLike))"
        case .frameRateTag(let value): return "frame rate tag 'F\(value)' is not a positive fraction like F30000:1001"
        case .unknownTag(let token): return "unknown Y4M header tag '\(token)'"
        case .frameSize(let shown, let limit): return "frame size \(shown) is missing or outside 1...\(limit)"
        case .highBitDepth(let colorspace):
            return "high-bit-depth Y4M (C\(colorspace)) is not supported: Lumatrace records 8-bit luma; "
                + "take its Y plane at 8 bits with ffmpeg ... -vf extractplanes=y -pix_fmt gray -f yuv4mpegpipe -"
        case .unknownColorspace(let colorspace):
            return "unknown Y4M colour space C\(colorspace) (supported: mono, 420jpeg, 420paldv, 420mpeg2, 420, 411, 422, 444, 444alpha)"
        case .noFrameLine(let at, let found): return "expected a 'FRAME' line at byte \(at), found '\(found)'"
        case .frameCutShort(let got, let of): return "frame is shorter than declared: the stream ends after \(got) of \(of) bytes"
        case .frameSizeChanges(let width, let height, let toWidth, let toHeight):
            return "frame size changes from \(width)x\(height) to \(toWidth)x\(toHeight); a recording has one frame size"
        case .notPPM(let found): return "expected a binary PPM header 'P6', found '\(found)'"
        case .ppmHeaderCut: return "the stream ends inside a PPM header"
        case .ppmSize(let line, let limit): return "PPM size '\(line)' is not two numbers within 1...\(limit)"
        case .ppmMaxval(let value): return "PPM maxval '\(value)' is not 255 (8-bit RGB)"
        case .lineTooLong(let limit, let at): return "a header line is longer than \(limit) bytes (at byte \(at))"
        case .lineCut(let at): return "stream ends in the middle of a header line (at byte \(at))"
        }
    }
}
