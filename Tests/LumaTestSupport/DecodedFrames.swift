import LumaFormat

/// One frame as a test reads it back from a recording.
public struct DecodedFrame: Sendable {
    public var index: Int
    public var ticks: Int64
    public var pixels: [UInt8]
}

/// Every frame of `reader`'s readable chunks, in order: a chunk that fails to decode throws, or,
/// with `skippingDamaged`, is left out (its frames are simply missing from the result).
public func decodedFrames(_ reader: RecordingReader, skippingDamaged: Bool = false) throws -> [DecodedFrame] {
    let decoder = reader.makeDecoder()
    var frames: [DecodedFrame] = []
    for entry in reader.chunks {
        let chunk: DecodedChunk
        if skippingDamaged {
            guard let decoded = try? decoder.decode(entry) else { continue }
            chunk = decoded
        } else {
            chunk = try decoder.decode(entry)
        }
        for k in 0..<chunk.count {
            frames.append(DecodedFrame(index: entry.firstFrame + k, ticks: chunk.timestamps[k], pixels: chunk.frame(k)))
        }
    }
    return frames
}
