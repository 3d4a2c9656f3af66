import Foundation
import LumaFormat

/// Frames from a YUV4MPEG2 stream (a file, or `-` for stdin). Y4M has no timestamps: frame `i` is
/// at `i / rate`, with the rate from the `F` tag or the one given, or (``Clock/arrival``, a live
/// camera pipe) at the moment it arrived.
public struct Y4MSource: FrameSource {
    /// Where a frame's timestamp comes from.
    public enum Clock: String, Sendable, CaseIterable {
        /// Frame `i` at `i / rate`: a file, or a stream of a file.
        case rate
        /// The moment the frame's last byte was read, on the monotonic clock, in microseconds
        /// after the first frame's: a live pipe, whose frames come when the camera makes them, so
        /// a stall or a dropped frame shows as a gap.
        case arrival
    }

    let reader: Y4MReader
    let rate: FrameRate
    let clock: Clock
    /// Arrival clock: the first frame's arrival (ns), and the last timestamp given.
    private var firstArrival: UInt64?
    private var lastTicks: Int64 = -1
    public let name: String
    var index: Int64 = 0
    public var expectedFrameCount: Int? { nil }
    /// Hears, once, that frames stamped on arrival come much faster than the stream's rate
    /// (``ArrivalPace``): a file or a pipe from one, not a live source.
    public var fastArrival: (@Sendable (ArrivalPace.TooFast) -> Void)?
    private var pace: ArrivalPace

    public init(path: String, fps: FrameRate?, stop: StopFlag?, live: Bool, clock: Clock = .rate) throws {
        try self.init(stream: ByteStream.open(path, stopRequested: stop), fps: fps, live: live, clock: clock)
    }

    /// Reads an opened stream (e.g. one whose first bytes were peeked to sniff its format).
    public init(stream: ByteStream, fps: FrameRate?, live: Bool, clock: Clock = .rate) throws {
        self.clock = clock
        reader = try Y4MReader(stream: stream)
        name = stream.name
        if let fps {
            rate = fps
        } else if reader.info.rateNumerator > 0 {
            rate = FrameRate(numerator: reader.info.rateNumerator, denominator: reader.info.rateDenominator)
        } else {
            throw RecordingInputError.noFrameRate(name)
        }
        pace = ArrivalPace(rate: rate)
        self.live = live
    }

    let live: Bool
    public var header: RecordingHeader {
        RecordingHeader(width: reader.info.width, height: reader.info.height, timescale: clock == .arrival ? 1_000_000 : rate.timescale,
                        rateNumerator: rate.numerator, rateDenominator: rate.denominator, metadata: metadata)
    }

    /// The header's descriptive strings: the stream's Y4M tags, and how its frames are timed.
    private var metadata: [String: String] {
        var m = ["source": name, "source.format": "y4m", "y4m.colorspace": reader.info.colorspace, "y4m.interlacing": reader.info.interlacing,
                 "y4m.aspect": reader.info.aspect]
        if !reader.info.extensions.isEmpty { m["y4m.extensions"] = reader.info.extensions.joined(separator: " ") }
        if live { m["source.live"] = "true" }
        m["source.timing"] = switch clock {
        case .rate: "evenly spaced at \(rate.numerator)/\(rate.denominator) fps"
        case .arrival: "arrival time on the monotonic clock (CLOCK_MONOTONIC), microseconds after the first frame"
        }
        return m.merging(reader.info.lumaSignal.metadata) { $1 }
    }

    public var leftOut: [String] { reader.info.colorspace == "mono" ? [] : ["colour"] }

    public mutating func nextFrame(into pixels: UnsafeMutableBufferPointer<UInt8>) throws -> Int64? {
        guard try reader.readFrame(into: pixels) else { return nil }
        defer { index += 1 }
        switch clock {
        case .rate:
            return index * rate.ticksPerFrame
        case .arrival:
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let nanoseconds = UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
            let first = firstArrival ?? nanoseconds
            firstArrival = first
            // Two frames read within a microsecond (a pipe that had buffered them) stay in order.
            lastTicks = max(lastTicks + 1, Int64((nanoseconds - first) / 1000))
            if let found = pace.arrived(frame: index, atMicroseconds: lastTicks) { fastArrival?(found) }
            return lastTicks
        }
    }
}
