import LumaBase

/// One frame of a recording, as an analyzer sees it: 8-bit luma, `width × height` bytes, row-major
/// with the top row first (pixel coordinates), plus its index and exact timestamp.
///
/// The pixels are a read-only view that is valid only for the duration of the call that receives
/// the frame: copy what you need to keep. Frames are immutable, so several analyzers may read the
/// same frame at once.
public struct Frame: @unchecked Sendable {
    /// 0-based position in the recording.
    public let index: Int
    /// Recording time of the frame.
    public let timestamp: Timestamp
    public let width: Int
    public let height: Int
    /// `width × height` bytes, top row first.
    public let pixels: UnsafeBufferPointer<UInt8>

    public init(index: Int, timestamp: Timestamp, width: Int, height: Int, pixels: UnsafeBufferPointer<UInt8>) {
        precondition(pixels.count == width * height, "a frame holds exactly width × height bytes")
        self.index = index
        self.timestamp = timestamp
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Row `y` (0 = top) as a span of `width` bytes.
    @inlinable
    public func row(_ y: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: pixels[(y * width)..<((y + 1) * width)])
    }

    /// The luma at pixel column `x`, row `y` (0, 0 = top left).
    @inlinable
    public subscript(x: Int, y: Int) -> UInt8 { pixels[y * width + x] }
}

/// What an analyzer knows about the stream before the first frame, whether the frames are replayed
/// from a recording or analyzed live as they are recorded (the two must give the same events, so
/// nothing here depends on frames that have not arrived yet).
public struct StreamInfo: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var timescale: Int64
    /// Nominal frames per second (informational; use frame timestamps for timing).
    public var nominalFrameRate: Double
    /// Frames in the recording, when known in advance: only in a replay that writes a log of
    /// format version 1. Live analysis, and replays that must equal it, do not know it.
    public var frameCount: Int?
    /// A stable name for the stream, hex: derive ids from it (``DerivedIdentifier``). It is the
    /// SHA-256 of the recording's first frame (its size, time and pixels), known as soon as that
    /// frame arrives; in a replay that writes a log of format version 1, the digest of all frames.
    public var identity: String

    public init(width: Int, height: Int, timescale: Int64, nominalFrameRate: Double, frameCount: Int? = nil, identity: String) {
        self.width = width
        self.height = height
        self.timescale = timescale
        self.nominalFrameRate = nominalFrameRate
        self.frameCount = frameCount
        self.identity = identity
    }
}
