import Foundation
import LumaFormat
import LumaTestSupport

/// Test support for the image-file specs: files, ffmpeg as the reference decoder, a
/// PNG writer that can produce every color type, bit depth and interlacing, and mutations.
enum ImageFileFixtures {
    // MARK: - Files

    static func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    static func read(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    // MARK: - ffmpeg, the reference

    static var hasFFmpeg: Bool { ExternalTool.ffmpeg.isInstalled }

    /// Runs ffmpeg quietly; throws if it fails.
    static func ffmpeg(_ arguments: [String]) throws {
        let run = try ProgramRun.run(.ffmpeg, ["-nostdin", "-v", "error", "-y"] + arguments)
        guard run.status == 0 else {
            throw FixtureError("ffmpeg \(arguments.joined(separator: " ")) failed: \(run.stderr)")
        }
    }

    /// One test-pattern frame written by ffmpeg's own encoder for `pixelFormat` into `file`.
    static func ffmpegTestImage(
        _ file: String, size: String = "17x9", pixelFormat: String, extra: [String] = []
    ) throws {
        try ffmpeg(
            ["-f", "lavfi", "-i", "testsrc=size=\(size)", "-frames:v", "1", "-pix_fmt", pixelFormat]
                + extra + [file])
    }

    /// ffmpeg's decode of `input` as raw frames in `pixelFormat` (default 8-bit gray), all frames
    /// concatenated. `input` may carry demuxer options before it.
    static func ffmpegRaw(_ input: [String], pixelFormat: String = "gray") throws -> [UInt8] {
        try withScratchFolder("imagefiles") { folder in
            let output = folder + "/out.raw"
            try ffmpeg(input + ["-pix_fmt", pixelFormat, "-f", "rawvideo", output])
            return try read(output)
        }
    }

    static func ffmpegRaw(of file: String, pixelFormat: String = "gray") throws -> [UInt8] {
        try ffmpegRaw(["-i", file], pixelFormat: pixelFormat)
    }

    struct FixtureError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    // MARK: - Reference luma and comparisons

    /// The documented conversion: BT.601 full-range weights in 8-bit fixed point.
    static func luma(_ r: Int, _ g: Int, _ b: Int) -> UInt8 {
        UInt8((77 * r + 150 * g + 29 * b + 128) >> 8)
    }

    static func maximumDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    static func mean(_ pixels: some Collection<UInt8>) -> Double {
        var sum = 0
        for p in pixels { sum += Int(p) }
        return Double(sum) / Double(max(1, pixels.count))
    }

    // MARK: - Mutations

    static func flippingBit(_ bit: Int, of bytes: [UInt8]) -> [UInt8] {
        var copy = bytes
        copy[bit / 8] ^= UInt8(1 << (bit % 8))
        return copy
    }
}

/// Writes PNGs of any color type, bit depth and interlacing, with stored (uncompressed) deflate
/// blocks so it needs no compressor. Samples are given at the PNG's bit depth, channels
/// interleaved, rows top first.
struct TestPNG {
    var width: Int
    var height: Int
    var bitDepth: Int
    /// 0 gray, 2 RGB, 3 palette, 4 gray + alpha, 6 RGBA.
    var colorType: Int
    var interlaced = false
    var palette: [(r: UInt8, g: UInt8, b: UInt8)] = []
    /// Raw tRNS chunk data, if any.
    var transparency: [UInt8]?
    var samples: [Int]

    var channels: Int { [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType]! }

    /// A deterministic pattern using the whole sample range (palette indices stay in range).
    static func pattern(
        width: Int, height: Int, bitDepth: Int, colorType: Int, interlaced: Bool = false,
        seed: UInt64 = 1
    ) -> TestPNG {
        var rng = SeededGenerator(seed: seed)
        var png = TestPNG(
            width: width, height: height, bitDepth: bitDepth, colorType: colorType,
            interlaced: interlaced, samples: [])
        let maxSample = colorType == 3 ? (1 << bitDepth) - 1 : (1 << bitDepth) - 1
        if colorType == 3 {
            png.palette = (0...maxSample).map { _ in
                (UInt8.random(in: 0...255, using: &rng), UInt8.random(in: 0...255, using: &rng),
                 UInt8.random(in: 0...255, using: &rng))
            }
            png.transparency = [0, 128]  // tRNS: must be ignored, like all alpha
        }
        png.samples = (0..<(width * height * png.channels)).map { _ in
            Int.random(in: 0...maxSample, using: &rng)
        }
        return png
    }

    /// The luma the decoder must produce: gray scaled to 8 bits (16-bit: high byte), palette and
    /// RGB through the documented weights, alpha ignored.
    var expectedLuma: [UInt8] {
        (0..<(width * height)).map { i in
            let s = Array(samples[(i * channels)..<((i + 1) * channels)])
            let to8: (Int) -> Int = { v in
                self.bitDepth == 16 ? v >> 8 : v * 255 / ((1 << self.bitDepth) - 1)
            }
            switch colorType {
            case 0, 4: return UInt8(to8(s[0]))
            case 3:
                let p = palette[s[0]]
                return ImageFileFixtures.luma(Int(p.r), Int(p.g), Int(p.b))
            default: return ImageFileFixtures.luma(to8(s[0]), to8(s[1]), to8(s[2]))
            }
        }
    }

    func encoded() -> [UInt8] {
        var ihdr = TestPNG.be32(width) + TestPNG.be32(height)
        ihdr += [UInt8(bitDepth), UInt8(colorType), 0, 0, interlaced ? 1 : 0]
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes += TestPNG.chunk("IHDR", ihdr)
        if colorType == 3 {
            bytes += TestPNG.chunk("PLTE", palette.flatMap { [$0.r, $0.g, $0.b] })
        }
        if let transparency { bytes += TestPNG.chunk("tRNS", transparency) }
        bytes += TestPNG.chunk("IDAT", TestPNG.zlibStored(filteredRows()))
        bytes += TestPNG.chunk("IEND", [])
        return bytes
    }

    /// Rows with filter byte 0, pass by pass when interlaced (empty passes have no rows).
    func filteredRows() -> [UInt8] {
        let passes: [(x0: Int, y0: Int, dx: Int, dy: Int)] =
            interlaced
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2),
               (0, 1, 1, 2)]
            : [(0, 0, 1, 1)]
        var out: [UInt8] = []
        for pass in passes {
            let xs = Array(stride(from: pass.x0, to: width, by: pass.dx))
            let ys = Array(stride(from: pass.y0, to: height, by: pass.dy))
            if xs.isEmpty || ys.isEmpty { continue }
            for y in ys {
                out.append(0)
                var bits: [Int] = []
                for x in xs {
                    for c in 0..<channels { bits.append(samples[(y * width + x) * channels + c]) }
                }
                out += pack(bits)
            }
        }
        return out
    }

    private func pack(_ values: [Int]) -> [UInt8] {
        if bitDepth == 16 { return values.flatMap { [UInt8($0 >> 8), UInt8($0 & 255)] } }
        if bitDepth == 8 { return values.map { UInt8($0) } }
        var out: [UInt8] = []
        var current = 0
        var used = 0
        for v in values {
            current = current << bitDepth | v
            used += bitDepth
            if used == 8 {
                out.append(UInt8(current))
                current = 0
                used = 0
            }
        }
        if used > 0 { out.append(UInt8(current << (8 - used))) }
        return out
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(data.count) + body + be32(Int(crc32(body)))
    }

    static func be32(_ v: Int) -> [UInt8] {
        [UInt8(truncatingIfNeeded: v >> 24), UInt8(truncatingIfNeeded: v >> 16),
         UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)]
    }

    /// A zlib stream of stored blocks (no compression).
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let n = min(65535, data.count - offset)
            let final: UInt8 = offset + n == data.count ? 1 : 0
            out += [final, UInt8(n & 255), UInt8(n >> 8), UInt8(~n & 255), UInt8((~n >> 8) & 255)]
            out += data[offset..<(offset + n)]
            offset += n
        } while offset < data.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return out + be32(Int(b << 16 | a))
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
