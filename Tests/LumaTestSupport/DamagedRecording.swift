import Foundation
import LumaFormat

/// A recording with damaged chunks, written for a test: 30 frames a second in chunks of half a
/// second (15 frames), then a bit flipped in the frame table of each chunk named, so the chunk's
/// CRC fails and readers must name it (`info`), stop at it (`replay`) or go around it
/// (`--skip-damaged`).
public enum DamagedRecording {
    /// The damage a test asked for could not be made.
    public struct Failure: Error, CustomStringConvertible { public var description: String }

    /// Writes `frameCount` frames of `width × height`, frame `i` drawn by `draw(i, into:)` on a
    /// zeroed buffer, to `path`, damages `damagedChunks`, and returns the chunks as written (before
    /// the damage), for the test to name their frames.
    @discardableResult
    public static func write(to path: String, width: Int, height: Int, frameCount: Int, damagedChunks: [Int],
                             draw: (Int, inout [UInt8]) -> Void) throws -> [ChunkEntry] {
        let writer = try RecordingWriter(path: path, header: RecordingHeader(width: width, height: height, timescale: 30, rateNumerator: 30),
                                         options: .fixedDuration(0.5))
        var frame = [UInt8](repeating: 0, count: width * height)
        for i in 0..<frameCount {
            for k in frame.indices { frame[k] = 0 }
            draw(i, &frame)
            try writer.append(frame, ticks: Int64(i))
        }
        try writer.close()
        let chunks = try RecordingReader(path: path).chunks
        guard let handle = FileHandle(forUpdatingAtPath: path) else { throw Failure(description: "\(path): cannot open it to damage it") }
        defer { try? handle.close() }
        for number in damagedChunks {
            guard chunks.indices.contains(number) else { throw Failure(description: "\(path): no chunk \(number) of \(chunks.count) to damage") }
            // 40 bytes into a chunk record is its frame table: one bit flipped there fails the chunk's CRC.
            let offset = chunks[number].offset + 40
            try handle.seek(toOffset: offset)
            guard var byte = try handle.read(upToCount: 1), byte.count == 1 else { throw Failure(description: "\(path): chunk \(number) is cut short") }
            byte[0] ^= 0x10
            try handle.seek(toOffset: offset)
            try handle.write(contentsOf: byte)
        }
        return chunks
    }
}
