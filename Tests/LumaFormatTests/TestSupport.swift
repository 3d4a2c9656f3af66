import Foundation
import LumaFormat
import LumaTestSupport
import Testing

/// A fixed-camera-like sequence: a textured background, a moving square, and per-pixel noise.
struct SyntheticFrames {
    let width: Int
    let height: Int
    /// Noise makes most residuals non-zero (frames stored whole); without it only the moving square
    /// changes (masked frames).
    let noisy: Bool
    var generator: SeededGenerator

    init(width: Int, height: Int, seed: UInt64 = 1, noisy: Bool = true) {
        self.width = width
        self.height = height
        self.noisy = noisy
        generator = SeededGenerator(seed: seed)
    }

    mutating func frame(_ index: Int) -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height)
        let side = max(1, min(width, height) / 4)
        let sx = (index * 3) % max(1, width - side + 1), sy = (index * 2) % max(1, height - side + 1)
        for y in 0..<height {
            for x in 0..<width {
                var v = 80 + ((x * 7 + y * 13) % 64)
                if x >= sx && x < sx + side && y >= sy && y < sy + side { v = 220 }
                if noisy { v += Int(generator.next() % 5) - 2 }
                pixels[y * width + x] = UInt8(clamping: v)
            }
        }
        return pixels
    }
}

/// Writes `count` synthetic frames with the given timestamps and returns what was written.
@discardableResult
func writeRecording(_ path: String, width: Int, height: Int, count: Int, timescale: Int64 = 90000,
                    ticks: (Int) -> Int64 = { Int64($0) * 3000 }, chunkDuration: Double = 1.0, close: Bool = true,
                    seed: UInt64 = 1, noisy: Bool = true, formatVersion: Int = RecordingHeader.formatVersion) throws -> [(ticks: Int64, pixels: [UInt8])] {
    var frames = SyntheticFrames(width: width, height: height, seed: seed, noisy: noisy)
    let header = RecordingHeader(width: width, height: height, timescale: timescale, rateNumerator: 30, metadata: ["test": "yes"])
    var options = RecordingWriterOptions.fixedDuration(chunkDuration)
    options.formatVersion = formatVersion
    let writer = try RecordingWriter(path: path, header: header, options: options, overwrite: true)
    var written: [(Int64, [UInt8])] = []
    for i in 0..<count {
        let f = frames.frame(i)
        try writer.append(f, ticks: ticks(i))
        written.append((ticks(i), f))
    }
    if close { try writer.close() } else { try writer.flush() }
    return written
}

/// The `LumaFormatError` a body throws, or `nil` if it succeeds or throws something else.
func formatError(_ body: () throws -> Void) -> LumaFormatError? {
    do { try body() } catch { return error as? LumaFormatError }
    return nil
}

/// The bytes of the file at `path`.
func fileBytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

/// Replaces the file at `path` with `bytes`.
func writeBytes(_ bytes: [UInt8], to path: String) throws { try Data(bytes).write(to: URL(fileURLWithPath: path)) }

/// Little-endian bytes of an integer, for crafting records.
func littleEndian<T: FixedWidthInteger>(_ v: T) -> [UInt8] { withUnsafeBytes(of: v.littleEndian) { Array($0) } }

/// Frames that decode correctly (equal to `original`) from the recording at `path`; a frame that
/// decodes to anything else fails the test.
func correctFrames(_ path: String, _ original: [(ticks: Int64, pixels: [UInt8])]) throws -> Set<Int> {
    var good = Set<Int>()
    for frame in try decodedFrames(try RecordingReader(path: path), skippingDamaged: true) {
        guard frame.index < original.count, frame.pixels == original[frame.index].pixels, frame.ticks == original[frame.index].ticks else {
            Issue.record("frame \(frame.index) of \(path) decoded wrong")
            continue
        }
        good.insert(frame.index)
    }
    return good
}
