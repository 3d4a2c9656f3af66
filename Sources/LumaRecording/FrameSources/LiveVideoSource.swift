import Dispatch
import Foundation
import Synchronization
import LumaAnalysis
import LumaBase
import LumaFormat

/// Frames from any input ffmpeg opens as it goes, without knowing its end: a network stream
/// (`rtsp://`, `udp://`, `http(s)://`, …), a V4L2 camera (`/dev/video0`), a filter graph
/// (`testsrc2=size=1280x720:rate=60` with the format `lavfi`), or a file read at its own pace
/// (`realtime`, ffmpeg's `-re`).
///
/// ffmpeg is started here and keeps the stream's presentation timestamps: its `showinfo` filter
/// reports each frame's `pts` in the stream's time base (on stderr, before the frame reaches the
/// pipe), so a camera that drops frames shows as gaps in the recording's timestamps. The luma is the
/// Y plane as coded (`extractplanes=y`); a source without one (RGB test patterns) is converted to
/// YUV by ffmpeg first.
///
/// A change of frame size mid-stream ends the stream cleanly at the change (``sizeChange``):
/// a recording holds one frame size.
public final class LiveVideoSource: FrameSource, @unchecked Sendable {
    public let name: String
    public let header: RecordingHeader
    public var expectedFrameCount: Int? { nil }
    /// Set when the stream ended because the frame size changed: what it changed to, and at which frame.
    public private(set) var sizeChange: (frame: Int, size: String)?

    private let ffmpeg: FFmpegDecoder
    private let frames: Y4MReader
    private let reports: FrameReports
    private let timeBaseNumerator: Int64
    /// Set by Ctrl-C: the stream ends with the frames received, even one that has stalled.
    private let stop: StopFlag?
    private var index = 0

    /// Starts ffmpeg on `input` (`format` is ffmpeg's `-f`, e.g. `lavfi` or `v4l2`; `realtime` reads
    /// a file at its native rate). Waits for the stream's first facts; an input ffmpeg cannot open
    /// is refused with ffmpeg's own reason.
    public init(input: String, format: String?, realtime: Bool, stop: StopFlag?) throws {
        name = input
        self.stop = stop
        var arguments = ["-hide_banner", "-nostats", "-loglevel", "info"]
        if realtime { arguments.append("-re") }
        if let format { arguments += ["-f", format] }
        arguments += ["-i", input, "-map", "0:v:0", "-fps_mode", "passthrough",
                      "-vf", "showinfo,format=pix_fmts=gray|yuv420p|yuvj420p|yuv422p|yuvj422p|yuv444p|yuvj444p|nv12|nv21,extractplanes=y",
                      "-pix_fmt", "gray", "-f", "yuv4mpegpipe", "-"]
        let reports = FrameReports()
        self.reports = reports
        ffmpeg = try FFmpegDecoder(input: input, arguments: arguments, stop: stop, take: { reports.take($0) }, ended: { reports.end() })
        frames = try ffmpeg.header({ try Y4MReader(stream: $0) }, reading: .liveStream)
        guard let base = reports.timeBase() else {
            ffmpeg.stop()
            throw RecordingInputError.unreadableVideo(path: input, problem: .noTimeBase)
        }
        timeBaseNumerator = base.numerator
        let (rateNumerator, rateDenominator) = base.frameRate
        header = RecordingHeader(width: frames.info.width, height: frames.info.height, timescale: base.denominator,
                                 rateNumerator: rateNumerator, rateDenominator: rateDenominator, metadata: [
            "source": input, "source.format": "ffmpeg" + (format.map { " (\($0))" } ?? ""), "source.live": "true",
            "source.timing": "presentation timestamps (time base \(base.numerator)/\(base.denominator))",
        ].merging(frames.info.lumaSignal.metadata) { $1 })
    }

    deinit { ffmpeg.stop() }

    /// Told once when a frame's timestamp is missing or does not increase (it then gets the
    /// previous one plus one tick).
    public var warning: (@Sendable (String) -> Void)?
    private var lastTicks: Int64?
    private var warned = false

    public func nextFrame(into pixels: UnsafeMutableBufferPointer<UInt8>) throws -> Int64? {
        guard let report = reports.next(unless: stop) else { return nil }
        if report.size != "\(header.width)x\(header.height)" {
            sizeChange = (index, report.size)
            ffmpeg.stop()
            return nil
        }
        guard try frames.readFrame(into: pixels) else { return nil }
        index += 1
        var ticks = report.pts.map { $0.multipliedReportingOverflow(by: timeBaseNumerator) }.flatMap { $0.overflow ? nil : $0.partialValue }
        if let last = lastTicks, ticks.map({ $0 <= last }) ?? true {
            if !warned {
                warned = true
                warning?("\(name): frame \(index - 1) has \(ticks == nil ? "no timestamp" : "a timestamp that does not increase"); "
                         + "such frames get the previous timestamp plus one tick")
            }
            ticks = last + 1
        }
        let result = ticks ?? 0
        lastTicks = result
        return result
    }

    public func finish() throws {
        try ffmpeg.finish(failureAllowed: sizeChange != nil)
    }
}

/// What ffmpeg's `showinfo` filter says on stderr (``FFmpegMessages`` hands each line over): the
/// stream's time base, then one report per frame, in order.
private final class FrameReports: Sendable {
    struct Report { var pts: Int64?; var size: String }
    struct TimeBase { var numerator: Int64; var denominator: Int64; var frameRate: (Int, Int) }

    private let state = Mutex((reports: [Report](), head: 0, timeBase: TimeBase?.none, sawTimeBase: false, ended: false))
    private let arrived = DispatchSemaphore(value: 0)
    private let configured = DispatchSemaphore(value: 0)

    /// Takes `line` if it is one of showinfo's: the first time base, or a frame's report.
    func take(_ line: String) -> Bool {
        guard line.contains("Parsed_showinfo") else { return false }
        if let base = Self.timeBase(in: line) {
            let first = state.withLock { s in
                defer { s.sawTimeBase = true }
                if !s.sawTimeBase { s.timeBase = base }
                return !s.sawTimeBase
            }
            if first { configured.signal() }
        } else if let report = Self.report(in: line) {
            state.withLock { $0.reports.append(report) }
            arrived.signal()
        }
        return true
    }

    /// ffmpeg has closed stderr: no report comes any more.
    func end() {
        let sawTimeBase = state.withLock { s in
            s.ended = true
            return s.sawTimeBase
        }
        if !sawTimeBase { configured.signal() }
        arrived.signal()
    }

    /// The stream's time base, once ffmpeg has configured its filters (`nil` if it never did).
    func timeBase() -> TimeBase? {
        configured.wait()
        configured.signal()
        return state.withLock { $0.timeBase }
    }

    /// How often a wait for the next report looks at the stop flag.
    private static let stopCheckInterval = DispatchTimeInterval.milliseconds(100)

    /// The next frame's report, waiting for it; `nil` once ffmpeg has ended, or once `stop` is set
    /// while waiting (a stream that stalls — a camera unplugged, a network gone quiet — still ends
    /// on Ctrl-C with the frames received).
    func next(unless stop: StopFlag?) -> Report? {
        while true {
            let taken = state.withLock { s -> (Report?, Bool) in
                guard s.head < s.reports.count else { return (nil, s.ended) }
                s.head += 1
                let r = s.reports[s.head - 1]
                if s.head > 4096 { s.reports.removeFirst(s.head); s.head = 0 }
                return (r, false)
            }
            if let report = taken.0 { return report }
            if taken.1 || stop?.isSet == true { return nil }
            if stop == nil { arrived.wait() } else { _ = arrived.wait(timeout: .now() + Self.stopCheckInterval) }
        }
    }

    /// `[Parsed_showinfo_0 @ 0x…] config in time_base: 1/60, frame_rate: 60/1`
    static func timeBase(in line: String) -> TimeBase? {
        guard line.contains("Parsed_showinfo"), let r = line.range(of: "config in time_base: ") else { return nil }
        let rest = line[r.upperBound...]
        let fields = rest.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let base = fields.first?.split(separator: "/").compactMap { Int64($0) } ?? []
        guard base.count == 2, base[0] > 0, base[1] > 0 else { return nil }
        var rate = (0, 0)
        if let f = fields.first(where: { $0.hasPrefix("frame_rate: ") }) {
            let parts = f.dropFirst("frame_rate: ".count).split(separator: "/").compactMap { Int($0) }
            if parts.count == 2, parts[0] > 0, parts[1] > 0 { rate = (parts[0], parts[1]) }
        }
        return TimeBase(numerator: base[0], denominator: base[1], frameRate: rate)
    }

    /// `[Parsed_showinfo_0 @ 0x…] n:   0 pts:      0 pts_time:0 … s:64x48 …`
    static func report(in line: String) -> Report? {
        guard line.contains("Parsed_showinfo"), line.contains(" n:"), let p = line.range(of: " pts:") else { return nil }
        let afterPTS = line[p.upperBound...].drop { $0 == " " }
        guard let s = line.range(of: " s:") else { return nil }
        // A frame without a timestamp says NOPTS.
        return Report(pts: Int64(afterPTS.prefix { $0 == "-" || $0.isNumber }), size: String(line[s.upperBound...].prefix { $0 != " " }))
    }
}
