/// What `info` reports of a recording beyond its header: how many frames can be read, the time
/// they span, and how well they compress, given the damage found in it.
///
/// Computed from the reader's chunk list and a damage list (``RecordingReader/damage`` when only
/// the index is trusted, ``RecordingReader/verify()`` when every chunk was decoded): a chunk that
/// the damage names whole does not decode, so its frames are not readable.
public struct RecordingStatistics: Equatable, Sendable {
    /// Frames the recording numbers, readable or not.
    public let frames: Int
    /// Frames in chunks that decode.
    public let readableFrames: Int
    /// The first chunk's first timestamp and the last chunk's last, in ticks (0 without chunks).
    public let firstTicks: Int64
    public let lastTicks: Int64
    /// Seconds the readable frames cover: the span of their timestamps plus one mean frame
    /// interval (one nominal interval for a single frame, 0 without a nominal rate).
    public let duration: Double
    /// Bytes the readable frames take uncompressed (width × height each).
    public let rawBytes: Int
    /// Raw bytes per byte of file (0 for an empty file).
    public let compressionRatio: Double
    /// File bytes per readable frame (0 without readable frames).
    public let bytesPerFrame: Double

    /// The statistics of `reader`'s recording with `damage` found in it.
    public init(reader: RecordingReader, damage: [RecordingDamage]) {
        let header = reader.header
        frames = reader.frameCount
        let undecodable = reader.chunks.filter { chunk in damage.contains { $0.chunk == chunk.number && $0.frames == chunk.frames } }
        let readable = reader.readableFrameCount - undecodable.reduce(0) { $0 + $1.frameCount }
        readableFrames = readable
        firstTicks = reader.chunks.first?.firstTicks ?? 0
        lastTicks = reader.chunks.last?.lastTicks ?? 0
        let span = Double(lastTicks - firstTicks) / Double(header.timescale)
        duration = readable > 1
            ? span * Double(readable) / Double(readable - 1)
            : (header.nominalFrameRate > 0 ? 1 / header.nominalFrameRate : 0)
        rawBytes = readable * header.frameSize
        compressionRatio = reader.fileSize > 0 ? Double(rawBytes) / Double(reader.fileSize) : 0
        bytesPerFrame = readable > 0 ? Double(reader.fileSize) / Double(readable) : 0
    }
}
