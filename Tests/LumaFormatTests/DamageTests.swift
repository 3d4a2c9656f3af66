import Foundation
import LumaFormat
import Testing
import LumaTestSupport

@Suite("Damaged and cut files: every complete chunk survives, every damaged byte is noticed")
struct DamageTests {
    static func makeRecording() throws -> (path: String, frames: [(ticks: Int64, pixels: [UInt8])], chunks: [ChunkEntry], size: Int) {
        let path = Scratch.path("base.luma")
        let frames = try writeRecording(path, width: 24, height: 16, count: 60, chunkDuration: 0.2)
        let reader = try RecordingReader(path: path)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
        return (path, frames, reader.chunks, size)
    }

    /// Frames that a reader of a damaged copy returns must each equal the original frame.
    static func checkNoWrongFrame(_ path: String, _ original: [(ticks: Int64, pixels: [UInt8])]) throws -> Int {
        let reader = try RecordingReader(path: path)
        let decoder = reader.makeDecoder()
        var good = 0
        for c in reader.chunks {
            guard let chunk = try? decoder.decode(c) else { continue }
            for k in 0..<chunk.count {
                let i = c.firstFrame + k
                #expect(i < original.count)
                guard i < original.count else { continue }
                #expect(chunk.frame(k) == original[i].pixels, "frame \(i) decoded wrong")
                #expect(chunk.timestamps[k] == original[i].ticks)
                good += 1
            }
        }
        return good
    }

    @Test("a file cut at every chunk boundary and at random bytes keeps every complete chunk")
    func cuts() throws {
        let (path, frames, chunks, size) = try Self.makeRecording()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        var cuts = Set<Int>()
        for c in chunks { for d in [-1, 0, 1, 17] { cuts.insert(Int(c.offset) + d) } }
        var g = SeededGenerator(seed: 3)
        for _ in 0..<60 { cuts.insert(Int(g.next() % UInt64(size))) }
        for cut in cuts.sorted() where cut > 0 && cut < size {
            let copy = Scratch.path("cut.luma")
            try bytes.prefix(cut).write(to: URL(fileURLWithPath: copy))
            // Frames of chunks that end before the cut must all be there.
            let complete = chunks.filter { $0.recordEnd <= UInt64(cut) }
            let expected = complete.reduce(0) { $0 + $1.frameCount }
            guard let reader = try? RecordingReader(path: copy) else {
                // Only a cut inside the header and reference records may make the file unopenable.
                #expect(cut < Int(chunks[0].offset), "cut at \(cut) made the file unreadable")
                continue
            }
            #expect(reader.readableFrameCount == expected, "cut at \(cut)")
            #expect(try Self.checkNoWrongFrame(copy, frames) == expected)
            if expected > 0 {
                let report = try RecordingRecovery.recover(copy)
                #expect(report.framesKept == expected)
                let recovered = try RecordingReader(path: copy)
                #expect(recovered.hasIndex)
                #expect(recovered.verify().isEmpty)
                #expect(try Self.checkNoWrongFrame(copy, frames) == expected)
            }
        }
    }

    @Test("any single flipped bit is detected: a frame is either right or reported damaged")
    func bitFlips() throws {
        let (path, frames, _, size) = try Self.makeRecording()
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var g = SeededGenerator(seed: 11)
        var positions = Array(0..<min(size, 256))  // the whole header and references
        for _ in 0..<300 { positions.append(Int(g.next() % UInt64(size))) }
        positions += Array((size - 300)..<size)  // index and trailer
        for position in positions {
            var copy = bytes
            copy[position] ^= UInt8(1 << Int(g.next() % 8))
            let file = Scratch.path("flip.luma")
            try Data(copy).write(to: URL(fileURLWithPath: file))
            guard let reader = try? RecordingReader(path: file) else { continue }  // refused: detected
            let good = try Self.checkNoWrongFrame(file, frames)
            let damage = reader.verify()
            let damagedFrames = damage.compactMap(\.frames).reduce(0) { $0 + $1.count }
            if good < frames.count {
                #expect(damagedFrames + good >= frames.count || damage.contains { $0.frames == nil },
                        "flip at byte \(position): \(frames.count - good) frames missing but not reported")
            }
        }
    }

    @Test("a damaged chunk is named with its frames, and the chunks after it still read")
    func damagedChunkIsNamed() throws {
        let (path, frames, chunks, _) = try Self.makeRecording()
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let target = chunks[3]
        bytes[Int(target.recordEnd) - 5] ^= 0x40  // inside its payload
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let reader = try RecordingReader(path: path)
        let damage = reader.verify()
        #expect(damage.count == 1)
        #expect(damage.first?.chunk == 3)
        #expect(damage.first?.frames == target.frames)
        #expect(try Self.checkNoWrongFrame(path, frames) == frames.count - target.frameCount)
    }

    @Test("a damaged chunk header in an unindexed file is skipped by the scan, with its frames named")
    func damagedHeaderInScan() throws {
        let path = Scratch.path("scan.luma")
        let frames = try writeRecording(path, width: 24, height: 16, count: 60, chunkDuration: 0.2, close: false)
        let chunks = try RecordingReader(path: path).chunks
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[Int(chunks[2].offset) + 20] ^= 1  // chunk 2's first-frame field
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let reader = try RecordingReader(path: path)
        #expect(reader.chunks.count == chunks.count - 1)
        #expect(reader.damage.count == 1)
        #expect(reader.damage.first?.frames == chunks[2].frames)
        #expect(reader.damage.first?.chunk == 2)
        #expect(try Self.checkNoWrongFrame(path, frames) == 60 - chunks[2].frameCount)
    }

    @Test("a file cut inside its second reference copy recovers to a file that opens with its index (found by fuzzing)")
    func cutInsideReferenceCopy() throws {
        let (path, _, chunks, _) = try Self.makeRecording()
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // The second reference copy ends where the first chunk starts: cut it 10 bytes short, so
        // the index that recovery appends would lie inside the copy's declared payload.
        let cut = Int(chunks[0].offset) - 10
        let copy = Scratch.path("cut-reference.luma")
        try Data(bytes.prefix(cut)).write(to: URL(fileURLWithPath: copy))
        #expect(try RecordingReader(path: copy).chunks.isEmpty)

        let output = Scratch.path("cut-reference-recovered.luma")
        let report = try RecordingRecovery.recover(copy, output: output)
        #expect(report.framesKept == 0)
        let recovered = try RecordingReader(path: output)
        #expect(recovered.hasIndex)
        #expect(recovered.chunks.isEmpty)
        #expect(recovered.damage.isEmpty)
        #expect(recovered.verify().isEmpty)
        // Only the header and the intact first copy are kept.
        #expect(report.fileSize < UInt64(cut))
        #expect(try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int == Int(report.fileSize))
    }
}
