import Foundation
import LumaBase
import LumaFormat

/// Opens what `record` is given as the frame source it is: a Y4M file or stream (`-` is standard
/// input; a FIFO or character device carrying Y4M), a folder of images, a video file that ffmpeg
/// reads, or a live input ffmpeg opens as it goes (a network stream, a V4L2 camera, an input of an
/// ffmpeg format such as `lavfi`, a file read at its own pace). A `.luma` file is refused with what
/// to do with a recording instead.
public enum FrameSources {
    /// The rate a folder of images is recorded at when none is given.
    public static let defaultFolderRate = FrameRate(numerator: 30, denominator: 1)

    /// The source for `input`. `rate` overrides the input's own timing (and is the folder rate);
    /// `live` keeps a Y4M stream's frames as they come, stamped with their arrival time unless
    /// `y4mClock` says otherwise; `ffmpegFormat` (ffmpeg's `-f`) and
    /// `realtime` (`-re`) make it a live input read by ffmpeg; `warning` hears what an import
    /// noticed and went on with; `fastArrival` hears, once, that a stream stamped on arrival
    /// delivers frames much faster than its rate (``ArrivalPace``). Returns whether the folder
    /// rate was assumed.
    public static func open(_ input: String, output: String, rate: FrameRate?, live: Bool, stop: StopFlag,
                            ffmpegFormat: String? = nil, realtime: Bool = false, y4mClock: Y4MSource.Clock? = nil,
                            warning: (@Sendable (String) -> Void)? = nil,
                            fastArrival: (@Sendable (ArrivalPace.TooFast) -> Void)? = nil) throws -> (source: any FrameSource, assumedRate: Bool) {
        if ffmpegFormat != nil || realtime || isLiveInput(input) {
            let source = try LiveVideoSource(input: input, format: ffmpegFormat ?? (input.hasPrefix("/dev/video") ? "v4l2" : nil),
                                             realtime: realtime, stop: stop)
            source.warning = warning
            return (source, false)
        }
        // A live pipe is stamped as its frames arrive, unless told otherwise.
        let streamClock = y4mClock ?? (live ? .arrival : .rate)
        if input == "-" || input.lowercased().hasSuffix(".y4m") {
            var source = try Y4MSource(path: input, fps: rate, stop: stop, live: live, clock: streamClock)
            source.fastArrival = fastArrival
            return (source, false)
        }
        // stat, not FileManager.fileExists: a symlink loop or a forbidden folder is named for what
        // it is ("too many levels of symbolic links"), not reported as missing.
        let status: FileStatus
        do throws(SystemCallError) { status = try SystemPath.status(of: input) } catch {
            throw error.errno == ENOENT ? RecordingInputError.noSuchInput(input) : .cannotOpen(path: input, error)
        }
        let kind = status.kind
        if kind == .fifo || kind == .characterDevice {
            // A FIFO or device: sniffed without losing a byte, since what was read cannot be read again.
            let stream = try ByteStream.open(input, stopRequested: stop)
            guard try stream.peek(9) == Array("YUV4MPEG2".utf8) else { throw RecordingInputError.notAY4MStream(input: input, output: output) }
            var source = try Y4MSource(stream: stream, fps: rate, live: live, clock: streamClock)
            source.fastArrival = fastArrival
            return (source, false)
        }
        if live { throw RecordingInputError.liveNeedsAStream(input) }
        if kind == .folder { return (try ImageFolderSource(folder: input, rate: rate ?? defaultFolderRate), rate == nil) }
        if startsWith("YUV4MPEG2", input) { return (try Y4MSource(path: input, fps: rate, stop: stop, live: false), false) }
        if startsWith("LUMA", input) { throw RecordingInputError.alreadyARecording(input) }
        var video = try VideoSource(path: input, fps: rate, stop: stop)
        video.warning = warning
        return (video, false)
    }

    /// Whether `input` is a network stream (`rtsp://…`: a URL scheme) or a V4L2 camera, which
    /// ffmpeg reads as it goes.
    public static func isLiveInput(_ input: String) -> Bool {
        if input.hasPrefix("/dev/video") { return true }
        guard let scheme = input.range(of: "://").map({ input[..<$0.lowerBound] }) else { return false }
        return !scheme.isEmpty && scheme.allSatisfy { $0.isLetter || $0 == "+" }
    }

    /// Whether a regular file starts with `magic` (reads that many bytes only).
    static func startsWith(_ magic: String, _ path: String) -> Bool {
        let expected = Array(magic.utf8)
        return (try? SystemFile.open(path, for: .read).read(upTo: expected.count)) == expected
    }
}
