import ArgumentParser
import Foundation
import LumaEngine
import LumaFormat

struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record frames into a .luma file (8-bit luma, zstd-compressed, crash-safe).",
        discussion: """
            INPUT can be:
              a video file ffmpeg reads    lumatrace record shot.mp4 -o shot.luma
                                           (real per-frame timestamps kept; needs ffmpeg and ffprobe)
              a Y4M file, or - for stdin   ffmpeg -i cam.mkv -vf extractplanes=y -f yuv4mpegpipe - | lumatrace record - -o cam.luma
              a folder of images           lumatrace record frames/ --fps 30 -o seq.luma
                                           (PGM, PNG or JPEG, in name order; colour becomes luma)
            Live capture: --live reads a never-ending Y4M stream until it ends or Ctrl-C, e.g.
              ffmpeg -f v4l2 -i /dev/video0 -vf extractplanes=y -f yuv4mpegpipe - | lumatrace record - --live -o live.luma
            Luma is kept exactly as coded: the Y plane of YUV video, with its range
            and matrix in the header (see `lumatrace info`); limited-range codes stay
            16-235. RGB (GIF, PNG) becomes (77 R + 150 G + 29 B + 128) >> 8 by every
            path. In ffmpeg pipes use `-vf extractplanes=y`, not `-pix_fmt gray`,
            which stretches limited-range luma to 0-255.
            Ctrl-C (or SIGTERM) always closes the file properly; a recorder killed outright leaves
            every complete chunk readable (run `lumatrace recover` to rewrite the index).
            """)

    @Argument(help: "Video file, Y4M file, '-' for a Y4M stream on stdin, or a folder of images.")
    var input: String

    @Option(name: .shortAndLong, help: "The .luma file to write.")
    var output: String

    @Option(help: "Frame rate: for image folders and Y4M without one (default for folders: 30), or to replace a video's own timestamps with evenly spaced ones. 30, 29.97 or 30000/1001.")
    var fps: String?

    @Flag(help: "Input is a live Y4M stream: record until it ends or Ctrl-C, flushing each chunk as it fills.")
    var live = false

    @Flag(help: "Overwrite OUTPUT if it exists.")
    var force = false

    @Option(help: "Shortest chunk in seconds, (0, 3600]. Chunks also hold at least 16 MiB of frames, unless --max-chunk-seconds comes first; with --live they close after exactly this long (the most a crash can lose).")
    var chunkSeconds: Double = 1.0

    @Option(help: "Longest chunk in seconds, [--chunk-seconds, 3600]: the most recording time one damaged chunk, or a full disk, can cost, whatever the frame size (default 2).")
    var maxChunkSeconds: Double = 2.0

    @Option(help: "zstd compression level, 1...19. Higher levels gain little on frame residuals and record slower.")
    var level: Int = 1

    @Option(help: "The .luma format version to write: 2 (default; the header and reference frame are kept twice, far apart) or 1 (for readers that know only version 1).")
    var formatVersion: Int = RecordingHeader.formatVersion

    @Option(name: .customLong("meta"), help: "Extra metadata KEY=VALUE stored in the header (repeatable), e.g. --meta camera=north-goal.")
    var metadata: [String] = []

    func validate() throws {
        guard chunkSeconds > 0, chunkSeconds <= 3600, chunkSeconds.isFinite else {
            throw ValidationError("--chunk-seconds \(chunkSeconds) is outside (0, 3600]")
        }
        guard maxChunkSeconds.isFinite, maxChunkSeconds <= 3600, maxChunkSeconds >= min(chunkSeconds, 3600) else {
            throw ValidationError("--max-chunk-seconds \(maxChunkSeconds) is outside [--chunk-seconds (\(chunkSeconds)), 3600]")
        }
        guard (1...19).contains(level) else { throw ValidationError("--level \(level) is outside 1...19") }
        if let fps, FrameRate(parsing: fps) == nil {
            throw ValidationError("--fps '\(fps)' is not a positive rate like 30, 29.97 or 30000/1001")
        }
        for m in metadata where !m.contains("=") || m.hasPrefix("=") {
            throw ValidationError("--meta '\(m)' is not KEY=VALUE")
        }
    }

    func run() throws {
        try reportingErrors {
            let stop = StopFlag()
            let signals = SignalTrap(stop: stop)
            defer { signals.restore() }
            let rate = fps.flatMap(FrameRate.init(parsing:))
            // Whether OUTPUT may be written is checked before any wait for input. A new recording is
            // written in place, so a killed recorder leaves its complete chunks under OUTPUT;
            // replacing one (--force) writes beside it, so the old one survives a failure.
            try OutputFile.check(output, replacingExisting: force, inputs: [input], why: RecordingWriter.needsAFile)
            var source: any FrameSource
            do { source = try openSource(rate: rate, stop: stop) } catch {
                // Ctrl-C while waiting for a stream (a FIFO with no writer yet) ends the wait.
                if stop.isSet { throw CLIError("\(input): stopped by a signal before any frame arrived; nothing recorded") }
                throw error
            }
            try record(&source, stop: stop)
        }
    }

    private func openSource(rate: FrameRate?, stop: StopFlag) throws -> any FrameSource {
        var isDirectory: ObjCBool = false
        if input == "-" || input.lowercased().hasSuffix(".y4m") {
            return try Y4MSource(path: input, fps: rate, stop: stop, live: live)
        }
        if let pipe = Self.ffmpegPipe(for: input, output: output) {
            throw CLIError("\(input): record reads files, folders and Y4M streams; record this \(pipe.what) through ffmpeg: \(pipe.command)")
        }
        // stat, not FileManager.fileExists: a symlink loop or a forbidden folder is named for what
        // it is ("too many levels of symbolic links"), not reported as missing.
        var st = stat()
        guard stat(SystemPath.bytes(input), &st) == 0 else {
            throw CLIError(errno == ENOENT ? "\(input): no such file or folder" : "\(input): cannot open: \(String(cString: strerror(errno)))")
        }
        isDirectory = ObjCBool((st.st_mode & S_IFMT) == S_IFDIR)
        if let stream = try Self.openIfStream(input, stop: stop) {
            // A FIFO or device: sniffed without losing a byte, since what was read cannot be read again.
            guard try stream.peek(9) == Array("YUV4MPEG2".utf8) else {
                throw CLIError("\(input): is a FIFO or device that does not carry a Y4M stream; let ffmpeg read it: "
                    + "ffmpeg -i \(input) -vf extractplanes=y -f yuv4mpegpipe - | lumatrace record - -o \(output)")
            }
            return try Y4MSource(stream: stream, fps: rate, live: live)
        }
        if live { throw CLIError("--live reads a Y4M stream: give '-' (stdin) or a .y4m file/FIFO as INPUT") }
        if isDirectory.boolValue {
            if rate == nil { warn("\(input): image folders have no timing; assuming 30 fps (pass --fps to set it)") }
            return try ImageFolderSource(folder: input, rate: rate ?? FrameRate(numerator: 30, denominator: 1))
        }
        if Self.startsWithY4MSignature(input) {
            return try Y4MSource(path: input, fps: rate, stop: stop, live: false)
        }
        if Self.isRecording(input) {
            throw CLIError("\(input): is already a Lumatrace recording; replay it (lumatrace replay \(input)), describe it (lumatrace info), "
                + "or write its frames out (lumatrace export \(input) --format y4m)")
        }
        return try VideoSource(path: input, fps: rate, stop: stop)
    }

    /// The ffmpeg pipe that records a network stream (`rtsp://…`) or a V4L2 camera (`/dev/video0`),
    /// which `record` does not open itself; `nil` for anything else.
    static func ffmpegPipe(for input: String, output: String) -> (what: String, command: String)? {
        let tail = "-vf extractplanes=y -f yuv4mpegpipe - | lumatrace record - --live -o \(output)"
        if let scheme = input.range(of: "://").map({ input[..<$0.lowerBound] }), !scheme.isEmpty, scheme.allSatisfy({ $0.isLetter || $0 == "+" }) {
            return ("network stream (\(scheme))", "ffmpeg -i '\(input)' \(tail)")
        }
        if input.hasPrefix("/dev/video") {
            return ("V4L2 camera", "ffmpeg -f v4l2 -i \(input) \(tail)")
        }
        return nil
    }

    /// Whether a regular file starts with a recording's magic (`LUMA`).
    static func isRecording(_ path: String) -> Bool {
        let fd = open(SystemPath.bytes(path), O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 4)
        return read(fd, &head, 4) == 4 && head == Array("LUMA".utf8)
    }

    /// Opens `path` as a stream if it is a FIFO or a character device; `nil` for anything else.
    static func openIfStream(_ path: String, stop: StopFlag) throws -> ByteStream? {
        var st = stat()
        guard stat(SystemPath.bytes(path), &st) == 0, (st.st_mode & S_IFMT) == S_IFIFO || (st.st_mode & S_IFMT) == S_IFCHR else { return nil }
        return try ByteStream.open(path, stopRequested: stop)
    }

    /// Whether a regular file starts with `YUV4MPEG2` (reads those 9 bytes only).
    static func startsWithY4MSignature(_ path: String) -> Bool {
        let fd = open(SystemPath.bytes(path), O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 9)
        return read(fd, &head, 9) == 9 && head == Array("YUV4MPEG2".utf8)
    }

    private func record(_ source: inout any FrameSource, stop: StopFlag) throws {
        if !source.leftOut.isEmpty {
            warn("note: \(source.name): a recording keeps luma only; \(Self.list(source.leftOut)) \(source.leftOut.count == 1 ? "is" : "are") not recorded")
        }
        var meta = source.metadata
        for m in metadata {
            let parts = m.split(separator: "=", maxSplits: 1)
            meta[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        let header = RecordingHeader(width: source.width, height: source.height, timescale: source.timescale,
                                     rateNumerator: source.rateNumerator, rateDenominator: source.rateDenominator, metadata: meta)
        // Live capture closes every chunk after --chunk-seconds, so a crash loses at most that much;
        // files get chunks of at least 16 MiB too, which compress better (see RecordingWriterOptions),
        // but never longer than --max-chunk-seconds: damage and a full disk cost at most that much.
        var options = live ? RecordingWriterOptions.fixedDuration(chunkSeconds)
                           : RecordingWriterOptions(chunkDuration: chunkSeconds, maximumChunkDuration: maxChunkSeconds)
        options.compressionLevel = level
        options.formatVersion = formatVersion
        // The writer (with its frame-sized buffers) is made when the first frame has arrived, and
        // the frame buffer is filled as bytes arrive: a header declaring 16384×16384 with no frame
        // behind it costs nothing.
        var writer: RecordingWriter?
        let progress = ProgressBar("recording")
        var pixels = [UInt8](unsafeUninitializedCapacity: header.frameSize) { _, initialized in initialized = header.frameSize }
        var failure: (any Error)?
        while !stop.isSet {
            let ticks: Int64?
            do {
                ticks = try pixels.withUnsafeMutableBufferPointer { try source.nextFrame(into: $0) }
            } catch {
                // A signal ends the stream mid-frame: that frame was never complete, which is where
                // recording stops, not an error.
                if !stop.isSet { failure = error }
                break
            }
            guard let ticks else { break }
            let active: RecordingWriter
            if let writer { active = writer } else {
                let file = try OutputFile.create(output, replacingExisting: force, inputs: [input],
                                                 streams: .refused(why: RecordingWriter.needsAFile), placement: .inPlace)
                active = try RecordingWriter(output: file, header: header, options: options)
                writer = active
            }
            do {
                try active.append(pixels, ticks: ticks)
            } catch {
                // The file cannot take more (a full disk, say): it cannot take an index either, but
                // every chunk written before is complete and checksummed.
                let kept = active.writingPath
                throw CLIError("\(error) — recording stopped at frame \(active.frameCount); the complete chunks before it are "
                    + "in \(kept): `lumatrace recover \(kept) -o OTHER.luma` (on a disk with space) indexes them")
            }
            progress.update(active.frameCount, source.expectedFrameCount ?? 0)
        }
        progress.finish()
        if failure == nil && !stop.isSet {
            do { try source.finish() } catch { failure = error }
        }
        // Close properly whatever happened: everything received so far stays readable.
        guard let writer, writer.frameCount > 0 else {
            writer?.abandon()  // nothing recorded: nothing left behind that the next run must --force
            throw failure ?? CLIError("\(source.name): no frames to record")
        }
        if let failure {
            // The frames before the error are kept, closed and readable, but not under the name
            // asked for: that stays free (or keeps the recording it had) for the next attempt.
            let (aside, summary) = try writer.closeAside(asideNames: Self.incompleteNames(for: output))
            throw CLIError("\(failure) — the \(Plural.count(summary.frameCount, "frame")) before the error are saved in \(aside)")
        }
        let summary = try writer.close()
        let raw = Double(summary.frameCount * header.frameSize)
        print("recorded \(Plural.count(summary.frameCount, "frame")) \(header.width)x\(header.height) in \(Plural.count(summary.chunkCount, "chunk")) → \(output) (\(summary.fileSize) bytes, ratio \(DecimalText.fixed(raw / Double(summary.fileSize), 2)))")
        if stop.isSet { print("stopped by signal; the file is closed and complete up to the last frame received") }
    }

    /// "a, b and c".
    static func list(_ items: [String]) -> String {
        items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + items.last!
    }

    /// Where a recording whose input failed is kept: `clip.incomplete.luma`, then
    /// `clip.incomplete-2.luma`, … (never over anything).
    static func incompleteNames(for output: String) -> [String] {
        let stem = output.hasSuffix(".luma") ? String(output.dropLast(5)) : output
        return ["\(stem).incomplete.luma"] + (2...99).map { "\(stem).incomplete-\($0).luma" }
    }
}

/// Turns SIGINT and SIGTERM into a stop request, so recording ends cleanly with an index.
final class SignalTrap: @unchecked Sendable {
    private var sources: [DispatchSourceSignal] = []

    init(stop: StopFlag) {
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let s = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            s.setEventHandler { stop.set() }
            s.resume()
            sources.append(s)
        }
    }

    func restore() {
        for s in sources { s.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
