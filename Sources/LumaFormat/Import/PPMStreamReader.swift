import CImageGlue

/// Reads a stream of binary PPM images as `ffmpeg -c:v ppm -f image2pipe -` writes them, one image
/// per video frame, and converts each to luma with the formula PNG decoding uses
/// (``LumaSignal/convertedFromRGB(_:)``).
///
/// This is how video whose frames are RGB (GIF, APNG, RGB codecs) is recorded: Y4M carries only YUV,
/// and letting ffmpeg make the luma would give codes that differ by one from the same frames
/// recorded as PNG files. Each image states its size, so ffmpeg's rotation and scaling need no
/// guessing; every image must have the size of the first.
public final class PPMStreamReader {
    public let stream: ByteStream
    public let width: Int
    public let height: Int
    public private(set) var framesRead = 0
    private var rgb: [UInt8]
    private var pending: (width: Int, height: Int)?

    /// Reads the first image's header to learn the frame size.
    public init(stream: ByteStream) throws(LumaFormatError) {
        self.stream = stream
        guard let size = try Self.readHeader(stream, frame: 0) else {
            throw LumaFormatError.invalidInput(source: stream.name, frame: nil, problem: .empty(expected: ""))
        }
        (width, height) = size
        pending = size
        rgb = []
    }

    /// Reads the next frame as luma into `pixels` (exactly `width × height` bytes); `false` at a
    /// clean end of stream.
    public func readFrame(into pixels: UnsafeMutableBufferPointer<UInt8>) throws(LumaFormatError) -> Bool {
        precondition(pixels.count == width * height, "buffer must hold one frame")
        let size: (width: Int, height: Int)
        if let header = pending {
            size = header
            pending = nil
        } else {
            guard let header = try Self.readHeader(stream, frame: framesRead) else { return false }
            size = header
        }
        guard size == (width, height) else {
            throw LumaFormatError.invalidInput(source: stream.name, frame: framesRead,
                                               problem: .frameSizeChanges(width: width, height: height, toWidth: size.width, toHeight: size.height))
        }
        let count = 3 * pixels.count
        if rgb.count != count { rgb = [UInt8](repeating: 0, count: count) }
        let got = try rgb.withUnsafeMutableBufferPointer { buffer throws(LumaFormatError) in try stream.read(count, into: buffer) }
        guard got == count else {
            throw LumaFormatError.invalidInput(source: stream.name, frame: framesRead, problem: .frameCutShort(got: got, of: count))
        }
        rgb.withUnsafeBufferPointer { lt_rgb_to_luma($0.baseAddress!, pixels.count, pixels.baseAddress!) }
        framesRead += 1
        return true
    }

    /// Parses `P6\nW H\n255\n`, the header ffmpeg's PPM encoder writes; `nil` at end of stream.
    private static func readHeader(_ stream: ByteStream, frame: Int) throws(LumaFormatError) -> (width: Int, height: Int)? {
        guard let magic = try stream.readLine(limit: 16) else { return nil }
        func refuse(_ problem: InputProblem) -> LumaFormatError {
            .invalidInput(source: stream.name, frame: frame, problem: problem)
        }
        guard magic == Array("P6".utf8) else { throw refuse(.notPPM(found: String(decoding: magic.prefix(16), as: UTF8.self))) }
        guard let sizeLine = try stream.readLine(limit: 64), let maxval = try stream.readLine(limit: 16) else {
            throw refuse(.ppmHeaderCut)
        }
        let fields = String(decoding: sizeLine, as: UTF8.self).split(separator: " ")
        let limit = RecordingHeader.maximumDimension
        guard fields.count == 2, let w = Int(fields[0]), let h = Int(fields[1]), (1...limit).contains(w), (1...limit).contains(h) else {
            throw refuse(.ppmSize(String(decoding: sizeLine.prefix(40), as: UTF8.self), limit: limit))
        }
        guard maxval == Array("255".utf8) else {
            throw refuse(.ppmMaxval(String(decoding: maxval.prefix(16), as: UTF8.self)))
        }
        return (w, h)
    }
}
