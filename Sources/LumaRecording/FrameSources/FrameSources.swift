import Foundation
import LumaFormat

/// Opens what `record` is given as the frame source it is: a Y4M file or stream (`-` is standard
/// input; a FIFO or character device carrying Y4M), a folder of images, or a video that ffmpeg
/// reads. Network streams and cameras are refused with how to pipe them through ffmpeg, and a
/// `.luma` file with what to do with a recording instead.
public enum FrameSources {
    /// The rate a folder of images is recorded at when none is given.
    public static let defaultFolderRate = FrameRate(numerator: 30, denominator: 1)

    /// The source for `input`. `rate` overrides the input's own timing (and is the folder rate);
    /// `live` keeps a Y4M stream's frames as they come; `warning` hears what a video import noticed
    /// and went on with. Returns whether the folder rate was assumed.
    public static func open(_ input: String, output: String, rate: FrameRate?, live: Bool, stop: StopFlag,
                            warning: (@Sendable (String) -> Void)? = nil) throws -> (source: any FrameSource, assumedRate: Bool) {
        if input == "-" || input.lowercased().hasSuffix(".y4m") {
            return (try Y4MSource(path: input, fps: rate, stop: stop, live: live), false)
        }
        if let scheme = input.range(of: "://").map({ String(input[..<$0.lowerBound]) }), !scheme.isEmpty,
           scheme.allSatisfy({ $0.isLetter || $0 == "+" }) {
            throw RecordingInputError.needsFFmpegPipe(input: input, scheme: scheme, output: output)
        }
        if input.hasPrefix("/dev/video") { throw RecordingInputError.needsFFmpegPipe(input: input, scheme: nil, output: output) }
        // stat, not FileManager.fileExists: a symlink loop or a forbidden folder is named for what
        // it is ("too many levels of symbolic links"), not reported as missing.
        var st = stat()
        guard stat(SystemPath.bytes(input), &st) == 0 else {
            throw errno == ENOENT ? RecordingInputError.noSuchInput(input) : .cannotOpen(path: input, reason: String(cString: strerror(errno)))
        }
        let kind = st.st_mode & S_IFMT
        if kind == S_IFIFO || kind == S_IFCHR {
            // A FIFO or device: sniffed without losing a byte, since what was read cannot be read again.
            let stream = try ByteStream.open(input, stopRequested: stop)
            guard try stream.peek(9) == Array("YUV4MPEG2".utf8) else { throw RecordingInputError.notAY4MStream(input: input, output: output) }
            return (try Y4MSource(stream: stream, fps: rate, live: live), false)
        }
        if live { throw RecordingInputError.liveNeedsAStream(input) }
        if kind == S_IFDIR { return (try ImageFolderSource(folder: input, rate: rate ?? defaultFolderRate), rate == nil) }
        if startsWith("YUV4MPEG2", input) { return (try Y4MSource(path: input, fps: rate, stop: stop, live: false), false) }
        if startsWith("LUMA", input) { throw RecordingInputError.alreadyARecording(input) }
        var video = try VideoSource(path: input, fps: rate, stop: stop)
        video.warning = warning
        return (video, false)
    }

    /// Whether a regular file starts with `magic` (reads that many bytes only).
    static func startsWith(_ magic: String, _ path: String) -> Bool {
        let fd = Foundation.open(SystemPath.bytes(path), O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let expected = Array(magic.utf8)
        var head = [UInt8](repeating: 0, count: expected.count)
        return read(fd, &head, expected.count) == expected.count && head == expected
    }
}
