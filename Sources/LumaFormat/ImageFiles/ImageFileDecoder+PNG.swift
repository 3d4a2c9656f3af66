import CImageGlue

extension ImageFileDecoder {
    /// A PNG's chunk structure, walked without decompressing anything: the header fields, and
    /// whether the compressed data present could possibly fill the declared image.
    ///
    /// Catches truncation with a precise message (libpng only says "read error"), and refuses a
    /// header that claims far more pixels than its IDAT data can hold before the image is
    /// allocated. Checksums and everything inside chunks are libpng's job.
    struct PNGLayout: LibraryImageLayout {
        static let format = ImageFileFormat.png
        static let readInfo = lt_png_read_info
        static let decodeLuma = lt_png_decode_luma

        var width: Int
        var height: Int
        var bitDepth: Int
        var colorType: Int
        var interlaced: Bool
        /// Total length of all IDAT chunks' data: the zlib stream.
        var compressedBytes: Int

        static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

        /// Deflate's densest code is a 258-byte match in 2 bits, so one byte of IDAT data can
        /// never inflate to more than 1032 bytes.
        static let maximumInflationRatio = 1032

        /// The IHDR chunk's fields.
        typealias Header = (width: Int, height: Int, depth: Int, color: Int, interlace: Int)

        init(scanning b: UnsafeBufferPointer<UInt8>) throws(ImageDataProblem) {
            try Self.checkSignature(b)
            let (header, compressed) = try Self.walkChunks(b)
            width = header.width
            height = header.height
            bitDepth = header.depth
            colorType = header.color
            interlaced = header.interlace != 0
            compressedBytes = compressed

            guard isWithinLimits(width: width, height: height) else {
                throw .dimensions(.png, width: width, height: height, limit: maximumDimension)
            }
            guard let channels = Self.channels(colorType: colorType, bitDepth: bitDepth) else {
                throw .corrupt(.pngColorType(colorType: colorType, bitDepth: bitDepth))
            }
            guard compressed > 0 else {
                throw .corrupt(.pngNoImageData)
            }
            try checkCompressedDataCanFill(channels: channels)
        }

        /// Refuses bytes that do not start with the PNG signature, or stop inside it.
        private static func checkSignature(_ b: UnsafeBufferPointer<UInt8>) throws(ImageDataProblem) {
            let sigCount = min(b.count, 8)
            guard b.prefix(sigCount).elementsEqual(signature.prefix(sigCount)) else {
                throw .corrupt(.pngSignature(start: Array(b.prefix(8))))
            }
            guard b.count >= 8 else {
                throw .truncated(.pngSignature(bytes: b.count))
            }
        }

        /// Walks the chunks from after the signature to IEND: the header (the first chunk, which
        /// must be IHDR) and the IDAT chunks' total length.
        private static func walkChunks(_ b: UnsafeBufferPointer<UInt8>) throws(ImageDataProblem) -> (header: Header, compressed: Int) {
            var header: Header?
            var compressed = 0
            var offset = 8
            while true {
                let (type, length) = try chunk(at: offset, in: b)
                let data = offset + 8
                if header == nil {
                    guard type == "IHDR", length == 13 else {
                        throw .corrupt(.pngFirstChunk(type: type, length: length))
                    }
                    header = (
                        Int(readBE32(b, data)), Int(readBE32(b, data + 4)), Int(b[data + 8]),
                        Int(b[data + 9]), Int(b[data + 12])
                    )
                } else if type == "IDAT" {
                    compressed += length  // at most count bytes in all: no overflow
                } else if type == "IEND" {
                    break
                }
                offset = data + length + 4
            }
            guard let header else {
                throw .corrupt(.pngFirstChunk(type: "", length: 0))  // unreachable: IHDR checked first
            }
            return (header, compressed)
        }

        /// The type and data length of the chunk at `offset`, once its type is letters and its
        /// data and CRC are inside the file.
        private static func chunk(at offset: Int, in b: UnsafeBufferPointer<UInt8>) throws(ImageDataProblem) -> (type: String, length: Int) {
            guard b.count - offset >= 8 else {
                throw .truncated(.noEnd(.png, bytes: b.count))
            }
            let length = Int(readBE32(b, offset))
            let typeBytes = b[(offset + 4)..<(offset + 8)]
            let type = String(decoding: typeBytes, as: UTF8.self)
            guard typeBytes.allSatisfy({ isASCIILetter($0) }) else {
                throw .corrupt(.pngChunkType(offset: offset, typeBytes: Array(typeBytes)))
            }
            guard length <= 0x7FFF_FFFF else {
                throw .corrupt(.pngChunkLength(type: type, offset: offset, length: length))
            }
            let available = b.count - offset - 8
            guard available >= length + 4 else {
                throw .truncated(.pngChunk(type: type, offset: offset, declared: length, available: available))
            }
            return (type, length)
        }

        /// Refuses, before the image is allocated, a file whose zlib stream cannot expand to the
        /// filtered rows, which hold at least width × height × bits-per-pixel bits.
        private func checkCompressedDataCanFill(channels: Int) throws(ImageDataProblem) {
            let minimumRaw = (width * height * channels * bitDepth + 7) / 8
            let maximumRaw = (compressedBytes + 2) * Self.maximumInflationRatio
            guard minimumRaw <= maximumRaw else {
                let ratio = Self.maximumInflationRatio
                let needed = (minimumRaw + ratio - 1) / ratio
                throw .tooLittleData(.png, width: width, height: height, bytes: compressedBytes, needed: needed)
            }
        }

        /// Samples per pixel for a valid PNG color type / bit depth pair, else `nil`.
        static func channels(colorType: Int, bitDepth: Int) -> Int? {
            switch (colorType, bitDepth) {
            case (0, 1), (0, 2), (0, 4), (0, 8), (0, 16): return 1
            case (3, 1), (3, 2), (3, 4), (3, 8): return 1
            case (2, 8), (2, 16): return 3
            case (4, 8), (4, 16): return 2
            case (6, 8), (6, 16): return 4
            default: return nil
            }
        }
    }

    static func readBE32(_ b: UnsafeBufferPointer<UInt8>, _ offset: Int) -> UInt32 {
        UInt32(b[offset]) << 24 | UInt32(b[offset + 1]) << 16 | UInt32(b[offset + 2]) << 8
            | UInt32(b[offset + 3])
    }

    static func isASCIILetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
}
