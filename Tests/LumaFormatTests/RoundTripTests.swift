import Foundation
@testable import LumaFormat
import Testing
import LumaTestSupport

@Suite("Recording round trip: what is written is what is read, byte for byte")
struct RoundTripTests {
    @Test("odd frame sizes keep every byte and timestamp, busy (whole) and quiet (masked) frames alike",
          arguments: [(1, 1, 40), (17, 9, 300), (1921, 1081, 3)], [true, false])
    func oddSizes(size: (width: Int, height: Int, count: Int), noisy: Bool) throws {
        let (width, height, count) = size
        let path = Scratch.path("odd.luma")
        let written = try writeRecording(path, width: width, height: height, count: count, noisy: noisy)
        let reader = try RecordingReader(path: path)
        #expect(reader.header.width == width && reader.header.height == height)
        #expect(reader.hasIndex)
        #expect(reader.frameCount == count)
        let read = try decodedFrames(reader)
        #expect(read.count == count)
        for (w, r) in zip(written, read) {
            #expect(w.ticks == r.ticks)
            #expect(w.pixels == r.pixels)
        }
        #expect(reader.verify().isEmpty)
    }

    @Test("a single frame and ten thousand frames")
    func frameCounts() throws {
        for count in [1, 10_000] {
            let path = Scratch.path("count.luma")
            let written = try writeRecording(path, width: 17, height: 9, count: count, chunkDuration: 0.5)
            let reader = try RecordingReader(path: path)
            #expect(reader.frameCount == count)
            let read = try decodedFrames(reader)
            #expect(read.map(\.pixels) == written.map(\.pixels))
            #expect(read.map(\.ticks) == written.map(\.ticks))
        }
    }

    @Test("variable timestamps are kept exactly, and seeking by time finds the right frame")
    func variableTimestamps() throws {
        var g = SeededGenerator(seed: 7)
        var ticks: [Int64] = []
        var t: Int64 = 1_234
        for _ in 0..<200 {
            ticks.append(t)
            t += Int64(1 + g.next() % 6000)  // 0.01 ms ... 67 ms at 90 kHz
        }
        let path = Scratch.path("vfr.luma")
        try writeRecording(path, width: 32, height: 24, count: ticks.count, ticks: { ticks[$0] }, chunkDuration: 0.25)
        let reader = try RecordingReader(path: path)
        #expect(try decodedFrames(reader).map(\.ticks) == ticks)
        for i in stride(from: 0, to: ticks.count, by: 17) {
            #expect(try reader.frameIndex(atOrAfter: ticks[i]) == i)
            #expect(try reader.frameIndex(atOrAfter: ticks[i] - 1) == i)
        }
        #expect(try reader.frameIndex(atOrAfter: ticks.last! + 1) == nil)
    }

    @Test("one frame is read by decoding only the chunk that holds it")
    func randomAccess() throws {
        let path = Scratch.path("seek.luma")
        let written = try writeRecording(path, width: 40, height: 30, count: 120, chunkDuration: 0.2)
        let reader = try RecordingReader(path: path)
        #expect(reader.chunks.count == 20)
        let decoder = reader.makeDecoder()
        for i in [0, 5, 6, 59, 119] {
            let f = try decoder.frame(at: i)
            #expect(f.pixels == written[i].pixels)
            #expect(f.ticks == written[i].ticks)
        }
        #expect(throws: LumaFormatError.frameOutOfRange(path: path, frame: 120, frameCount: 120)) { try decoder.frame(at: 120) }
    }

    @Test("chunks start with a frame coded against the reference frame, not an intra frame")
    func chunkStartsUseTheReference() throws {
        let path = Scratch.path("ref.luma")
        try writeRecording(path, width: 64, height: 48, count: 90, chunkDuration: 0.2)
        let reader = try RecordingReader(path: path)
        let decoder = reader.makeDecoder()
        for c in reader.chunks {
            let chunk = try decoder.decode(c)
            #expect(chunk.codings.first == .deltaFromReference)
            #expect(chunk.codings.dropFirst().allSatisfy { $0 == .deltaFromPrevious })
        }
    }

    @Test("the frames digest is the same from the index and from decoding every frame")
    func digest() throws {
        let closed = Scratch.path("closed.luma")
        let open = Scratch.path("open.luma")
        try writeRecording(closed, width: 20, height: 10, count: 50)
        try writeRecording(open, width: 20, height: 10, count: 50, close: false)
        let a = try RecordingReader(path: closed), b = try RecordingReader(path: open)
        #expect(a.hasIndex && !b.hasIndex)
        #expect(try a.framesDigest() == b.framesDigest())
    }

    @Test("the frames digest hashed on a second thread is the one hashed in order on this thread")
    func backgroundDigest() {
        var inOrder = FramesDigest()
        let background = BackgroundFramesDigest(frameSize: 64, depth: 2)
        for i in 0..<200 {
            // Every frame differs, and the buffer is reused at once: a frame hashed late or from a
            // recycled buffer would change the digest.
            let frame = (0..<64).map { UInt8(truncatingIfNeeded: $0 * 7 + i * 13) }
            frame.withUnsafeBufferPointer {
                inOrder.add(ticks: Int64(i) * 3000, pixels: $0)
                background.add(ticks: Int64(i) * 3000, pixels: $0)
            }
        }
        #expect(background.finalize() == inOrder.finalize())
    }

    @Test("the writer refuses frames of the wrong size and timestamps that do not increase")
    func writerRefusesBadFrames() throws {
        let path = Scratch.path("bad.luma")
        let writer = try RecordingWriter(path: path, header: RecordingHeader(width: 4, height: 4, timescale: 1000, rateNumerator: 10))
        try writer.append([UInt8](repeating: 1, count: 16), ticks: 100)
        #expect(throws: LumaFormatError.invalidFrame(path: path, frame: 1, problem: .timestampNotIncreasing(ticks: 100, previous: 100))) {
            try writer.append([UInt8](repeating: 1, count: 16), ticks: 100)
        }
        #expect(throws: LumaFormatError.invalidFrame(path: path, frame: 1, problem: .size(bytes: 15, expected: 16, width: 4, height: 4))) {
            try writer.append([UInt8](repeating: 1, count: 15), ticks: 200)
        }
        #expect(throws: LumaFormatError.output(.exists(path: path))) {
            _ = try RecordingWriter(path: path, header: RecordingHeader(width: 4, height: 4, timescale: 1000, rateNumerator: 10))
        }
    }
}
