import CImageGlue

// Calls into CImageGlue (libpng/libjpeg behind setjmp in C; no longjmp ever reaches Swift).

/// A compressed image format decoded by a C library through the glue: its structure scan (which
/// finds the declared size and refuses truncated or implausible files before anything is
/// allocated) and the glue's two entry points.
protocol LibraryImageLayout {
    /// `.png`, `.jpeg`: for messages.
    static var format: ImageFileFormat { get }
    /// Reads the header: width, height, and a message on failure.
    static var readInfo: (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UInt32>?, UnsafeMutablePointer<UInt32>?,
                          UnsafeMutablePointer<CChar>?, Int) -> Int32 { get }
    /// Decodes the luma of the whole image into a `width * height` buffer.
    static var decodeLuma: (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UInt8>?, Int, UnsafeMutablePointer<CChar>?, Int) -> Int32 { get }

    init(scanning bytes: UnsafeBufferPointer<UInt8>) throws(ImageDataProblem)
    var width: Int { get }
    var height: Int { get }
}

extension ImageFileDecoder {
    /// Decodes with one of the glue's libraries once the format's own layout scan has vouched for
    /// its size: the library reads the header first (still nothing image-sized is allocated), then
    /// the pixels go straight into a `width * height` array.
    static func decodeWithLibrary<Layout: LibraryImageLayout>(_: Layout.Type, _ bytes: UnsafeBufferPointer<UInt8>) throws(ImageDataProblem) -> LumaImage {
        let layout = try Layout(scanning: bytes)
        let (format, width, height) = (Layout.format, layout.width, layout.height)
        let (readInfo, decode) = (Layout.readInfo, Layout.decodeLuma)
        var infoWidth: UInt32 = 0
        var infoHeight: UInt32 = 0
        let info = withMessageBuffer { message, capacity in
            readInfo(bytes.baseAddress, bytes.count, &infoWidth, &infoHeight, message, capacity)
        }
        if info.status != Int32(LT_OK) {
            throw refusal(format, info, width: Int(infoWidth), height: Int(infoHeight))
        }
        guard Int(infoWidth) == width, Int(infoHeight) == height else {
            throw .corrupt(.decoderSize(format, width: Int(infoWidth), height: Int(infoHeight), declaredWidth: width, declaredHeight: height))
        }

        let count = width * height  // both are 1...16384, checked by the layout scan
        var outcome = (status: Int32(LT_OK), message: "")
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            outcome = withMessageBuffer { message, capacity in
                decode(bytes.baseAddress, bytes.count, buffer.baseAddress, count, message, capacity)
            }
            // On success the glue has written every pixel (all rows; all seven Adam7 passes).
            initialized = outcome.status == Int32(LT_OK) ? count : 0
        }
        if outcome.status != Int32(LT_OK) {
            throw refusal(format, outcome, width: width, height: height)
        }
        return LumaImage(width: width, height: height, pixels: pixels)
    }

    /// Calls the glue with a message buffer, and returns its status and the message it wrote.
    static func withMessageBuffer(
        _ call: (UnsafeMutablePointer<CChar>, Int) -> Int32
    ) -> (status: Int32, message: String) {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 256) { buffer in
            buffer.initialize(repeating: 0)
            let status = call(buffer.baseAddress!, buffer.count)
            buffer[buffer.count - 1] = 0
            return (status, String(cString: buffer.baseAddress!))
        }
    }

    private static func refusal(
        _ format: ImageFileFormat, _ outcome: (status: Int32, message: String), width: Int, height: Int
    ) -> ImageDataProblem {
        var message = outcome.message
        for noise in ["Corrupt JPEG data: ", "Invalid JPEG file structure: "]
        where message.hasPrefix(noise) {
            message.removeFirst(noise.count)
        }
        switch Int(outcome.status) {
        case LT_ERR_TRUNCATED: return .truncated(.decoder(format, message))
        case LT_ERR_UNSUPPORTED: return .unsupported(.decoder(format, message))
        case LT_ERR_LIMIT: return .dimensions(format, width: width, height: height, limit: maximumDimension)
        default: return .corrupt(.decoder(format, message))
        }
    }
}
