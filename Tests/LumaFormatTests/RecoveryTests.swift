import Foundation
import LumaFormat
import Testing
import LumaTestSupport

@Suite("Recovery never keeps less than the recording holds, and never writes over what it reads")
struct RecoveryTests {
    /// 120 frames in chunks of 6 (0.2 s at 30 fps).
    static func makeRecording(_ name: String, version: Int = RecordingHeader.formatVersion) throws
        -> (path: String, frames: [(ticks: Int64, pixels: [UInt8])], chunks: [ChunkEntry]) {
        let path = Scratch.path(name)
        let frames = try writeRecording(path, width: 32, height: 24, count: 120, chunkDuration: 0.2, formatVersion: version)
        return (path, frames, try RecordingReader(path: path).chunks)
    }

    /// A trailer with a valid CRC pointing at `indexOffset`.
    static func trailer(indexOffset: UInt64) -> [UInt8] {
        var t = Array("LTRL".utf8) + littleEndian(indexOffset)
        t += littleEndian(CraftedBytes.crc32(t))
        return t + Array("LEND".utf8)
    }

    /// Where the trailer of an intact file says the index starts.
    static func indexOffset(_ bytes: [UInt8]) -> Int {
        bytes[(bytes.count - 16)..<(bytes.count - 8)].reversed().reduce(0) { $0 << 8 | Int($1) }
    }

    /// Recovers in place and checks the file then opens with its index and every original frame.
    static func expectRecoversEverything(_ path: String, _ frames: [(ticks: Int64, pixels: [UInt8])]) throws {
        let report = try RecordingRecovery.recover(path)
        #expect(report.framesKept == frames.count)
        #expect(report.framesBefore <= report.framesKept)
        let reader = try RecordingReader(path: path)
        #expect(reader.hasIndex)
        #expect(reader.verify().isEmpty, "\(reader.verify())")
        #expect(try correctFrames(path, frames).count == frames.count)
    }

    /// Makes a recording, damages its bytes with `damage` (given its chunks) so that every chunk
    /// stays intact, and checks the reader still finds all 120 frames and recover keeps them all.
    static func expectDamageLosesNothing(_ name: String, version: Int,
                                         damage: (inout [UInt8], [ChunkEntry]) -> Void) throws {
        let (path, frames, chunks) = try makeRecording(name, version: version)
        var bytes = try fileBytes(path)
        damage(&bytes, chunks)
        try writeBytes(bytes, to: path)
        #expect(try RecordingReader(path: path).readableFrameCount == 120)
        try expectRecoversEverything(path, frames)
    }

    @Test("-o naming the recording itself is refused, directly, through a symlink and through a hard link; the file is untouched",
          arguments: ["same", "symlink", "hardlink"])
    func outputIsInput(_ how: String) throws {
        let (path, frames, _) = try Self.makeRecording("self.luma")
        let before = try fileBytes(path)
        var output = path
        if how == "symlink" {
            output = Scratch.path("link.luma")
            try FileManager.default.createSymbolicLink(atPath: output, withDestinationPath: path)
        } else if how == "hardlink" {
            output = Scratch.path("hard.luma")
            try FileManager.default.linkItem(atPath: path, toPath: output)
        }
        #expect(throws: LumaFormatError.outputIsInput(path: path, output: output)) {
            _ = try RecordingRecovery.recover(path, output: output, overwrite: true)
        }
        #expect(try fileBytes(path) == before)
        #expect(try correctFrames(path, frames).count == 120)
    }

    @Test("an existing output needs overwrite, and is then replaced by a complete recovered file")
    func existingOutput() throws {
        let (path, frames, _) = try Self.makeRecording("source.luma")
        let output = Scratch.path("existing.luma")
        try writeBytes(Array("keep me".utf8), to: output)
        #expect(throws: LumaFormatError.outputExists(path: output)) { _ = try RecordingRecovery.recover(path, output: output) }
        #expect(try fileBytes(output) == Array("keep me".utf8))
        let report = try RecordingRecovery.recover(path, output: output, overwrite: true)
        #expect(report.framesKept == 120)
        #expect(try fileBytes(output) == fileBytes(path))  // an intact recording recovers to itself
        #expect(try correctFrames(output, frames).count == 120)
    }

    @Test("a trailer with a valid CRC but a wrong pointer: recover keeps all 120 frames", arguments: [1, 2], [0, 100, 7])
    func trailerWithWrongPointer(version: Int, pointer: Int) throws {
        try Self.expectDamageLosesNothing("wrong-pointer.luma", version: version) { bytes, chunks in
            let wrong = pointer == 7 ? Int(chunks[2].offset) : pointer  // 7: the offset of a chunk
            bytes.replaceSubrange((bytes.count - 20)..., with: Self.trailer(indexOffset: UInt64(wrong)))
        }
    }

    @Test("an index record moved by bytes inserted before it (the trailer still points at the old place): all frames kept",
          arguments: [1, 2])
    func shiftedIndexRecord(version: Int) throws {
        try Self.expectDamageLosesNothing("shifted-record.luma", version: version) { bytes, _ in
            bytes.insert(contentsOf: [UInt8](repeating: 0xA5, count: 13), at: Self.indexOffset(bytes))
        }
    }

    @Test("an intact index whose chunk offsets are all shifted is not believed: the reader scans, recover keeps every frame",
          arguments: [1, 2])
    func shiftedIndexEntries(version: Int) throws {
        try Self.expectDamageLosesNothing("shifted-entries.luma", version: version) { bytes, chunks in
            let index = Self.indexOffset(bytes)
            let fieldsLength = Int(bytes[index + 4]) | Int(bytes[index + 5]) << 8 | Int(bytes[index + 6]) << 16
            // Entries follow the frame count (8), chunk count (4) and digest (32): 44 bytes each, offset first.
            for i in 0..<chunks.count {
                let at = index + 16 + 44 + i * 44
                bytes.replaceSubrange(at..<at + 8, with: littleEndian(chunks[i].offset + 9))
            }
            let crcAt = index + 16 + fieldsLength
            bytes.replaceSubrange(crcAt..<crcAt + 4, with: littleEndian(CraftedBytes.crc32(Array(bytes[index..<crcAt]))))
        }
    }

    @Test("a version-1 file with both reference copies zeroed: recover refuses, leaves the file as it was, and says why")
    func bothReferencesLost() throws {
        let (path, _, chunks) = try Self.makeRecording("no-reference.luma", version: 1)
        var bytes = try fileBytes(path)
        let headerEnd = 16 + (Int(bytes[4]) | Int(bytes[5]) << 8) + 4
        for i in headerEnd..<Int(chunks[0].offset) { bytes[i] = 0 }
        try writeBytes(bytes, to: path)
        let error = formatError { _ = try RecordingRecovery.recover(path) }
        guard case .recoveryRefused(_, .referenceLost(let needing, total: 120, intactChunks: 20)) = error else {
            Issue.record("expected recovery refused for the lost reference, with the 120 frames of 20 intact chunks, got \(String(describing: error))")
            return
        }
        #expect((1..<120).contains(needing), "some frames, not all, are coded against the reference: \(needing)")
        #expect(try fileBytes(path) == bytes)
        let out = Scratch.path("out.luma")
        #expect(throws: LumaFormatError.self) { _ = try RecordingRecovery.recover(path, output: out) }
        // No temporary file of this recording is left behind (the folder is shared with tests running
        // at the same time, whose own temporary files may be there for a moment).
        let folder = (path as NSString).deletingLastPathComponent
        let names = [path, out].map { ($0 as NSString).lastPathComponent }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { file in
            file.hasSuffix(".partial") && names.contains { file.contains($0) }
        }.isEmpty)
    }

    @Test("recovering an intact file in place changes nothing and says so", arguments: [1, 2])
    func intact(version: Int) throws {
        let (path, _, _) = try Self.makeRecording("intact.luma", version: version)
        let before = try fileBytes(path)
        let report = try RecordingRecovery.recover(path)
        #expect(report.wasIntact)
        #expect(try fileBytes(path) == before)
    }

    @Test("in place through a symlink: the recording is recovered, the symlink stays a symlink")
    func inPlaceThroughSymlink() throws {
        let path = Scratch.path("unclosed.luma")
        let frames = try writeRecording(path, width: 32, height: 24, count: 60, chunkDuration: 0.2, close: false)
        let link = Scratch.path("unclosed-link.luma")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        let report = try RecordingRecovery.recover(link)
        #expect(report.framesKept == 60)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == path)
        #expect(try RecordingReader(path: path).hasIndex)
        #expect(try correctFrames(path, frames).count == 60)
    }
}
