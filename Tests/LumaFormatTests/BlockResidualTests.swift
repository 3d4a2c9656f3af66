@testable import LumaFormat
import Testing
import LumaTestSupport

@Suite("Version 3: blocks that choose their predictor, residuals in nibbles", .serialized)
struct BlockResidualTests {
    /// Frames that exercise every mode: a textured background, a square moving over it, a region
    /// that brightens as a whole, and noise in one half.
    static func frames(width: Int, height: Int, count: Int, seed: UInt64) -> [[UInt8]] {
        var g = SeededGenerator(seed: seed)
        return (0..<count).map { i in
            var f = [UInt8](repeating: 0, count: width * height)
            for y in 0..<height {
                for x in 0..<width {
                    var v = 60 + (x * 5 + y * 11) % 90
                    if (x + i * 3) % max(1, width) < width / 3 && y > height / 2 { v = 230 }
                    if y < height / 3 { v += i * 2 }
                    if x >= width / 2 { v += Int(g.next() % 9) - 4 }
                    if g.next() % 97 == 0 { v = Int(g.next() % 256) }
                    f[y * width + x] = UInt8(clamping: v)
                }
            }
            return f
        }
    }

    @Test("every block mode round-trips on any size, with and without a predictor, on both paths",
          arguments: [(1, 1), (2, 2), (15, 17), (16, 16), (33, 7), (40, 9), (46, 18), (64, 48), (130, 31), (127, 40), (478, 20)])
    func roundTrip(size: (width: Int, height: Int)) {
        let (w, h) = size
        let frames = Self.frames(width: w, height: h, count: 3, seed: UInt64(w * 1000 + h))
        let zeros = [UInt8](repeating: 0, count: w * h)
        var written: [[UInt8]] = []
        for portable in [false, true] {
            BlockResidual.usePortablePath(portable)
            defer { BlockResidual.usePortablePath(false) }
            var bytes: [UInt8] = []
            for (i, current) in frames.enumerated() {
                let predictor = i == 0 ? zeros : frames[i - 1]
                var modes = [UInt8](repeating: 0xEE, count: BlockResidual.modeCount(width: w, height: h))
                var low = [UInt8](repeating: 0xEE, count: BlockResidual.lowSize(w * h))
                var high = [UInt8](repeating: 0xEE, count: w * h)
                BlockResidual.encode(current, predictor: predictor, width: w, height: h, modes: &modes, low: &low, high: &high)
                #expect(modes.allSatisfy { $0 < 3 })
                #expect(high.allSatisfy { $0 < 16 })
                var out = [UInt8](repeating: 0x55, count: w * h)
                #expect(BlockResidual.decode(modes: modes, low: low, high: high, predictor: predictor, width: w, height: h, into: &out))
                #expect(out == current, "frame \(i) of \(w)x\(h), portable path \(portable)")
                bytes += modes + low + high
            }
            written.append(bytes)
        }
        #expect(written[0] == written[1], "the SSSE3 and portable paths wrote different bytes for \(w)x\(h)")
    }

    @Test("a mode byte that is not a mode is refused, and nothing is written")
    func unknownMode() {
        let (w, h) = (32, 16)
        let current = Self.frames(width: w, height: h, count: 1, seed: 3)[0]
        let zeros = [UInt8](repeating: 0, count: w * h)
        var modes = [UInt8](repeating: 0, count: 2), low = [UInt8](repeating: 0, count: w * h / 2), high = [UInt8](repeating: 0, count: w * h)
        BlockResidual.encode(current, predictor: zeros, width: w, height: h, modes: &modes, low: &low, high: &high)
        modes[1] = 3
        var out = [UInt8](repeating: 0x55, count: w * h)
        #expect(!BlockResidual.decode(modes: modes, low: low, high: high, predictor: zeros, width: w, height: h, into: &out))
        #expect(out.allSatisfy { $0 == 0x55 })
    }

    @Test("versions 1, 2 and 3 hold the same frames and the same frames digest; version 3 is the default",
          arguments: [(17, 9, true), (64, 36, true), (64, 36, false), (321, 200, true)])
    func versionsAgree(size: (width: Int, height: Int, noisy: Bool)) throws {
        var digests: [[UInt8]] = []
        var frames: [[[UInt8]]] = []
        for version in 1...3 {
            let path = Scratch.path("v\(version).luma")
            let written = try writeRecording(path, width: size.width, height: size.height, count: 70, chunkDuration: 0.5,
                                             noisy: size.noisy, formatVersion: version)
            let reader = try RecordingReader(path: path)
            #expect(reader.formatVersion == version)
            let read = try decodedFrames(reader)
            #expect(read.map(\.pixels) == written.map(\.pixels))
            #expect(reader.verify().isEmpty)
            digests.append(try reader.framesDigest())
            frames.append(read.map(\.pixels))
        }
        #expect(Set(digests).count == 1)
        #expect(RecordingHeader.formatVersion == 3)
    }
}
