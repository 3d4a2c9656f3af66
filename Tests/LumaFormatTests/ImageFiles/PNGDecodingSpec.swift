import Foundation
import LumaFormat
import Testing
import LumaTestSupport

@Suite("PNG: every color type, bit depth and interlacing to luma; hostile files refused")
struct PNGDecodingSpec {
    typealias F = ImageFileFixtures

    static let validFormats: [(colorType: Int, bitDepth: Int)] = [
        (0, 1), (0, 2), (0, 4), (0, 8), (0, 16), (2, 8), (2, 16), (3, 1), (3, 2), (3, 4), (3, 8),
        (4, 8), (4, 16), (6, 8), (6, 16),
    ]

    private func refusal(_ bytes: [UInt8], source: String = "test.png") -> ImageDecodingError? {
        #expect(throws: ImageDecodingError.self) {
            try ImageFileDecoder.decodeLuma(bytes, source: source)
        }
    }

    // MARK: - Conversion

    /// Gray is kept (1/2/4-bit scaled up, 16-bit by the high byte); palette and RGB become
    /// Y = (77 R + 150 G + 29 B + 128) >> 8; alpha and tRNS are dropped. Interlaced or not.
    @Test("every color type and bit depth converts to the documented luma", arguments: validFormats)
    func conversion(colorType: Int, bitDepth: Int) throws {
        for (width, height) in [(1, 1), (3, 5), (17, 9), (8, 8), (9, 17)] {
            for interlaced in [false, true] {
                let png = TestPNG.pattern(
                    width: width, height: height, bitDepth: bitDepth, colorType: colorType,
                    interlaced: interlaced, seed: UInt64(width * 100 + height))
                let image = try ImageFileDecoder.decodeLuma(png.encoded(), source: "p.png")
                #expect(
                    image == LumaImage(width: width, height: height, pixels: png.expectedLuma),
                    "type \(colorType) depth \(bitDepth) \(width)x\(height) interlaced \(interlaced)")
            }
        }
    }

    @Test("an Adam7-interlaced PNG decodes like ffmpeg decodes it", .enabled(if: F.hasFFmpeg, "needs ffmpeg: apt-get install ffmpeg (or scripts/install-dependencies)"))
    func interlacedAgainstFFmpeg() throws {
        try withScratchFolder("imagefiles") { folder in
            // Checks the test's own interlacing writer against an independent decoder too.
            // Gray 8-bit is exact; RGB within 1 level (ffmpeg's weights round differently), 16-bit
            // gray within 1 (ffmpeg rounds where we take the high byte).
            for (colorType, bitDepth, tolerance) in [(0, 8, 0), (2, 8, 1), (0, 16, 1)] {
                let png = TestPNG.pattern(
                    width: 19, height: 11, bitDepth: bitDepth, colorType: colorType, interlaced: true)
                let path = folder + "/i\(colorType)-\(bitDepth).png"
                try F.write(png.encoded(), to: path)
                let image = try ImageFileDecoder.decodeLuma(contentsOf: path)
                let reference = try F.ffmpegRaw(of: path)
                #expect(F.maximumDifference(image.pixels, reference) <= tolerance)
            }
        }
    }

    /// Gray exactly; color within 2 levels, because ffmpeg's RGB → gray uses slightly different
    /// weights and rounding than the documented (77, 150, 29) / 256.
    @Test(
        "PNGs written by ffmpeg match ffmpeg's own gray conversion",
        .enabled(if: F.hasFFmpeg, "needs ffmpeg: apt-get install ffmpeg (or scripts/install-dependencies)"),
        arguments: [
            ("gray", 0), ("monob", 0), ("ya8", 0), ("gray16be", 1), ("rgb24", 2), ("rgba", 2),
            ("rgb48be", 2), ("rgba64be", 2), ("pal8", 2),
        ])
    func ffmpegRoundTrip(pixelFormat: String, tolerance: Int) throws {
        try withScratchFolder("imagefiles") { folder in
            let path = folder + "/\(pixelFormat).png"
            try F.ffmpegTestImage(path, size: "33x21", pixelFormat: pixelFormat)
            let image = try ImageFileDecoder.decodeLuma(contentsOf: path)
            #expect(image.width == 33 && image.height == 21)
            let reference = try F.ffmpegRaw(of: path)
            #expect(F.maximumDifference(image.pixels, reference) <= tolerance)
            if pixelFormat == "gray16be" {
                // 16-bit samples take their high byte, exactly.
                let raw = try F.ffmpegRaw(of: path, pixelFormat: "gray16be")
                #expect(image.pixels == stride(from: 0, to: raw.count, by: 2).map { raw[$0] })
            }
            if pixelFormat == "rgb24" {
                // ...and RGB follows the documented weights exactly.
                let rgb = try F.ffmpegRaw(of: path, pixelFormat: "rgb24")
                let expected = stride(from: 0, to: rgb.count, by: 3).map {
                    F.luma(Int(rgb[$0]), Int(rgb[$0 + 1]), Int(rgb[$0 + 2]))
                }
                #expect(image.pixels == expected)
            }
        }
    }

    @Test("bytes after IEND are ignored")
    func trailingData() throws {
        let png = TestPNG.pattern(width: 5, height: 4, bitDepth: 8, colorType: 2)
        let image = try ImageFileDecoder.decodeLuma(png.encoded() + [0, 1, 2, 3], source: "t.png")
        #expect(image.pixels == png.expectedLuma)
    }

    // MARK: - Hostile files

    @Test("a header claiming 16384x16384 over a few bytes of data is refused before allocating")
    func hugeHeader() throws {
        var ihdr = TestPNG.be32(16384) + TestPNG.be32(16384)
        ihdr += [8, 0, 0, 0, 0]
        let bytes =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + TestPNG.chunk("IHDR", ihdr)
            + TestPNG.chunk("IDAT", TestPNG.zlibStored([0, 1, 2, 3])) + TestPNG.chunk("IEND", [])
        // Before allocating: the work done is far less than filling 256 MiB (processor time, which
        // a busy machine does not stretch).
        let (error, used) = ThreadCPUTime.measure { refusal(bytes, source: "huge.png") }
        #expect(used < .milliseconds(200), "\(used) of processor time")
        #expect(error?.source == "huge.png")
        #expect(error?.reason == "PNG declares 16384x16384 pixels but holds only 15 bytes of compressed image data, which cannot expand to fill it (at least 260112 needed); the file is truncated or corrupt")
    }

    @Test("sizes outside 1...16384 are refused with the size")
    func sizeLimits() {
        var wide = TestPNG.pattern(width: 1, height: 1, bitDepth: 8, colorType: 0).encoded()
        wide.replaceSubrange(16..<24, with: TestPNG.be32(20000) + TestPNG.be32(100))
        #expect(refusal(wide)?.reason.hasPrefix("PNG is 20000x100, over the 16384 limit; ") == true)
        var zero = TestPNG.pattern(width: 1, height: 1, bitDepth: 8, colorType: 0).encoded()
        zero.replaceSubrange(16..<20, with: TestPNG.be32(0))
        #expect(refusal(zero)?.reason == "PNG declares a size of 0x1; width and height must each be 1...16384")
    }

    @Test("truncated files are refused at every cut point, saying where")
    func truncation() throws {
        let whole = TestPNG.pattern(width: 17, height: 9, bitDepth: 8, colorType: 2).encoded()
        for cut in 1..<whole.count {
            let error = refusal(Array(whole.prefix(cut)), source: "cut.png")
            #expect(error?.source == "cut.png")
            if cut >= 4 { #expect(error?.reason.hasPrefix("truncated PNG") == true, "cut at \(cut)") }
        }
        // IDAT (offset 33) holds 2 + 5 + 9 * 52 + 4 = 479 bytes.
        #expect(refusal(Array(whole.prefix(141)))?.reason == "truncated PNG: chunk 'IDAT' at offset 33 declares 479 bytes of data, but the file ends after 100 of them; it was cut short or is still being written")
        #expect(refusal(Array(whole.prefix(whole.count - 12)))?.reason == "truncated PNG: the file ends after \(whole.count - 12) bytes without an IEND chunk; it was cut short or is still being written")
    }

    @Test("every single-bit flip is refused or decodes to the very same image (CRCs guard the rest)", .enabled(if: F.hasFFmpeg, "needs ffmpeg: apt-get install ffmpeg (or scripts/install-dependencies)"))
    func bitFlips() throws {
        try withScratchFolder("imagefiles") { folder in
            try F.ffmpegTestImage(folder + "/f.png", pixelFormat: "rgb24")
            let whole = try F.read(folder + "/f.png")
            let original = try ImageFileDecoder.decodeLuma(whole, source: "f.png")
            var refused = 0
            for bit in 0..<(whole.count * 8) {
                do throws(ImageDecodingError) {
                    let image = try ImageFileDecoder.decodeLuma(F.flippingBit(bit, of: whole), source: "flip.png")
                    #expect(image == original, "bit \(bit) changed the pixels")
                } catch {
                    #expect(error.source == "flip.png")
                    refused += 1
                }
            }
            // Only flips inside the ancillary pHYs chunk's payload/CRC can go unnoticed.
            #expect(refused >= whole.count * 8 - 17 * 8)
        }
    }

    @Test("damaged data is refused with libpng's reason")
    func corruptData() {
        var bytes = TestPNG.pattern(width: 4, height: 4, bitDepth: 8, colorType: 0).encoded()
        bytes[50] ^= 0xFF  // a pixel inside IDAT (zlib's own checksum notices first)
        #expect(refusal(bytes)?.reason == "corrupt PNG: IDAT: incorrect data check")

        var crc = TestPNG.pattern(width: 4, height: 4, bitDepth: 8, colorType: 0).encoded()
        crc[32] ^= 1  // IHDR's CRC
        #expect(refusal(crc)?.reason == "corrupt PNG: IHDR: CRC error")

        var depth = TestPNG.pattern(width: 4, height: 4, bitDepth: 8, colorType: 0).encoded()
        depth[24] = 3  // bit depth 3, with a matching CRC
        depth.replaceSubrange(29..<33, with: TestPNG.be32(Int(TestPNG.crc32(Array(depth[12..<29])))))
        #expect(refusal(depth)?.reason == "corrupt PNG: color type 0 with bit depth 3 is not a valid combination")
    }

    @Test("a zlib stream shorter than the image is refused, not padded")
    func notEnoughData() {
        let png = TestPNG.pattern(width: 8, height: 8, bitDepth: 8, colorType: 0)
        let rows = Array(png.filteredRows().prefix(40))  // 4.4 of 8 rows
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes += TestPNG.chunk("IHDR", TestPNG.be32(8) + TestPNG.be32(8) + [8, 0, 0, 0, 0])
        bytes += TestPNG.chunk("IDAT", TestPNG.zlibStored(rows)) + TestPNG.chunk("IEND", [])
        #expect(refusal(bytes)?.reason.hasPrefix("corrupt PNG: ") == true)
    }
}
