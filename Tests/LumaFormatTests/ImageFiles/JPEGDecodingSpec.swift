import Foundation
import LumaFormat
import Testing
import LumaTestSupport

@Suite("JPEG: the Y channel as luma; unsupported and hostile files refused")
struct JPEGDecodingSpec {
    typealias F = ImageFileFixtures

    private func refusal(_ bytes: [UInt8], source: String = "test.jpg") -> ImageDecodingError? {
        #expect(throws: ImageDecodingError.self) {
            try ImageFileDecoder.decodeLuma(bytes, source: source)
        }
    }

    /// Offset of the first `FF <marker>` in `bytes`.
    private func offset(ofMarker marker: UInt8, in bytes: [UInt8]) -> Int {
        (0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == marker }!
    }

    /// `JPEGFixtures.baseline` with the frame header's height and width replaced.
    private func baseline(height: Int, width: Int) -> [UInt8] {
        var bytes = JPEGFixtures.baseline
        let sof = offset(ofMarker: 0xC0, in: bytes)
        bytes.replaceSubrange(
            (sof + 5)..<(sof + 9),
            with: [UInt8(height >> 8), UInt8(height & 255), UInt8(width >> 8), UInt8(width & 255)])
        return bytes
    }

    // MARK: - Decoding

    /// Mean within 1 level, each pixel within 3: libjpeg's and ffmpeg's IDCTs round differently.
    @Test(
        "JPEGs written by ffmpeg decode like ffmpeg decodes them",
        .enabled(if: F.hasFFmpeg, "needs ffmpeg: apt-get install ffmpeg (or scripts/install-dependencies)"),
        arguments: ["gray", "yuvj420p", "yuvj422p", "yuvj444p"])
    func ffmpegRoundTrip(pixelFormat: String) throws {
        try withScratchFolder("imagefiles") { folder in
            let path = folder + "/\(pixelFormat).jpg"
            try F.ffmpegTestImage(path, size: "33x21", pixelFormat: pixelFormat, extra: ["-q:v", "2"])
            let image = try ImageFileDecoder.decodeLuma(contentsOf: path)
            #expect(image.width == 33 && image.height == 21)
            let reference = try F.ffmpegRaw(of: path)
            #expect(abs(F.mean(image.pixels) - F.mean(reference)) <= 1)
            #expect(F.maximumDifference(image.pixels, reference) <= 3)
        }
    }

    @Test("progressive and restart-marker files decode exactly like the baseline file they equal")
    func progressiveAndRestarts() throws {
        let baseline = try ImageFileDecoder.decodeLuma(JPEGFixtures.baseline, source: "b.jpg")
        #expect(baseline.width == 32 && baseline.height == 24)
        #expect(try ImageFileDecoder.decodeLuma(JPEGFixtures.progressive, source: "p.jpg") == baseline)
        #expect(try ImageFileDecoder.decodeLuma(JPEGFixtures.restart, source: "r.jpg") == baseline)
    }

    @Test("an RGB (not YCbCr) JPEG is converted to gray by libjpeg", .enabled(if: F.hasFFmpeg, "needs ffmpeg: apt-get install ffmpeg (or scripts/install-dependencies)"))
    func rgbJPEG() throws {
        try withScratchFolder("imagefiles") { folder in
            try F.write(JPEGFixtures.rgb, to: folder + "/rgb.jpg")
            let image = try ImageFileDecoder.decodeLuma(contentsOf: folder + "/rgb.jpg")
            let reference = try F.ffmpegRaw(of: folder + "/rgb.jpg")
            #expect(image.width == 32 && image.height == 24)
            #expect(F.maximumDifference(image.pixels, reference) <= 2)
        }
    }

    @Test("bytes after the end-of-image marker are ignored, as cameras sometimes append data")
    func trailingData() throws {
        let baseline = try ImageFileDecoder.decodeLuma(JPEGFixtures.baseline, source: "b.jpg")
        let padded = JPEGFixtures.baseline + Array("trailing metadata".utf8) + [0xFF, 0xD8, 0xFF]
        #expect(try ImageFileDecoder.decodeLuma(padded, source: "t.jpg") == baseline)
    }

    @Test("arithmetic-coded and CMYK JPEGs are refused with what to do")
    func unsupported() {
        #expect(refusal(JPEGFixtures.arithmetic)?.reason == "unsupported JPEG: arithmetic-coded JPEG (SOF9) is not supported; re-encode it as an ordinary baseline or progressive JPEG, or a PNG")
        #expect(refusal(JPEGFixtures.cmyk)?.reason == "unsupported JPEG: CMYK/YCCK (4 color components) is not supported; convert it to an RGB or grayscale JPEG or a PNG first")
    }

    @Test("a JPEG with more than 100 scans is refused (each scan is a pass over the image)")
    func tooManyScans() {
        #expect(refusal(JPEGFixtures.manyScans)?.reason == "corrupt JPEG: more than 100 scans (a legitimate progressive JPEG has ~10)")
    }

    // MARK: - Hostile files

    @Test("a header claiming 16384x16384 over a 1 KB file is refused before allocating")
    func hugeHeader() {
        // Before allocating: the work done is far less than filling 256 MiB (processor time, which
        // a busy machine does not stretch).
        let (error, used) = ThreadCPUTime.measure { refusal(baseline(height: 16384, width: 16384), source: "huge.jpg") }
        #expect(used < .milliseconds(200), "\(used) of processor time")
        #expect(error?.source == "huge.jpg")
        #expect(error?.reason.hasPrefix("JPEG declares 16384x16384 pixels but holds only ") == true)
        #expect(error?.reason.hasSuffix(" bytes of image data, less than 1 bit per 8x8 block (at least 524288 needed); the file is truncated or corrupt") == true)
    }

    @Test("sizes outside 1...16384 are refused with the size")
    func sizeLimits() {
        #expect(refusal(baseline(height: 100, width: 20000))?.reason.hasPrefix("JPEG is 20000x100, over the 16384 limit; ") == true)
        #expect(refusal(baseline(height: 24, width: 0))?.reason == "JPEG declares a size of 0x24; width and height must each be 1...16384")
        #expect(refusal(baseline(height: 0, width: 32))?.reason == "unsupported JPEG: height 0 in the frame header (to be given later by a DNL marker) is not supported")
    }

    @Test("truncated files are refused at every cut point, saying where")
    func truncation() {
        let whole = JPEGFixtures.baseline
        for cut in 1..<whole.count {
            let error = refusal(Array(whole.prefix(cut)), source: "cut.jpg")
            #expect(error?.source == "cut.jpg")
            if cut >= 2 { #expect(error?.reason.hasPrefix("truncated JPEG") == true, "cut at \(cut)") }
        }
        let sos = offset(ofMarker: 0xDA, in: whole)
        #expect(refusal(Array(whole.prefix(whole.count - 1)))?.reason == "truncated JPEG: image data ends after \(whole.count - 1) bytes, inside the scan that starts at offset \(sos), with no end-of-image marker; the file was cut short or is still being written")
        #expect(refusal(Array(whole.prefix(100)))?.reason.hasPrefix("truncated JPEG: the DQT segment at offset ") == true)
    }

    @Test("scan data that stops short of the image before EOI is refused, not padded with gray")
    func shortScan() {
        let whole = JPEGFixtures.baseline
        // Keep the headers and the first 300 scan bytes, then EOI.
        let sos = offset(ofMarker: 0xDA, in: whole)
        let scanStart = sos + 2 + (Int(whole[sos + 2]) << 8 | Int(whole[sos + 3]))
        var bytes = Array(whole.prefix(scanStart + 300)) + [0xFF, 0xD9]
        if bytes[bytes.count - 3] == 0xFF { bytes.remove(at: bytes.count - 3) }
        #expect(refusal(bytes)?.reason == "corrupt JPEG: premature end of data segment")
    }

    @Test("every single-bit flip decodes to a sane image or is refused")
    func bitFlips() {
        let whole = JPEGFixtures.baseline
        var refused = 0
        for bit in 0..<(whole.count * 8) {
            do {
                let image = try ImageFileDecoder.decodeLuma(F.flippingBit(bit, of: whole), source: "flip.jpg")
                #expect(image.pixels.count == image.width * image.height)
                #expect((1...16384).contains(image.width) && (1...16384).contains(image.height))
            } catch {
                #expect(error.source == "flip.jpg")
                refused += 1
            }
        }
        #expect(refused > 0)
    }

    // MARK: - Real footage

    @Test(
        "real footage decodes at its size, each frame's mean luma within 1 level of ffmpeg's",
        .enabled(if: F.hasFFmpeg, "needs ffmpeg: apt-get install ffmpeg (or scripts/install-dependencies)"),
        .clipCorpus,
        arguments: [("otb-crossing/img", 360, 240), ("vot2015-ball1/imgs", 1280, 720)])
    func realFootage(sequenceFolder: String, width: Int, height: Int) throws {
        let folder = try ClipCorpus.require().appendingPathComponent(sequenceFolder).path
        let sequence = try ImageSequence(folder: folder)
        #expect(sequence.width == width && sequence.height == height)
        // ffmpeg's glob sorts by name; these names are zero-padded, so it is our order too.
        let reference = try F.ffmpegRaw(
            ["-f", "image2", "-pattern_type", "glob", "-i", folder + "/*.jpg"])
        let frameSize = width * height
        #expect(reference.count == sequence.files.count * frameSize)
        for i in sequence.files.indices {
            let image = try sequence.decode(i)
            let expected = reference[(i * frameSize)..<((i + 1) * frameSize)]
            let difference = abs(F.mean(image.pixels) - F.mean(expected))
            #expect(difference <= 1, "\(sequence.files[i]): mean differs by \(difference)")
        }
    }
}
