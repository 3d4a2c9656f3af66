import Foundation
import LumaFormat
import Testing
import LumaTestSupport

@Suite("A recording's statistics: readable frames, the time they cover, and how well they compress")
struct RecordingStatisticsTests {
    @Test("An intact recording: every frame readable, its span plus one interval, raw bytes over file bytes")
    func intact() throws {
        let path = Scratch.path("stats.luma")
        try writeRecording(path, width: 24, height: 16, count: 60, chunkDuration: 0.2)
        let reader = try RecordingReader(path: path)
        let stats = RecordingStatistics(reader: reader, damage: reader.verify())
        let fileSize = Double(try fileBytes(path).count)
        #expect(stats.frames == 60)
        #expect(stats.readableFrames == 60)
        #expect(stats.firstTicks == 0)
        #expect(stats.lastTicks == 59 * 3000)
        #expect(abs(stats.duration - 2.0) < 1e-12, "59 intervals of 1/30 s, plus one")
        #expect(stats.rawBytes == 60 * 24 * 16)
        #expect(stats.compressionRatio == Double(60 * 24 * 16) / fileSize)
        #expect(stats.bytesPerFrame == fileSize / 60)
    }

    @Test("A chunk that does not decode takes its frames out of the readable ones and of the raw bytes")
    func damagedChunk() throws {
        let path = Scratch.path("stats-damaged.luma")
        try writeRecording(path, width: 24, height: 16, count: 60, chunkDuration: 0.2)
        let chunk = try #require(try RecordingReader(path: path).chunks.dropFirst(2).first)
        var bytes = try fileBytes(path)
        bytes[Int(chunk.recordEnd) - Int(chunk.payloadLength / 2)] ^= 0x55
        try writeBytes(bytes, to: path)

        let reader = try RecordingReader(path: path)
        let trusted = RecordingStatistics(reader: reader, damage: reader.damage)
        #expect(trusted.readableFrames == 60, "the index alone does not see inside a payload")
        let checked = RecordingStatistics(reader: reader, damage: reader.verify())
        #expect(checked.frames == 60)
        #expect(checked.readableFrames == 60 - chunk.frameCount)
        #expect(checked.rawBytes == (60 - chunk.frameCount) * 24 * 16)
        #expect(checked.bytesPerFrame == Double(bytes.count) / Double(60 - chunk.frameCount))
    }

    @Test("A single frame lasts one nominal interval")
    func singleFrame() throws {
        let path = Scratch.path("stats-one.luma")
        try writeRecording(path, width: 24, height: 16, count: 1)
        let reader = try RecordingReader(path: path)
        let stats = RecordingStatistics(reader: reader, damage: reader.verify())
        #expect(stats.readableFrames == 1)
        #expect(stats.duration == 1.0 / 30)
    }
}
