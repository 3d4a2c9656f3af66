import Foundation
import LumaFormat
import Testing
import LumaTestSupport

@Suite("Versions 2 and 3: no single damaged region loses more than the chunk it hits")
struct RedundancyTests {
    /// 60 frames of 24×16 in chunks of 6: ten chunks, each a few hundred bytes.
    static func makeRecording(_ name: String) throws -> (path: String, frames: [(ticks: Int64, pixels: [UInt8])], chunks: [ChunkEntry], bytes: [UInt8]) {
        let path = Scratch.path(name)
        let frames = try writeRecording(path, width: 24, height: 16, count: 60, chunkDuration: 0.2)
        let reader = try RecordingReader(path: path)
        #expect(reader.formatVersion == RecordingHeader.formatVersion && reader.formatVersion >= 2)
        return (path, frames, reader.chunks, try fileBytes(path))
    }

    /// Bytes of the header record at the start of `bytes`.
    static func headerLength(_ bytes: [UInt8]) -> Int { 16 + (Int(bytes[4]) | Int(bytes[5]) << 8) + 4 }

    @Test("a flipped bit anywhere in the file header loses no frame, and recover restores the header byte for byte")
    func headerBitFlip() throws {
        let (path, frames, _, bytes) = try Self.makeRecording("header.luma")
        for position in 0..<Self.headerLength(bytes) {
            var copy = bytes
            copy[position] ^= UInt8(1 << (position % 8))
            let file = Scratch.path("header-flip.luma")
            try writeBytes(copy, to: file)
            let reader = try RecordingReader(path: file)
            #expect(reader.header.width == 24 && reader.header.metadata == ["test": "yes"], "flip at byte \(position)")
            #expect(reader.damage.contains { if case .headerReadFromCopy = $0.cause { true } else { false } }, "flip at byte \(position)")
            #expect(try correctFrames(file, frames).count == 60, "flip at byte \(position)")
            if position % 16 == 0 {
                let report = try RecordingRecovery.recover(file)
                #expect(report.restoredHeader)
                #expect(try fileBytes(file) == bytes, "recover did not restore the file after a flip at byte \(position)")
            }
        }
        _ = path
    }

    @Test("zeroing the first reference copy loses no frame; zeroing the header, that copy and half the first chunk loses only that chunk")
    func firstReferenceRegionZeroed() throws {
        let (_, frames, chunks, bytes) = try Self.makeRecording("reference.luma")
        let first = chunks[0]
        let regions = [Self.headerLength(bytes)..<Int(first.offset),
                       0..<Int(first.offset + (first.recordEnd - first.offset) / 2)]
        for (n, region) in regions.enumerated() {
            var copy = bytes
            for i in region { copy[i] = 0 }
            let file = Scratch.path("reference-zeroed.luma")
            try writeBytes(copy, to: file)
            let good = try correctFrames(file, frames)
            let expected = n == 0 ? 60 : 60 - first.frameCount
            #expect(good.count == expected, "zeroed bytes \(region)")
            let report = try RecordingRecovery.recover(file)
            #expect(report.framesKept == expected)
            #expect(try correctFrames(file, frames).count == expected)
            // What is left out shows as a gap in the index, and nothing else is damaged.
            #expect(try RecordingReader(path: file).verify().map(\.frames) == (n == 0 ? [] : [first.frames]))
        }
    }

    @Test("a byte changed anywhere (sampled) never loses frames of more than one chunk, and never yields a wrong frame")
    func flipsLoseAtMostOneChunk() throws {
        let (_, frames, chunks, bytes) = try Self.makeRecording("flips.luma")
        var g = SeededGenerator(seed: 15)
        var positions = Array(0..<Int(chunks[1].offset))  // header, first reference, chunk 0, the copies after it
        for _ in 0..<250 { positions.append(Int(g.next() % UInt64(bytes.count))) }
        positions += Array((bytes.count - 120)..<bytes.count)  // end of the index, and the trailer
        for position in positions {
            var copy = bytes
            copy[position] ^= UInt8(1 + g.next() % 255)
            let file = Scratch.path("flip.luma")
            try writeBytes(copy, to: file)
            let good: Set<Int>
            do { good = try correctFrames(file, frames) } catch {
                Issue.record("a changed byte at \(position) made the file unreadable: \(error)")
                continue
            }
            let lost = Set(0..<60).subtracting(good)
            #expect(lost.isEmpty || chunks.contains { Set($0.frames).isSuperset(of: lost) },
                    "a changed byte at \(position) lost frames \(lost.sorted()) across chunks")
        }
    }
}
