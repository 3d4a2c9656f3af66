/// The frames of a recording made from a folder of image files, in frame order.
///
/// Takes every non-hidden regular file with a `.pgm`, `.png`, `.jpg` or `.jpeg` name (any case)
/// and orders them by `numericOrder(_:_:)`, so `frame2.png` comes before `frame10.png`. All
/// frames must have the size of the first one: `init` reads the first file's header to learn it
/// (`width`, `height`), and `decode(_:)` refuses a frame of any other size, naming both.
public struct ImageSequence: Sendable {
    /// The folder, as given.
    public let folder: String
    /// Paths of the frames, `folder/name`, in frame order.
    public let files: [String]
    /// Size of every frame: that of the first file.
    public let width: Int
    public let height: Int

    public init(folder: String) throws(ImageDecodingError) {
        let names = try ImageFileDecoder.listFolder(folder)
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        let frames =
            names
            .filter { !$0.hasPrefix(".") && ImageFileDecoder.format(ofFileNamed: $0) != nil }
            .sorted(by: Self.numericOrder)
            .map { prefix + $0 }
            .filter(ImageFileDecoder.isRegularFile)
        guard let first = frames.first else {
            throw ImageDecodingError(source: folder, .noImageFiles)
        }
        let bytes = try ImageFileDecoder.readFile(atPath: first)
        let size: Result<(width: Int, height: Int), ImageDataProblem> =
            bytes.withUnsafeBufferPointer { buffer in
                do throws(ImageDataProblem) {
                    return .success(try ImageFileDecoder.imageSize(of: buffer))
                } catch {
                    return .failure(error)
                }
            }
        switch size {
        case .success(let size):
            (width, height) = size
        case .failure(let problem):
            throw ImageDecodingError(source: first, .undecodable(problem))
        }
        self.folder = folder
        files = frames
    }

    /// Decodes frame `i` (`0..<files.count`), refusing one whose size differs from the first's.
    public func decode(_ i: Int) throws(ImageDecodingError) -> LumaImage {
        guard files.indices.contains(i) else {
            throw ImageDecodingError(source: folder, .noSuchFrame(frame: i, count: files.count))
        }
        let image = try ImageFileDecoder.decodeLuma(contentsOf: files[i])
        guard image.width == width, image.height == height else {
            throw ImageDecodingError(source: files[i], .sizeDiffers(width: image.width, height: image.height, sequenceWidth: width,
                                                                    sequenceHeight: height, firstFile: files[0]))
        }
        return image
    }

    /// File-name order that reads runs of digits as numbers: `frame2.png` < `frame10.png`.
    ///
    /// Names are compared byte by byte (UTF-8), except that two runs of digits at the same place
    /// compare by value; names that are still equal (`frame01` and `frame1`) fall back to plain
    /// byte order. With equal-width zero-padded numbers this is plain byte order.
    public static func numericOrder(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        var i = 0
        var j = 0
        while i < x.count, j < y.count {
            if PGMCodec.isDigit(x[i]), PGMCodec.isDigit(y[j]) {
                let xEnd = x[i...].firstIndex { !PGMCodec.isDigit($0) } ?? x.count
                let yEnd = y[j...].firstIndex { !PGMCodec.isDigit($0) } ?? y.count
                // Compare by value without parsing (no overflow): drop leading zeros, then the
                // longer number is larger, else the first differing digit decides.
                let xDigits = x[i..<xEnd].drop { $0 == UInt8(ascii: "0") }
                let yDigits = y[j..<yEnd].drop { $0 == UInt8(ascii: "0") }
                if xDigits.count != yDigits.count { return xDigits.count < yDigits.count }
                if let (p, q) = zip(xDigits, yDigits).first(where: { $0 != $1 }) { return p < q }
                i = xEnd
                j = yEnd
            } else {
                if x[i] != y[j] { return x[i] < y[j] }
                i += 1
                j += 1
            }
        }
        if (x.count - i) != (y.count - j) { return (x.count - i) < (y.count - j) }
        return x.lexicographicallyPrecedes(y)
    }
}
