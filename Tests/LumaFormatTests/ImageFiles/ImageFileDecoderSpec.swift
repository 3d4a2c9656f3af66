import Foundation
import LumaFormat
import Testing
import LumaTestSupport

@Suite("Image files: recognizing the format, and errors that name the file")
struct ImageFileDecoderSpec {
    @Test(
        "the extension decides what a name promises, in any case",
        arguments: [
            ("frame1.png", ImageFileFormat.png), ("FRAME.PNG", .png), ("a.jpg", .jpeg),
            ("a.JpEg", .jpeg), ("dir/x.pgm", .pgm), ("x.Pgm", .pgm),
        ])
    func formatByName(name: String, format: ImageFileFormat) {
        #expect(ImageFileDecoder.format(ofFileNamed: name) == format)
    }

    @Test(
        "names without a known extension have no format",
        arguments: ["png", "a.png.txt", "a.gif", "a.", "archive.tar.gz", "dir.png/readme", ""])
    func unknownNames(name: String) {
        #expect(ImageFileDecoder.format(ofFileNamed: name) == nil)
    }

    @Test("the magic bytes decide what the content is")
    func sniffing() {
        #expect(ImageFileDecoder.sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) == .png)
        #expect(ImageFileDecoder.sniff([0xFF, 0xD8, 0xFF, 0xE0]) == .jpeg)
        #expect(ImageFileDecoder.sniff(Array("P5\n2 2\n255\n".utf8)) == .pgm)
        #expect(ImageFileDecoder.sniff(Array("P2 2 2 255 ".utf8)) == .pgm)
        #expect(ImageFileDecoder.sniff(Array("P5#comment\n".utf8)) == .pgm)
        #expect(ImageFileDecoder.sniff(Array("P6\n2 2\n255\n".utf8)) == nil)  // color PPM
        #expect(ImageFileDecoder.sniff(Array("P55".utf8)) == nil)
        #expect(ImageFileDecoder.sniff(Array("GIF89a".utf8)) == nil)
        #expect(ImageFileDecoder.sniff([UInt8]()) == nil)
        #expect(ImageFileDecoder.sniff(ArraySlice<UInt8>([0xFF, 0xD8])) == .jpeg)
    }

    @Test("content wins over the name: a JPEG called .png decodes as JPEG")
    func contentWins() throws {
        try withScratchFolder("imagefiles") { folder in
            let path = folder + "/really-a-jpeg.png"
            try ImageFileFixtures.write(JPEGFixtures.baseline, to: path)
            let image = try ImageFileDecoder.decodeLuma(contentsOf: path)
            #expect(image.width == 32 && image.height == 24)
        }
    }

    @Test("an empty file is refused, naming the file")
    func emptyFile() throws {
        try withScratchFolder("imagefiles") { folder in
            let path = folder + "/empty.png"
            try ImageFileFixtures.write([], to: path)
            let error = #expect(throws: ImageDecodingError.self) {
                try ImageFileDecoder.decodeLuma(contentsOf: path)
            }
            #expect(error?.source == path)
            #expect(
                error?.description
                    == "\(path): empty file (0 bytes); expected a PGM, PNG or JPEG image")
        }
    }

    @Test("a file of another format is refused with its first bytes")
    func wrongMagic() {
        let gif = Array("GIF89a\u{1}\u{0}\u{1}\u{0}".utf8)
        let error = #expect(throws: ImageDecodingError.self) {
            try ImageFileDecoder.decodeLuma(gif, source: "cam/frame7.gif")
        }
        #expect(error?.source == "cam/frame7.gif")
        #expect(error?.reason.hasPrefix("not a PGM, PNG or JPEG file (starts with 'GIF8')") == true)

        let binary: [UInt8] = [0x00, 0x00, 0x01, 0xBA, 0x44]
        let second = #expect(throws: ImageDecodingError.self) {
            try ImageFileDecoder.decodeLuma(binary, source: "x")
        }
        #expect(second?.reason.hasPrefix("not a PGM, PNG or JPEG file (starts with bytes 00 00 01 BA)") == true)
    }

    @Test("a missing file, a folder and a FIFO are refused without hanging")
    func notRegularFiles() {
        withScratchFolder("imagefiles") { folder in
            let missing = #expect(throws: ImageDecodingError.self) {
                try ImageFileDecoder.decodeLuma(contentsOf: folder + "/nope.png")
            }
            #expect(missing?.reason.hasPrefix("cannot open: ") == true)

            let isFolder = #expect(throws: ImageDecodingError.self) {
                try ImageFileDecoder.decodeLuma(contentsOf: folder)
            }
            #expect(isFolder?.reason == "is a folder, not an image file")

            let fifo = folder + "/pipe.png"
            #expect(mkfifo(fifo, 0o600) == 0)
            let isFIFO = #expect(throws: ImageDecodingError.self) {
                try ImageFileDecoder.decodeLuma(contentsOf: fifo)
            }
            #expect(isFIFO?.problem == .notARegularFile)
            #expect(isFIFO?.reason == "is not a regular file")
        }
    }

    @Test("the error's description is one line: source, colon, reason")
    func errorDescription() {
        let error = ImageDecodingError(source: "a/b.png", .undecodable(.dimensions(.png, width: 20000, height: 100, limit: 16384)))
        #expect(error.description == "a/b.png: PNG is 20000x100, over the 16384 limit; scale it down to at most 16384x16384 first")
        let differs = ImageDecodingError(source: "f/2.png", .sizeDiffers(width: 8, height: 6, sequenceWidth: 4, sequenceHeight: 3, firstFile: "f/1.png"))
        #expect(differs.description == "f/2.png: image is 8x6, but the sequence is 4x3 (the size of its first file, f/1.png); all images in a folder must have the same size")
    }
}
