/// How an image file's structure contradicts itself or its format
/// (``ImageDataProblem/corrupt(_:)``): where, and what was found there.
public enum ImageCorruption: Equatable, Sendable, CustomStringConvertible {
    // PNG
    /// The file does not start with the PNG signature: its first (up to 8) bytes.
    case pngSignature(start: [UInt8])
    /// The first chunk is `type` of `length` bytes, not the 13-byte IHDR.
    case pngFirstChunk(type: String, length: Int)
    /// The chunk at `offset` has a type that is not four letters: its bytes.
    case pngChunkType(offset: Int, typeBytes: [UInt8])
    /// The chunk `type` at `offset` declares `length` bytes, over PNG's 2^31 − 1.
    case pngChunkLength(type: String, offset: Int, length: Int)
    /// A color type and bit depth PNG does not combine.
    case pngColorType(colorType: Int, bitDepth: Int)
    /// No IDAT chunk: no image data.
    case pngNoImageData

    // JPEG
    /// The file does not start with the start-of-image marker.
    case jpegNoStart
    /// A second start-of-image marker at `offset`.
    case jpegSecondStart(offset: Int)
    /// A scan (SOS) at `offset` before any frame header (SOF).
    case jpegScanBeforeFrame(offset: Int)
    /// No scan before the end-of-image marker.
    case jpegNoScan
    /// The segment of `marker` at `offset` declares a length below 2.
    case jpegSegmentLength(marker: UInt8, offset: Int, length: Int)
    /// The frame header (`marker`) at `offset` is `length` bytes, not what its component count makes.
    case jpegFrameHeaderLength(marker: UInt8, offset: Int, length: Int)
    /// A component's sampling factor is outside 1...4.
    case jpegSamplingFactor

    // PGM
    /// The file does not start with `P5` or `P2`.
    case pgmMagic
    /// A maxval outside 1...65535.
    case pgmMaxval(Int)
    /// Not whitespace (`found`) after the maxval at `offset`.
    case pgmAfterMaxval(offset: Int, found: UInt8)
    /// `found` at `offset` where `field`'s digits should start.
    case pgmFieldMissing(PGMField, offset: Int, found: UInt8)
    /// `field` at `offset` runs over `limit`.
    case pgmFieldOverLimit(PGMField, offset: Int, limit: Int)
    /// `field` is followed by `found` at `offset`, not whitespace.
    case pgmFieldNotSeparated(PGMField, offset: Int, found: UInt8)
    /// The sample at `column`, `row` is `value`, over the header's `maxval`.
    case pgmSampleOverMaxval(column: Int, row: Int, value: Int, maxval: Int)

    // Either library
    /// libpng or libjpeg reads a size of `width` × `height` where the file's structure declares
    /// `declaredWidth` × `declaredHeight`.
    case decoderSize(ImageFileFormat, width: Int, height: Int, declaredWidth: Int, declaredHeight: Int)
    /// libpng or libjpeg refused the data: its words.
    case decoder(ImageFileFormat, String)

    public var description: String {
        switch self {
        case .pngSignature(let start):
            return "corrupt PNG signature (the file starts with \(ImageDataProblem.hex(start)); a PNG starts with "
                + "89 50 4E 47 0D 0A 1A 0A); if it went through a text-mode transfer, copy it again in binary mode"
        case .pngFirstChunk(let type, let length): return "corrupt PNG: the first chunk is '\(type)' (\(length) bytes), not a 13-byte IHDR"
        case .pngChunkType(let offset, let typeBytes):
            return "corrupt PNG: no valid chunk at offset \(offset) (type bytes \(ImageDataProblem.hex(typeBytes)))"
        case .pngChunkLength(let type, let offset, let length):
            return "corrupt PNG: chunk '\(type)' at offset \(offset) declares \(length) bytes, over the PNG maximum of 2^31-1"
        case .pngColorType(let colorType, let bitDepth):
            return "corrupt PNG: color type \(colorType) with bit depth \(bitDepth) is not a valid combination"
        case .pngNoImageData: return "corrupt PNG: no IDAT chunk, so no image data"
        case .jpegNoStart: return "corrupt JPEG: no start-of-image marker (FF D8)"
        case .jpegSecondStart(let offset): return "corrupt JPEG: a second start-of-image marker at offset \(offset)"
        case .jpegScanBeforeFrame(let offset):
            return "corrupt JPEG: a scan (SOS) at offset \(offset) comes before any frame header (SOF)"
        case .jpegNoScan: return "corrupt JPEG: no image data (no scan before the end-of-image marker)"
        case .jpegSegmentLength(let marker, let offset, let length):
            return "corrupt JPEG: the \(JPEGMarker.name(marker)) segment at offset \(offset) declares a length of \(length)"
        case .jpegFrameHeaderLength(let marker, let offset, let length):
            return "corrupt JPEG: the \(JPEGMarker.name(marker)) frame header at offset \(offset) has the wrong length (\(length))"
        case .jpegSamplingFactor: return "corrupt JPEG: a sampling factor outside 1...4 in the frame header"
        case .pgmMagic: return "corrupt PGM: the file does not start with P5 or P2"
        case .pgmMaxval(let maxval): return "corrupt PGM: maxval \(maxval) is outside 1...65535"
        case .pgmAfterMaxval(let offset, let found):
            return "corrupt PGM: expected whitespace after the maxval at offset \(offset), found \(ImageFileDecoder.hex(found))"
        case .pgmFieldMissing(let field, let offset, let found):
            return "corrupt PGM: expected the \(field.rawValue) at offset \(offset), found \(Self.shown(found))"
        case .pgmFieldOverLimit(let field, let offset, let limit): return "corrupt PGM: the \(field.rawValue) at offset \(offset) is over \(limit)"
        case .pgmFieldNotSeparated(let field, let offset, let found):
            return "corrupt PGM: the \(field.rawValue) is followed by \(Self.shown(found)) at offset \(offset), not whitespace"
        case .pgmSampleOverMaxval(let column, let row, let value, let maxval):
            return "corrupt PGM: the sample at column \(column), row \(row) is \(value), over the maxval of \(maxval)"
        case .decoderSize(let format, let width, let height, let declaredWidth, let declaredHeight):
            return "corrupt \(format.name): the library reads a size of \(width)x\(height) where the file's structure declares "
                + "\(declaredWidth)x\(declaredHeight)"
        case .decoder(let format, let words): return "corrupt \(format.name): \(words)"
        }
    }

    /// A printable byte in quotes (`'x'`), any other in hex (`byte 0A`).
    private static func shown(_ byte: UInt8) -> String {
        byte >= 0x21 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte \(ImageFileDecoder.hex(byte))"
    }
}

/// What a valid image uses that this reader does not decode (``ImageDataProblem/unsupported(_:)``).
public enum ImageFeature: Equatable, Sendable, CustomStringConvertible {
    /// A JPEG coding process other than Huffman baseline, extended or progressive: its SOF marker.
    case jpegProcess(frameMarker: UInt8)
    /// JPEG samples of `bits` bits, not 8.
    case jpegPrecision(bits: Int)
    /// A JPEG height of 0, to be given later by a DNL marker.
    case jpegHeightLater
    /// A JPEG of `components` color components (4: CMYK or YCCK), not 1 or 3.
    case jpegComponents(Int)
    /// libpng or libjpeg does not decode it: its words.
    case decoder(ImageFileFormat, String)

    public var description: String {
        switch self {
        case .jpegProcess(let marker):
            return "unsupported JPEG: \(Self.process(marker)) (\(JPEGMarker.name(marker))) is not supported; "
                + "re-encode it as an ordinary baseline or progressive JPEG, or a PNG"
        case .jpegPrecision(let bits):
            return "unsupported JPEG: \(bits)-bit samples; only 8-bit JPEGs are supported; convert it to a PNG first, e.g. ffmpeg -i INPUT OUTPUT.png"
        case .jpegHeightLater: return "unsupported JPEG: height 0 in the frame header (to be given later by a DNL marker) is not supported"
        case .jpegComponents(4):
            return "unsupported JPEG: CMYK/YCCK (4 color components) is not supported; convert it to an RGB or grayscale JPEG or a PNG first"
        case .jpegComponents(let components): return "unsupported JPEG: \(components) color components (expected 1 or 3)"
        case .decoder(let format, let words):
            return "unsupported \(format.name): \(words); convert it to an ordinary 8-bit JPEG or a PNG, e.g. ffmpeg -i INPUT -pix_fmt gray OUTPUT.png"
        }
    }

    /// The coding process an SOF marker other than baseline, extended or progressive Huffman names.
    private static func process(_ marker: UInt8) -> String {
        switch marker {
        case 0xC3: return "lossless JPEG"
        case 0xC5, 0xC6, 0xC7: return "hierarchical JPEG"
        case 0xC9, 0xCA: return "arithmetic-coded JPEG"
        case 0xCB: return "lossless arithmetic-coded JPEG"
        default: return "hierarchical arithmetic-coded JPEG"
        }
    }
}
