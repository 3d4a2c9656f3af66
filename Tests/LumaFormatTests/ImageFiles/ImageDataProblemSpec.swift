import LumaFormat
import Testing

/// An image file's refusal is a value: the kind (cut short, corrupt, unsupported, too large) with
/// the offsets, sizes and bytes found, so a caller can act on it (wait for a file still being
/// written) and the sentence is built from it.
@Suite("Image refusals carry what was found, not only a sentence")
struct ImageDataProblemSpec {
    /// The problem decoding `bytes` is refused with.
    private func problem(_ bytes: [UInt8]) -> ImageDataProblem? {
        let error = #expect(throws: ImageDecodingError.self) { try ImageFileDecoder.decodeLuma(bytes, source: "test") }
        guard case .undecodable(let problem) = error?.problem else { return nil }
        return problem
    }

    private func isTruncation(_ problem: ImageDataProblem?) -> Bool {
        if case .truncated = problem { return true }
        return false
    }

    @Test("a file cut anywhere is a truncation, in each format, and the whole file none")
    func truncationAtEveryCut() throws {
        let png = TestPNG.pattern(width: 5, height: 3, bitDepth: 8, colorType: 0).encoded()
        let pgm = Array("P5\n3 2\n255\n".utf8) + [UInt8](repeating: 9, count: 6)
        for (whole, firstCut) in [(png, 4), (JPEGFixtures.baseline, 2), (pgm, 3)] {
            for cut in firstCut..<whole.count {
                #expect(isTruncation(problem(Array(whole.prefix(cut)))), "cut at \(cut) of \(whole.prefix(2))")
            }
            _ = try ImageFileDecoder.decodeLuma(whole, source: "whole")
        }
    }

    @Test("a truncation names where the file ends and what it declared")
    func truncationData() {
        let png = TestPNG.pattern(width: 17, height: 9, bitDepth: 8, colorType: 2).encoded()
        #expect(problem(Array(png.prefix(141))) == .truncated(.pngChunk(type: "IDAT", offset: 33, declared: 479, available: 100)))
        #expect(problem(Array(png.prefix(png.count - 12))) == .truncated(.noEnd(.png, bytes: png.count - 12)))
        #expect(problem(Array(png.prefix(5))) == .truncated(.pngSignature(bytes: 5)))
        #expect(problem(Array("P5\n3 2\n255\n".utf8) + [1, 2, 3, 4]) == .truncated(.pgmRaster(available: 4, needed: 6)))
        #expect(problem(Array("P2 3 1 255\n1 2    ".utf8)) == .truncated(.pgmPlainSamples(read: 2, count: 3)))
        #expect(problem(Array("P5 3".utf8)) == .truncated(.pgmBefore(.height)))
    }

    @Test("sizes past the limit and declared sizes the data cannot fill carry the numbers")
    func sizes() {
        #expect(problem(Array("P5 20000 100 255\n".utf8)) == .dimensions(.pgm, width: 20000, height: 100, limit: ImageFileDecoder.maximumDimension))
        var wide = TestPNG.pattern(width: 1, height: 1, bitDepth: 8, colorType: 0).encoded()
        wide.replaceSubrange(16..<24, with: TestPNG.be32(0) + TestPNG.be32(7))
        #expect(problem(wide) == .dimensions(.png, width: 0, height: 7, limit: 16384))
        let huge = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + TestPNG.chunk("IHDR", TestPNG.be32(16384) + TestPNG.be32(16384) + [8, 0, 0, 0, 0])
            + TestPNG.chunk("IDAT", TestPNG.zlibStored([0, 1, 2, 3])) + TestPNG.chunk("IEND", [])
        #expect(problem(huge) == .tooLittleData(.png, width: 16384, height: 16384, bytes: 15, needed: 260112))
    }

    @Test("corrupt structure and unsupported features say which, with the values read")
    func corruptAndUnsupported() {
        #expect(problem(Array("GIF89a".utf8)) == .notAnImage(start: Array("GIF8".utf8)))
        #expect(problem([]) == .empty)
        #expect(problem(Array("P5 2 2 70000\n".utf8)) == .corrupt(.pgmMaxval(70000)))
        #expect(problem(Array("P5 2x 2 255\n".utf8)) == .corrupt(.pgmFieldNotSeparated(.width, offset: 4, found: UInt8(ascii: "x"))))
        #expect(problem(Array("P2 2 1 9\n4 10".utf8)) == .corrupt(.pgmSampleOverMaxval(column: 1, row: 0, value: 10, maxval: 9)))
        var depth = TestPNG.pattern(width: 1, height: 1, bitDepth: 8, colorType: 0).encoded()
        depth[24] = 3
        depth.replaceSubrange(29..<33, with: TestPNG.be32(Int(TestPNG.crc32(Array(depth[12..<29])))))
        #expect(problem(depth) == .corrupt(.pngColorType(colorType: 0, bitDepth: 3)))
        #expect(problem(JPEGFixtures.arithmetic) == .unsupported(.jpegProcess(frameMarker: 0xC9)))
        #expect(problem(JPEGFixtures.cmyk) == .unsupported(.jpegComponents(4)))
        #expect(problem(JPEGFixtures.manyScans) == .corrupt(.decoder(.jpeg, "more than 100 scans (a legitimate progressive JPEG has ~10)")))
    }

    @Test("the sentence is built from the value: format, what was found, how to fix it")
    func sentences() {
        #expect(ImageDataProblem.dimensions(.jpeg, width: 20000, height: 100, limit: 16384).description
            == "JPEG is 20000x100, over the 16384 limit; scale it down to at most 16384x16384 first")
        #expect(ImageDataProblem.truncated(.pngChunk(type: "IDAT", offset: 33, declared: 479, available: 479)).description
            == "truncated PNG: chunk 'IDAT' at offset 33 declares 479 bytes of data, but the file ends after 479 of them (its CRC is missing); it was cut short or is still being written")
        #expect(ImageDataProblem.notAnImage(start: [0, 0, 1, 0xBA]).description
            == "not a PGM, PNG or JPEG file (starts with bytes 00 00 01 BA); convert it first, e.g. ffmpeg -i INPUT -pix_fmt gray OUTPUT.png")
        #expect(ImageDataProblem.corrupt(.pgmFieldMissing(.sample, offset: 11, found: 0x0A)).description
            == "corrupt PGM: expected the sample at offset 11, found byte 0A")
        #expect(ImageDataProblem.unsupported(.jpegComponents(2)).description == "unsupported JPEG: 2 color components (expected 1 or 3)")
    }
}
