import LumaAnalysis
import LumaBase
import LumaFormat

extension DecodedChunk {
    /// Lends frame `k` of the chunk (0-based within it) as analyzers see it — its index in the
    /// recording, its exact time, its size and its pixels in one `Frame` (LumaAnalysis) — for the duration of
    /// `body`. `recording` is the header of the recording the chunk was decoded from.
    public func withFrame<R>(_ k: Int, of recording: RecordingHeader, _ body: (Frame) throws -> R) rethrows -> R {
        try withFrame(k) { pixels in
            try body(Frame(index: entry.firstFrame + k, timestamp: Timestamp(ticks: timestamps[k], timescale: recording.timescale),
                           width: recording.width, height: recording.height, pixels: pixels))
        }
    }
}
