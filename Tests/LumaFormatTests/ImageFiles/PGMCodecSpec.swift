import Foundation
import LumaFormat
import Testing
import LumaTestSupport

@Suite("PGM: binary and plain graymaps, and what is refused")
struct PGMCodecSpec {
    typealias F = ImageFileFixtures

    private func decode(_ text: String, _ raster: [UInt8] = []) throws(ImageDecodingError)
        -> LumaImage
    {
        try ImageFileDecoder.decodeLuma(Array(text.utf8) + raster, source: "test.pgm")
    }

    private func refusal(_ bytes: [UInt8]) -> String? {
        #expect(throws: ImageDecodingError.self) {
            try ImageFileDecoder.decodeLuma(bytes, source: "test.pgm")
        }?.reason
    }

    @Test("encode writes P5 with maxval 255, and decoding gives the pixels back")
    func roundTrip() throws {
        let pixels: [UInt8] = (0..<(17 * 9)).map { UInt8(($0 * 37) & 255) }
        let bytes = pixels.withUnsafeBufferPointer {
            PGMCodec.encode(width: 17, height: 9, pixels: $0)
        }
        #expect(Array(bytes.prefix(12)) == Array("P5\n17 9\n255\n".utf8))
        #expect(bytes.count == 12 + pixels.count)
        let image = try ImageFileDecoder.decodeLuma(bytes, source: "rt.pgm")
        #expect(image == LumaImage(width: 17, height: 9, pixels: pixels))
    }

    @Test("maxval below 255 is scaled to 0...255 with rounding")
    func smallMaxval() throws {
        let image = try decode("P5 4 1 15\n", [0, 1, 7, 15])
        // round(v * 255 / 15) = 17 v
        #expect(image.pixels == [0, 17, 119, 255])
        let three = try decode("P5 4 1 3\n", [0, 1, 2, 3])
        #expect(three.pixels == [0, 85, 170, 255])
        let two = try decode("P5 3 1 2\n", [0, 1, 2])
        #expect(two.pixels == [0, 128, 255])  // 127.5 rounds up
    }

    @Test("maxval 256...65535 means 2 big-endian bytes per sample, scaled with rounding")
    func sixteenBit() throws {
        let image = try decode("P5 4 1 65535\n", [0x00, 0x00, 0x00, 0x80, 0x80, 0x00, 0xFF, 0xFF])
        #expect(image.pixels == [0, 0, 128, 255])  // 128*255/65535 = 0.498 → 0
        let thousand = try decode("P5 3 1 1000\n", [0x00, 0x02, 0x01, 0xF4, 0x03, 0xE8])
        #expect(thousand.pixels == [1, 128, 255])  // 0.51 → 1, 127.5 → 128
    }

    @Test("comments may appear anywhere in the header, and any whitespace separates fields")
    func comments() throws {
        let text = "P5# after magic\n#full line\n 3\t#w\n\r2 # h\n#before maxval\n255\n"
        let image = try decode(text, [1, 2, 3, 4, 5, 6])
        #expect(image == LumaImage(width: 3, height: 2, pixels: [1, 2, 3, 4, 5, 6]))
    }

    @Test("plain P2 is read too, including comments and maxval scaling")
    func plain() throws {
        let image = try decode("P2\n# plain\n3 2\n15\n0 1 2\n# row 2\n13 14\n15")
        #expect(image.pixels == [0, 17, 34, 221, 238, 255])
    }

    @Test("ffmpeg's PGM decodes exactly like ffmpeg's own gray output", .enabled(if: F.hasFFmpeg, "needs ffmpeg: apt-get install ffmpeg (or scripts/install-dependencies)"))
    func ffmpegRoundTrip() throws {
        try withScratchFolder("imagefiles") { folder in
            try F.ffmpegTestImage(folder + "/f.pgm", pixelFormat: "gray")
            let image = try ImageFileDecoder.decodeLuma(contentsOf: folder + "/f.pgm")
            #expect(image.width == 17 && image.height == 9)
            #expect(image.pixels == (try F.ffmpegRaw(of: folder + "/f.pgm")))

            try F.ffmpegTestImage(folder + "/f16.pgm", pixelFormat: "gray16be")
            let deep = try ImageFileDecoder.decodeLuma(contentsOf: folder + "/f16.pgm")
            let raw = try F.ffmpegRaw(of: folder + "/f16.pgm", pixelFormat: "gray16be")
            let expected = (0..<(17 * 9)).map { i -> UInt8 in
                let value = Int(raw[2 * i]) << 8 | Int(raw[2 * i + 1])
                return UInt8((value * 255 + 32767) / 65535)  // round(v * 255 / 65535)
            }
            #expect(deep.pixels == expected)
        }
    }

    @Test("a header claiming 16384x16384 over ten bytes is refused before allocating")
    func hugeHeader() {
        // Before allocating: the work done is far less than filling 256 MiB (processor time, which
        // a busy machine does not stretch).
        let (reason, used) = ThreadCPUTime.measure { refusal(Array("P5 16384 16384 255\n".utf8) + [UInt8](repeating: 7, count: 10)) }
        #expect(reason == "truncated PGM: pixel data ends after 10 of 268435456 bytes; the file was cut short or is still being written")
        #expect(used < .milliseconds(200), "\(used) of processor time")
        let plain = refusal(Array("P2 16384 16384 255\n1 2 3".utf8))
        #expect(plain?.hasPrefix("truncated PGM: 268435456 plain (P2) samples need at least") == true)
    }

    @Test("sizes outside 1...16384 are refused with the size")
    func sizeLimits() {
        #expect(refusal(Array("P5 0 5 255\n".utf8)) == "PGM declares a size of 0x5; width and height must each be 1...16384")
        #expect(refusal(Array("P5 20000 100 255\n".utf8))?.hasPrefix("PGM is 20000x100, over the 16384 limit") == true)
        #expect(refusal(Array("P5 99999999999999999999 1 255\n".utf8))?.hasPrefix("corrupt PGM: the width") == true)
    }

    @Test("bad fields and samples over maxval are refused")
    func badFields() {
        #expect(refusal(Array("P5 2 2 0\n".utf8)) == "corrupt PGM: maxval 0 is outside 1...65535")
        #expect(refusal(Array("P5 2 2 70000\n".utf8)) == "corrupt PGM: maxval 70000 is outside 1...65535")
        #expect(refusal(Array("P5 2x 2 255\n".utf8))?.hasPrefix("corrupt PGM: the width is followed by 'x'") == true)
        #expect(refusal(Array("P5 2 2 15\n".utf8) + [1, 2, 16, 3]) == "corrupt PGM: the sample at column 0, row 1 is 16, over the maxval of 15")
        #expect(refusal(Array("P2 2 1 9\n4 10".utf8)) == "corrupt PGM: the sample at column 1, row 0 is 10, over the maxval of 9")
        #expect(refusal(Array("P2 2 1 9\n4 x".utf8)) == "corrupt PGM: expected the sample at offset 11, found 'x'")
    }

    @Test("truncated files are refused at every cut point")
    func truncation() throws {
        let pixels = [UInt8](repeating: 200, count: 6)
        let whole = Array("P5\n3 2\n255\n".utf8) + pixels
        for cut in 1..<whole.count {
            let error = #expect(throws: ImageDecodingError.self) {
                try ImageFileDecoder.decodeLuma(Array(whole.prefix(cut)), source: "cut.pgm")
            }
            #expect(error?.source == "cut.pgm")
            if cut >= 3 { #expect(error?.reason.hasPrefix("truncated PGM") == true, "cut at \(cut)") }
        }
        #expect(refusal(Array(whole.prefix(whole.count - 2))) == "truncated PGM: pixel data ends after 4 of 6 bytes; the file was cut short or is still being written")
        #expect(refusal(Array("P2 3 1 255\n1 2    ".utf8)) == "truncated PGM: plain (P2) pixel data ends after 2 of 3 samples")
    }

    @Test("every single-bit flip decodes to a sane image or is refused")
    func bitFlips() {
        let whole = Array("P5\n# c\n5 3\n255\n".utf8) + (0..<15).map { UInt8($0 * 17) }
        for bit in 0..<(whole.count * 8) {
            do {
                let image = try ImageFileDecoder.decodeLuma(F.flippingBit(bit, of: whole), source: "flip.pgm")
                #expect(image.pixels.count == image.width * image.height)
            } catch {
                #expect(error.source == "flip.pgm")
            }
        }
    }
}
