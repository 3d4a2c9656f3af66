import Foundation
import LumaFormat
import Testing
import LumaTestSupport

@Suite("Image sequences: a folder of frames in numeric order, all of one size")
struct ImageSequenceSpec {
    typealias F = ImageFileFixtures

    private func pgm(_ width: Int, _ height: Int, value: UInt8 = 9) -> [UInt8] {
        [UInt8](repeating: value, count: width * height).withUnsafeBufferPointer {
            PGMCodec.encode(width: width, height: height, pixels: $0)
        }
    }

    @Test("numbers in names sort by value: frame2 before frame10")
    func numericOrder() {
        let names = ["frame10.png", "frame2.png", "frame1.png", "frame100.png", "frame9.png"]
        #expect(
            names.sorted(by: ImageSequence.numericOrder)
                == ["frame1.png", "frame2.png", "frame9.png", "frame10.png", "frame100.png"])
        #expect(
            ["b2_10.jpg", "b2_9.jpg", "a10_1.jpg", "a9_5.jpg"].sorted(by: ImageSequence.numericOrder)
                == ["a9_5.jpg", "a10_1.jpg", "b2_9.jpg", "b2_10.jpg"])
    }

    @Test("equal-width numbers give plain byte order; ties in value fall back to bytes")
    func byteOrder() {
        let padded = ["img_0010.png", "img_0002.png", "img_0100.png", "IMG_0001.png"]
        #expect(padded.sorted(by: ImageSequence.numericOrder) == padded.sorted())
        #expect(ImageSequence.numericOrder("f01.png", "f1.png"))
        #expect(!ImageSequence.numericOrder("f1.png", "f01.png"))
        #expect(!ImageSequence.numericOrder("f1.png", "f1.png"))
        #expect(ImageSequence.numericOrder("f1", "f1.png"))
        // Digits that overflow any integer still compare by value.
        #expect(ImageSequence.numericOrder("x99999999999999999999999", "x100000000000000000000000"))
    }

    @Test("lists image files only: no hidden files, other extensions or folders")
    func listing() throws {
        try withScratchFolder("imagefiles") { folder in
            for name in ["frame10.png", "frame2.jpeg", "frame1.pgm", "frame3.PGM", ".frame0.pgm", "notes.txt"] {
                try F.write(pgm(4, 3), to: folder + "/" + name)  // content decides the decoder
            }
            try FileManager.default.createDirectory(
                atPath: folder + "/frame4.png", withIntermediateDirectories: false)
            let sequence = try ImageSequence(folder: folder)
            #expect(sequence.files == ["frame1.pgm", "frame2.jpeg", "frame3.PGM", "frame10.png"].map { folder + "/" + $0 })
            #expect(sequence.width == 4 && sequence.height == 3)
            for i in sequence.files.indices {
                #expect(try sequence.decode(i) == LumaImage(width: 4, height: 3, pixels: [UInt8](repeating: 9, count: 12)))
            }
        }
    }

    @Test("an empty or missing folder is refused")
    func emptyFolder() throws {
        try withScratchFolder("imagefiles") { folder in
            try F.write([1, 2, 3], to: folder + "/readme.txt")
            let empty = #expect(throws: ImageDecodingError.self) { try ImageSequence(folder: folder) }
            #expect(empty?.description == "\(folder): no image files in the folder (looked for .pgm, .png, .jpg and .jpeg names, hidden files excluded)")

            let missing = #expect(throws: ImageDecodingError.self) {
                try ImageSequence(folder: folder + "/nope")
            }
            #expect(missing?.source == folder + "/nope")
            #expect(missing?.reason.hasPrefix("cannot open the folder: ") == true)
        }
    }

    @Test("a frame of another size is refused when decoded, naming both files and sizes")
    func mixedSizes() throws {
        try withScratchFolder("imagefiles") { folder in
            try F.write(pgm(17, 9), to: folder + "/f1.pgm")
            try F.write(pgm(17, 9), to: folder + "/f2.pgm")
            try F.write(pgm(9, 17), to: folder + "/f3.pgm")
            let sequence = try ImageSequence(folder: folder)
            _ = try sequence.decode(0)
            _ = try sequence.decode(1)
            let error = #expect(throws: ImageDecodingError.self) { try sequence.decode(2) }
            #expect(error?.source == folder + "/f3.pgm")
            #expect(error?.reason == "image is 9x17, but the sequence is 17x9 (the size of its first file, \(folder)/f1.pgm); all images in a folder must have the same size")

            let outside = #expect(throws: ImageDecodingError.self) { try sequence.decode(3) }
            #expect(outside?.description == "\(folder): no frame 3: the folder has 3 image files")
        }
    }

    @Test("a damaged first file is refused up front, naming it")
    func damagedFirstFile() throws {
        try withScratchFolder("imagefiles") { folder in
            try F.write(Array("P5 4 4 255\n".utf8), to: folder + "/a1.pgm")
            try F.write(pgm(4, 4), to: folder + "/a2.pgm")
            let error = #expect(throws: ImageDecodingError.self) { try ImageSequence(folder: folder) }
            #expect(error?.description == "\(folder)/a1.pgm: truncated PGM: pixel data ends after 0 of 16 bytes; the file was cut short or is still being written")
        }
    }
}
