import LumaFormat

/// The rate a video of some of a recording's frames plays at so that it lasts as long as they did.
public enum PlaybackRate {
    /// Frames a second at which `frames` (ascending, evenly strided) span the same time as in
    /// `reader`'s recording: the recording's own pace, also when its nominal rate is unknown or
    /// its frame rate varies. A single frame plays at the nominal rate over the stride (30 without one).
    public static func mean(of frames: [Int], in reader: RecordingReader) throws(LumaFormatError) -> Double {
        let step = frames.count > 1 ? Double(frames[1] - frames[0]) : 1
        guard let first = frames.first, let last = frames.last, last > first else {
            return reader.header.nominalFrameRate > 0 ? reader.header.nominalFrameRate / step : 30
        }
        let decoder = reader.makeDecoder()
        let span = Double(try decoder.frame(at: last).ticks - decoder.frame(at: first).ticks) / Double(reader.header.timescale)
        return span > 0 ? Double(frames.count - 1) / span : 30
    }
}
