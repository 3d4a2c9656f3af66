/// Netpbm graymap files: writes binary PGM, reads binary (P5) and plain (P2) PGM.
///
/// Reading follows netpbm: header fields are separated by whitespace, and `#` comments (to the end
/// of the line) may appear anywhere a separator may. Samples are scaled to 0...255 as
/// `round(v * 255 / maxval)` (stored as is when maxval is 255); 16-bit samples (maxval 256...65535)
/// are big-endian. Only the first image of a multi-image file is read.
public enum PGMCodec {
    /// Encodes luma as binary PGM with maxval 255: `P5\n<width> <height>\n255\n` and the samples.
    /// - Precondition: `pixels.count == width * height`.
    public static func encode(width: Int, height: Int, pixels: UnsafeBufferPointer<UInt8>)
        -> [UInt8]
    {
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        precondition(
            width >= 0 && height >= 0 && !overflow && pixels.count == count,
            "PGMCodec.encode: \(pixels.count) pixels for a \(width)x\(height) image")
        var bytes = Array("P5\n\(width) \(height)\n255\n".utf8)
        bytes.reserveCapacity(bytes.count + count)
        bytes.append(contentsOf: pixels)
        return bytes
    }

    // MARK: - Decoding

    /// The header fields, and where the raster starts.
    struct Header {
        var plain: Bool
        var width: Int
        var height: Int
        var maxval: Int
        var rasterOffset: Int

        init(parsing b: UnsafeBufferPointer<UInt8>) throws(ImageDataProblem) {
            guard b.count >= 2, b[0] == UInt8(ascii: "P"),
                b[1] == UInt8(ascii: "5") || b[1] == UInt8(ascii: "2")
            else {
                throw .corrupt(.pgmMagic)
            }
            plain = b[1] == UInt8(ascii: "2")
            var offset = 2
            width = try readNumber(b, &offset, .width, limit: 1 << 24)
            height = try readNumber(b, &offset, .height, limit: 1 << 24)
            guard ImageFileDecoder.isWithinLimits(width: width, height: height) else {
                throw .dimensions(.pgm, width: width, height: height, limit: ImageFileDecoder.maximumDimension)
            }
            maxval = try readNumber(b, &offset, .maxval, limit: 1 << 24)
            guard (1...65535).contains(maxval) else {
                throw .corrupt(.pgmMaxval(maxval))
            }
            // Exactly one whitespace byte ends the header (in P2 it is just the first separator).
            guard offset < b.count else {
                throw .truncated(.pgmAfterHeader)
            }
            guard PGMCodec.isWhitespace(b[offset]) else {
                throw .corrupt(.pgmAfterMaxval(offset: offset, found: b[offset]))
            }
            rasterOffset = offset + 1
        }

        var sampleCount: Int { width * height }
        /// Bytes per sample in a binary (P5) raster.
        var sampleSize: Int { maxval < 256 ? 1 : 2 }

        /// Refuses a file too short for its raster: exact for P5; for P2 each sample needs at
        /// least a digit and a separator (the last needs no separator).
        func checkRasterLength(in b: UnsafeBufferPointer<UInt8>) throws(ImageDataProblem) {
            let available = b.count - rasterOffset
            if plain {
                guard available >= 2 * sampleCount - 1 else {
                    throw .truncated(.pgmPlainRaster(samples: sampleCount, available: available))
                }
            } else {
                guard available >= sampleCount * sampleSize else {
                    throw .truncated(.pgmRaster(available: available, needed: sampleCount * sampleSize))
                }
            }
        }
    }

    static func decode(_ b: UnsafeBufferPointer<UInt8>) throws(ImageDataProblem) -> LumaImage {
        let header = try Header(parsing: b)
        try header.checkRasterLength(in: b)  // before allocating anything image-sized
        let pixels =
            header.plain
            ? try decodePlain(b, header) : try decodeBinary(b, header)
        return LumaImage(width: header.width, height: header.height, pixels: pixels)
    }

    /// P5: 1 byte per sample when maxval < 256, else 2 (big-endian).
    private static func decodeBinary(_ b: UnsafeBufferPointer<UInt8>, _ header: Header)
        throws(ImageDataProblem) -> [UInt8]
    {
        let count = header.sampleCount
        let sampleSize = header.sampleSize
        let needed = count * sampleSize
        let raster = UnsafeBufferPointer(
            rebasing: b[header.rasterOffset..<(header.rasterOffset + needed)])
        let maxval = header.maxval

        if sampleSize == 1 {
            if maxval == 255 { return Array(raster) }
            if let index = raster.firstIndex(where: { Int($0) > maxval }) {
                throw overMaxval(Int(raster[index]), index, header)
            }
            let table = (0...255).map { UInt8(min(255, scaled($0, maxval))) }
            return raster.map { table[Int($0)] }
        }
        var firstBad: Int?
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            for i in 0..<count {
                let v = Int(raster[2 * i]) << 8 | Int(raster[2 * i + 1])
                if v > maxval {
                    firstBad = i
                    break
                }
                out[i] = UInt8(scaled(v, maxval))
            }
            initialized = firstBad == nil ? count : 0
        }
        if let firstBad {
            throw overMaxval(
                Int(raster[2 * firstBad]) << 8 | Int(raster[2 * firstBad + 1]), firstBad, header)
        }
        return pixels
    }

    /// P2: decimal samples separated by whitespace (and, leniently, comments).
    private static func decodePlain(_ b: UnsafeBufferPointer<UInt8>, _ header: Header)
        throws(ImageDataProblem) -> [UInt8]
    {
        let count = header.sampleCount
        var offset = header.rasterOffset
        var pixels = [UInt8](repeating: 0, count: count)
        for i in 0..<count {
            let v: Int
            do throws(ImageDataProblem) {
                v = try readNumber(b, &offset, .sample, limit: 65535)
            } catch {
                if offset >= b.count {
                    throw .truncated(.pgmPlainSamples(read: i, count: count))
                }
                throw error
            }
            if v > header.maxval { throw overMaxval(v, i, header) }
            pixels[i] = UInt8(scaled(v, header.maxval))
        }
        return pixels
    }

    /// `round(v * 255 / maxval)` for `0 <= v <= maxval`.
    @inline(__always)
    static func scaled(_ v: Int, _ maxval: Int) -> Int {
        (v * 255 + maxval / 2) / maxval
    }

    private static func overMaxval(_ value: Int, _ index: Int, _ header: Header) -> ImageDataProblem {
        .corrupt(.pgmSampleOverMaxval(column: index % header.width, row: index / header.width, value: value, maxval: header.maxval))
    }

    /// Skips whitespace and comments, then reads a decimal number that must end at whitespace,
    /// a comment or the end of the data. Values over `limit` are refused (no overflow possible).
    private static func readNumber(
        _ b: UnsafeBufferPointer<UInt8>, _ offset: inout Int, _ what: PGMField, limit: Int
    ) throws(ImageDataProblem) -> Int {
        skipSeparators(b, &offset)
        guard offset < b.count else {
            throw .truncated(.pgmBefore(what))
        }
        guard isDigit(b[offset]) else {
            throw .corrupt(.pgmFieldMissing(what, offset: offset, found: b[offset]))
        }
        var value = 0
        while offset < b.count, isDigit(b[offset]) {
            value = value * 10 + Int(b[offset] - UInt8(ascii: "0"))
            guard value <= limit else {
                throw .corrupt(.pgmFieldOverLimit(what, offset: offset, limit: limit))
            }
            offset += 1
        }
        if offset < b.count, !isHeaderSeparator(b[offset]) {
            throw .corrupt(.pgmFieldNotSeparated(what, offset: offset, found: b[offset]))
        }
        return value
    }

    private static func skipSeparators(_ b: UnsafeBufferPointer<UInt8>, _ offset: inout Int) {
        while offset < b.count {
            if isWhitespace(b[offset]) {
                offset += 1
            } else if b[offset] == UInt8(ascii: "#") {
                while offset < b.count, b[offset] != 0x0A, b[offset] != 0x0D { offset += 1 }
            } else {
                return
            }
        }
    }

    static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    /// Netpbm whitespace: space, tab, LF, VT, FF, CR.
    static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }

    /// What may follow a header field: whitespace or the start of a comment.
    static func isHeaderSeparator(_ byte: UInt8) -> Bool {
        isWhitespace(byte) || byte == UInt8(ascii: "#")
    }
}
