/// Decodes single PGM, PNG and JPEG files to 8-bit luma, for recording from a folder of images.
///
/// Built to take hostile input: every declared size is checked against the data actually present
/// *before* anything the size of the image is allocated, nothing traps, and nothing loops without
/// consuming input. Width and height must each be `1...maximumDimension`.
///
/// Conversion to luma:
/// - PGM: samples as stored when maxval is 255, otherwise scaled to 0...255 with rounding.
/// - PNG: gray as stored (1/2/4-bit scaled up, 16-bit by the high byte); palette and RGB by
///   BT.601 full-range weights `Y = (77 R + 150 G + 29 B + 128) >> 8`. Alpha is dropped, not
///   composited, and gamma/ICC chunks are ignored: the stored samples are the signal.
/// - JPEG: the decoded Y channel (libjpeg's grayscale output), which is exactly what a YCbCr JPEG
///   stores. CMYK/YCCK, arithmetic-coded, lossless and hierarchical JPEGs are refused. EXIF
///   orientation is ignored (a fixed camera's frames are used as stored).
///
/// The format is chosen by the file's magic bytes, not its name.
public enum ImageFileDecoder {
    /// Largest accepted width or height; the same limit as a `.luma` recording's frames.
    public static let maximumDimension = 16384
    /// Files larger than this are refused before being read.
    public static let maximumFileSize = 512 << 20

    /// The format a file name promises, by extension (case-insensitive): `.pgm`, `.png`, `.jpg`,
    /// `.jpeg`. `nil` for anything else.
    public static func format(ofFileNamed name: String) -> ImageFileFormat? {
        let base = name.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard let dot = base.lastIndex(of: "."), dot != base.startIndex else { return nil }
        switch base[base.index(after: dot)...].lowercased() {
        case "pgm": return .pgm
        case "png": return .png
        case "jpg", "jpeg": return .jpeg
        default: return nil
        }
    }

    /// The format announced by the first bytes: `P5`/`P2` + whitespace (PGM), `89 'PNG'` (PNG),
    /// `FF D8` (JPEG). Says nothing about whether the rest of the file is valid.
    public static func sniff(_ bytes: some Collection<UInt8>) -> ImageFileFormat? {
        let head = Array(bytes.prefix(4))
        if head.count >= 4, head[0] == 0x89, head[1] == 0x50, head[2] == 0x4E, head[3] == 0x47 {
            return .png
        }
        if head.count >= 2, head[0] == 0xFF, head[1] == 0xD8 { return .jpeg }
        if head.count >= 2, head[0] == UInt8(ascii: "P"),
            head[1] == UInt8(ascii: "5") || head[1] == UInt8(ascii: "2"),
            head.count == 2 || PGMCodec.isHeaderSeparator(head[2])
        {
            return .pgm
        }
        return nil
    }

    /// Decodes a whole file's bytes. `source` names the bytes in errors (usually the path).
    public static func decodeLuma(_ bytes: [UInt8], source: String) throws(ImageDecodingError)
        -> LumaImage
    {
        let result: Result<LumaImage, ImageDataProblem> = bytes.withUnsafeBufferPointer { buffer in
            do throws(ImageDataProblem) {
                return .success(try decode(buffer))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let image): return image
        case .failure(let problem): throw ImageDecodingError(source: source, .undecodable(problem))
        }
    }

    /// Reads and decodes the file at `path` (at most `maximumFileSize` bytes).
    public static func decodeLuma(contentsOf path: String) throws(ImageDecodingError) -> LumaImage {
        try decodeLuma(try readFile(atPath: path), source: path)
    }

    // MARK: - Internals shared by the formats

    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws(ImageDataProblem) -> LumaImage {
        switch try format(of: bytes) {
        case .pgm: return try PGMCodec.decode(bytes)
        case .png: return try decodeWithLibrary(PNGLayout.self, bytes)
        case .jpeg: return try decodeWithLibrary(JPEGLayout.self, bytes)
        }
    }

    /// Width and height as declared, after the same structure and plausibility checks a full
    /// decode starts with (the whole file is scanned, nothing image-sized is allocated).
    static func imageSize(of bytes: UnsafeBufferPointer<UInt8>) throws(ImageDataProblem) -> (
        width: Int, height: Int
    ) {
        switch try format(of: bytes) {
        case .pgm:
            let header = try PGMCodec.Header(parsing: bytes)
            try header.checkRasterLength(in: bytes)
            return (header.width, header.height)
        case .png:
            let layout = try PNGLayout(scanning: bytes)
            return (layout.width, layout.height)
        case .jpeg:
            let layout = try JPEGLayout(scanning: bytes)
            return (layout.width, layout.height)
        }
    }

    static func format(of bytes: UnsafeBufferPointer<UInt8>) throws(ImageDataProblem) -> ImageFileFormat {
        if bytes.isEmpty {
            throw .empty
        }
        guard let format = sniff(bytes) else {
            throw .notAnImage(start: Array(bytes.prefix(4)))
        }
        return format
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 15)]], as: UTF8.self)
    }

    static func isWithinLimits(width: Int, height: Int) -> Bool {
        (1...maximumDimension).contains(width) && (1...maximumDimension).contains(height)
    }
}
