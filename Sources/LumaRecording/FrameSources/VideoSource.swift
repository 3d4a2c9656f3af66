import Foundation
import LumaAnalysis
import LumaFormat
import LumaBase
import LumaProcess

/// Frames from any video ffmpeg can read, every decoded frame passed through (`-fps_mode
/// passthrough`); ffprobe lists each frame's presentation timestamp first, so variable-frame-rate
/// video keeps its real timing.
///
/// The luma is the decoded Y plane exactly as coded (`LumaSignal`): ffmpeg extracts it
/// (`-vf extractplanes=y`) rather than converting to gray, which would stretch limited-range codes
/// to full range, so `record clip.mp4` and `ffmpeg -i clip.mp4 -f yuv4mpegpipe - | lumatrace record -`
/// give the same frames. Video without a Y plane (RGB, palette) comes as PPM images and is converted
/// by the same formula as PNG files.
public struct VideoSource: FrameSource {
    let path: String
    public let name: String
    public let header: RecordingHeader
    let timestamps: [Int64]
    private let ffmpeg: FFmpegDecoder
    let signal: LumaSignal
    private let frames: DecodedFrames
    private var index = 0
    public var expectedFrameCount: Int? { timestamps.count }
    public let leftOut: [String]

    /// How ffmpeg and ffprobe are told of `path`. They take names as UTF-8 text, so a name that is
    /// not UTF-8 (``SystemPath``) is opened here and handed over as their standard input, which they
    /// read as `/dev/stdin`: a reopening of the same file, so still seekable. The handle is closed
    /// when released; the program keeps its copy.
    static func input(_ path: String) throws -> (argument: String, handle: FileHandle?) {
        guard SystemPath.hasEscapedBytes(path) else { return (path, nil) }
        let file: SystemFile
        do throws(SystemCallError) { file = try SystemFile.open(path, for: .read) } catch { throw RecordingInputError.cannotOpen(path: path, error) }
        return ("/dev/stdin", FileHandle(fileDescriptor: file.takeDescriptor(), closeOnDealloc: true))
    }

    /// Told what the import noticed and went on with (fewer frames decoded than listed).
    public var warning: (@Sendable (String) -> Void)?

    public init(path: String, fps: FrameRate?, stop: StopFlag?) throws {
        self.path = path
        name = path
        _ = try Tools.require("ffmpeg")  // before ffprobe: without either, ffmpeg is what to install
        let ffprobe = try Tools.require("ffprobe")
        let (stream, frames) = try Self.probe(path, ffprobe: ffprobe)
        let codec = stream["codec_name"]?.stringValue ?? "?"
        let pixelFormat = stream["pix_fmt"]?.stringValue ?? "unknown"
        let colour = LumaSignal.isColourWithoutLuma(pixelFormat: pixelFormat)
        leftOut = try Self.leftOut(path, pixelFormat: pixelFormat, ffprobe: ffprobe)
        let timing = try VideoTiming(frames: frames, stream: stream, fps: fps, path: path)
        timestamps = timing.timestamps
        signal = colour ? .convertedFromRGB(pixelFormat)
            : LumaSignal(range: LumaSignal.range(ffprobe: stream["color_range"]?.stringValue, pixelFormat: pixelFormat),
                         matrix: stream["color_space"]?.stringValue ?? "unknown", origin: "Y plane of \(pixelFormat)")
        var meta = ["source": URL(fileURLWithPath: path).lastPathComponent, "source.format": "video", "source.codec": codec,
                    "source.pixel_format": pixelFormat, "source.timing": timing.description]
        if timing.extrapolated > 0 {
            meta["source.timing.extrapolated"] = "\(Plural.count(timing.extrapolated, "frame")) had no timestamp; each got the previous frame interval"
        }
        let metadata = meta.merging(signal.metadata) { $1 }
        (ffmpeg, self.frames) = try Self.decoder(path, colour: colour, stop: stop)
        let (width, height) = self.frames.size
        header = RecordingHeader(width: width, height: height, timescale: timing.timescale, rateNumerator: timing.rateNumerator,
                                 rateDenominator: timing.rateDenominator, metadata: metadata)
    }

    /// ffprobe's description of the first video stream and its list of frames (at least one).
    private static func probe(_ path: String, ffprobe: String) throws -> (stream: JSONValue, frames: [JSONValue]) {
        let probeInput = try input(path)
        let probe = try Tools.run(ffprobe, ["-v", "error", "-select_streams", "v:0",
                                            "-show_entries", "stream=codec_name,pix_fmt,color_range,color_space,width,height,time_base,avg_frame_rate,r_frame_rate:frame=best_effort_timestamp,pts,pkt_dts",
                                            "-of", "json", probeInput.argument], standardInput: probeInput.handle)
        guard probe.status == 0 else {
            throw RecordingInputError.unreadableVideo(path: path, problem: .ffprobeRefused(String(probe.stderr.split(separator: "\n").last ?? "unknown error")))
        }
        let json: JSONValue
        do { json = try JSONParser.parse(probe.stdout) } catch { throw RecordingInputError.unreadableVideo(path: path, problem: .ffprobeNotJSON(error)) }
        guard let stream = json["streams"]?.arrayValue?.first else { throw RecordingInputError.noVideoStream(path) }
        let frames = json["frames"]?.arrayValue ?? []
        guard !frames.isEmpty else { throw RecordingInputError.unreadableVideo(path: path, problem: .noDecodableFrames) }
        return (stream, frames)
    }

    /// ffmpeg started on `path`, and the header of what it writes: the Y plane as coded (high bit
    /// depths shifted to 8 bits), or RGB images to convert here when the video has no luma.
    private static func decoder(_ path: String, colour: Bool, stop: StopFlag?) throws -> (FFmpegDecoder, DecodedFrames) {
        let decodeInput = try input(path)
        let output = colour ? ["-pix_fmt", "rgb24", "-c:v", "ppm", "-f", "image2pipe", "-"]
            : ["-vf", "extractplanes=y", "-pix_fmt", "gray", "-f", "yuv4mpegpipe", "-"]
        let ffmpeg = try withExtendedLifetime(decodeInput.handle) {  // open until ffmpeg has its copy
            try FFmpegDecoder(input: path, arguments: ["-v", "error", "-i", decodeInput.argument, "-map", "0:v:0", "-fps_mode", "passthrough"] + output,
                              standardInput: decodeInput.handle.map { .fileDescriptor($0.fileDescriptor) } ?? .null, stop: stop)
        }
        let frames: DecodedFrames = try ffmpeg.header({ colour ? .rgb(try PPMStreamReader(stream: $0)) : .luma(try Y4MReader(stream: $0)) },
                                       reading: .file)
        return (ffmpeg, frames)
    }

    /// The colour and the other streams (audio, subtitles, more video) a luma recording leaves out.
    static func leftOut(_ path: String, pixelFormat: String, ffprobe: String) throws -> [String] {
        let input = try input(path)
        let probe = try Tools.run(ffprobe, ["-v", "error", "-show_entries", "stream=codec_type", "-of", "csv=p=0", input.argument],
                                  standardInput: input.handle)
        let types = probe.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        var out: [String] = []
        if !pixelFormat.hasPrefix("gray") && !pixelFormat.hasPrefix("mono") { out.append("colour") }
        for (type, noun) in [("audio", "audio stream"), ("subtitle", "subtitle stream"), ("data", "data stream")] {
            let n = types.filter { $0 == type }.count
            if n > 0 { out.append(n == 1 ? "the \(noun)" : Plural.count(n, noun)) }
        }
        let videos = types.filter { $0 == "video" }.count
        if videos > 1 { out.append(Plural.count(videos - 1, "more video stream")) }
        return out
    }

    /// ffmpeg's output: the Y plane in a Y4M stream, or RGB images converted here.
    private enum DecodedFrames {
        case luma(Y4MReader)
        case rgb(PPMStreamReader)

        var size: (Int, Int) {
            switch self {
            case .luma(let r): (r.info.width, r.info.height)
            case .rgb(let r): (r.width, r.height)
            }
        }

        func read(into pixels: UnsafeMutableBufferPointer<UInt8>) throws -> Bool {
            switch self {
            case .luma(let r): try r.readFrame(into: pixels)
            case .rgb(let r): try r.readFrame(into: pixels)
            }
        }
    }

    public mutating func nextFrame(into pixels: UnsafeMutableBufferPointer<UInt8>) throws -> Int64? {
        guard try frames.read(into: pixels) else { return nil }
        guard index < timestamps.count else {
            ffmpeg.program.terminate()
            throw RecordingInputError.moreFramesThanListed(path: path, decoded: index + 1, listed: timestamps.count)
        }
        defer { index += 1 }
        return timestamps[index]
    }

    public mutating func finish() throws {
        try ffmpeg.finish()
        if index < timestamps.count {
            warning?("\(path): ffmpeg decoded \(Plural.count(index, "frame")), ffprobe listed \(timestamps.count); the recording holds the \(index) decoded")
        }
    }
}
