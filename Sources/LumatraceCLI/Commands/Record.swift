import ArgumentParser
import Foundation
import LumaAnalysis
import LumaEngine
import LumaFormat
import LumaBase
import LumaRecording
import LumaOutput

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
              a network stream or camera   lumatrace record rtsp://cam.local/stream1 -o cam.luma
                                           lumatrace record /dev/video0 -o cam.luma
              any ffmpeg input             lumatrace record testsrc2=size=1280x720:rate=60 --input-format lavfi -o test.luma
                                           lumatrace record clip.mp4 --realtime -o paced.luma   (read at its own pace)
                                           (ffmpeg is started here and each frame keeps its presentation
                                           timestamp, so frames a camera dropped show as gaps; until the
                                           stream ends or Ctrl-C)
            Live capture: --live reads a never-ending Y4M stream until it ends or Ctrl-C, e.g.
              ffmpeg -f v4l2 -i /dev/video0 -vf extractplanes=y -f yuv4mpegpipe - | lumatrace record - --live -o live.luma
            Y4M carries no timestamps: a --live stream's frames are stamped with their arrival
            time on the monotonic clock (--timestamps rate spaces them evenly at the F tag's
            rate or --fps instead); `lumatrace info` shows which (source.timing). A stream
            whose frames arrive much faster than its rate (a file, not a camera) is warned
            about once: stamped on arrival, its flights would be impossible physics.
            Luma is kept exactly as coded: the Y plane of YUV video, with its range
            and matrix in the header (see `lumatrace info`); limited-range codes stay
            16-235. RGB (GIF, PNG) becomes (77 R + 150 G + 29 B + 128) >> 8 by every
            path. In ffmpeg pipes use `-vf extractplanes=y`, not `-pix_fmt gray`,
            which stretches limited-range luma to 0-255.
            Ctrl-C (or SIGTERM) always closes the file properly; a recorder killed outright leaves
            every complete chunk readable (run `lumatrace recover` to rewrite the index).

            Analyze while recording: --analyzer (or --pipeline, --set …, as for replay)
            and --events LOG run the analyzers on every frame as it is recorded; each
            frame's events reach LOG as soon as it is analyzed (--events - streams them
            to standard output as JSON lines). Once the recording is closed the log is
            byte-identical to `lumatrace replay REC --pipeline LOG`, and before that a
            prefix of it. An analyzer that fails stops the analysis, not the recording.
              ffmpeg -f v4l2 -i /dev/video0 -vf extractplanes=y -f yuv4mpegpipe - \
                | lumatrace record - --live -o live.luma --analyzer trajectory --events live.events.jsonl
            """)

    @Argument(help: "Video file, Y4M file, '-' for a Y4M stream on stdin, or a folder of images.")
    var input: String

    @OptionGroup var recording: RecordingOutputOptions

    @Option(help: "Frame rate: for image folders and Y4M without one (default for folders: 30), or to replace a video's own timestamps with evenly spaced ones. 30, 29.97 or 30000/1001.")
    var fps: String?

    @Flag(help: "Input is a live Y4M stream: record until it ends or Ctrl-C, flushing each chunk as it fills (implied for network streams, cameras, --input-format and --realtime).")
    var live = false

    @Option(help: ArgumentHelp("How a Y4M stream's frames are timed: arrival (the moment each arrives, on the monotonic clock; the default with --live) or rate (evenly spaced at the F tag's rate or --fps; the default otherwise).",
                               valueName: "clock"))
    var timestamps: Y4MSource.Clock?

    @Option(help: ArgumentHelp("Read INPUT with this ffmpeg input format (ffmpeg's -f), e.g. lavfi for a filter graph such as testsrc2=size=1280x720:rate=60, or v4l2; the stream is recorded live, with its own timestamps.",
                               valueName: "format"))
    var inputFormat: String?

    @Flag(help: "Have ffmpeg read INPUT at its own pace (ffmpeg's -re), as a camera would deliver it; recorded live, with its own timestamps.")
    var realtime = false

    @OptionGroup var replacing: ReplaceOutputOption

    @Option(help: "Shortest chunk in seconds, (0, 3600]. Chunks also hold at least 16 MiB of frames, unless --max-chunk-seconds comes first; with --live they close after exactly this long (the most a crash can lose).")
    var chunkSeconds: Double = 1.0

    @Option(help: "Longest chunk in seconds, [--chunk-seconds, 3600]: the most recording time one damaged chunk, or a full disk, can cost, whatever the frame size (default 2).")
    var maxChunkSeconds: Double = 2.0

    @Option(help: "zstd compression level, 1...19. Higher levels gain little on frame residuals and record slower.")
    var level: Int = 1

    @Option(name: .customLong("meta"), help: "Extra metadata KEY=VALUE stored in the header (repeatable), e.g. --meta camera=north-goal.")
    var metadata: [String] = []

    @OptionGroup(title: "Analyzing while recording") var choice: AnalyzerChoiceOptions

    @Option(help: ArgumentHelp("The event log of the analysis while recording (default with --analyzer or --pipeline: OUTPUT's name with .events.jsonl, beside it); - for standard output.",
                               valueName: "log"))
    var events: String?

    @OptionGroup var parallel: JobsOption
    private var jobs: Int { parallel.count }

    @Option(help: "Frames the recorder may be ahead of the analysis (1...4096): each holds a copy of a frame.")
    var queueFrames: Int = LiveAnalysis.Options().queueFrames

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
        if timestamps == .arrival && !live {
            throw ValidationError("--timestamps arrival stamps frames as they come from a live stream: it needs --live")
        }
        guard (1...4096).contains(queueFrames) else { throw ValidationError("--queue-frames \(queueFrames) is outside 1...4096") }
    }

    /// Where the analysis while recording writes its log, if it runs.
    var eventsPath: String? {
        if let events { return events }
        guard choice.isGiven else { return nil }
        return (recording.output.hasSuffix(".luma") ? String(recording.output.dropLast(5)) : recording.output) + ".events.jsonl"
    }

    /// The analysis while recording, if asked for: settings and the log's destination are checked now.
    private func liveAnalysis() throws -> LiveAnalysis? {
        guard let logPath = eventsPath else { return nil }
        try OutputChecks.requireDistinct(("-o", recording.output), ("--events", logPath))
        let registry = Lumatrace.registry
        let setups = try choice.resolveSetups(registry: registry, logFolder: ConfigurationFolder.of(logPath))
        var options = LiveAnalysis.Options()
        options.queueFrames = queueFrames
        options.jobs = jobs
        options.replaceExistingLog = replacing.replacesExisting
        options.configurationFolder = ConfigurationFolder.of(logPath)
        options.otherInputs = [input] + (choice.pipeline.map { [$0] } ?? [])
        options.memoryBudget = try memoryBudget()
        let analysis = try LiveAnalysis(setups: setups, registry: registry, logPath: logPath, recordingPath: recording.output, options: options)
        analysis.fellBehind = { frame, lag in
            warn("note: the analysis is \(Plural.count(lag, "frame")) behind the recording (at frame \(frame)); it reads frames back "
                 + "from the recording to catch up, and no frame is dropped")
        }
        return analysis
    }

    /// Why a stream stamped on arrival that comes much faster than its rate is not live, and the
    /// flags that record it as it was meant.
    static func fastArrivalWarning(_ found: ArrivalPace.TooFast, input: String) -> String {
        "warning: \(input): \(found.frames) frames arrived in \(DecimalText.fixed(found.arrivalSeconds, 3)) s, where the stream's rate "
            + "gives them \(DecimalText.fixed(found.declaredSeconds, 3)) s: it is not a live source (a file, or a pipe from one), and frames "
            + "stamped on arrival squeeze its time, so every flight looks impossible; record it with --timestamps rate "
            + "(evenly spaced at the stream's rate), or leave out --live"
    }

    func run() throws {
        try reportingErrors {
            let stop = StopFlag()
            // Whether OUTPUT may be written is checked before any wait for input.
            try OutputFile.check(recording.output, replacingExisting: replacing.replacesExisting, inputs: [input], kind: .recording, why: RecordingWriter.needsAFile)
            let analysis = try liveAnalysis()
            // The first interrupt ends the recording (closed, complete) and lets the analysis
            // catch up; a second one stops the analysis where it is.
            let signals = SignalTrap(stop: stop, again: { analysis?.stopNow() })
            defer { signals.restore() }
            let rate = fps.flatMap(FrameRate.init(parsing:))
            var source: any FrameSource
            do {
                let opened = try FrameSources.open(input, output: recording.output, rate: rate, live: live, stop: stop, ffmpegFormat: inputFormat,
                                                   realtime: realtime, y4mClock: timestamps, warning: { warn($0) },
                                                   fastArrival: { [input] in warn(Self.fastArrivalWarning($0, input: input)) })
                source = opened.source
                if opened.assumedRate { warn("\(input): image folders have no timing; assuming 30 fps (pass --fps to set it)") }
            } catch {
                // Ctrl-C while waiting for a stream (a FIFO with no writer yet) ends the wait.
                if stop.isSet { throw RecordingInputError.stoppedBeforeAnyFrame(input) }
                throw error
            }
            // Said once the first frame is in: a source that fails at its first frame gets one line, its error.
            let note = source.leftOut.isEmpty ? nil
                : "note: \(source.name): a recording keeps luma only; \(Self.list(source.leftOut)) \(source.leftOut.count == 1 ? "is" : "are") not recorded"
            try record(&source, stop: stop, analysis: analysis, firstFrameNote: note)
        }
    }

    private func record(_ source: inout any FrameSource, stop: StopFlag, analysis: LiveAnalysis?, firstFrameNote: String?) throws {
        var meta: [String: String] = [:]
        for m in metadata {
            let parts = m.split(separator: "=", maxSplits: 1)
            meta[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        // Live capture closes every chunk after --chunk-seconds, so a crash loses at most that much;
        // files get chunks of at least 16 MiB too, which compress better (see RecordingWriterOptions),
        // but never longer than --max-chunk-seconds: damage and a full disk cost at most that much.
        let live = self.live || source is LiveVideoSource
        var options = live ? RecordingWriterOptions.fixedDuration(chunkSeconds)
                           : RecordingWriterOptions(chunkDuration: chunkSeconds, maximumChunkDuration: maxChunkSeconds)
        options.compressionLevel = level
        options.formatVersion = recording.formatVersion
        let progress = ProgressBar("recording")
        defer { progress.finish() }
        var note = firstFrameNote
        let (header, summary) = try Recorder.record(&source, to: recording.output, replacingExisting: replacing.replacesExisting, inputs: [input], options: options,
                                                    metadata: meta, stop: stop, analysis: analysis, progress: { frames, expected in
            if let said = note {
                note = nil
                warn(said)
            }
            progress.update(frames, expected ?? 0)
        })
        progress.finish()
        // With the events on standard output, what record says goes to stderr so the stream stays JSON Lines.
        let print: (String) -> Void = events == "-" ? { printOnStandardError($0) } : { Swift.print($0) }
        let raw = Double(summary.frameCount * header.frameSize)
        print("recorded \(Plural.count(summary.frameCount, "frame")) \(header.width)x\(header.height) in \(Plural.count(summary.chunkCount, "chunk")) → \(recording.output) (\(summary.fileSize) bytes, ratio \(DecimalText.fixed(raw / Double(summary.fileSize), 2)))")
        // The recording is complete whatever the analysis did; an analysis that could not run says so after it.
        let analyzed = try analysis?.recordingEnded(summary)
        if stop.isSet { print("stopped by signal; the file is closed and complete up to the last frame received") }
        if let change = (source as? LiveVideoSource)?.sizeChange {
            warn("warning: \(input): the frame size changed to \(change.size) at frame \(change.frame); a recording holds one frame size, "
                 + "so it ends there, with every earlier frame kept")
        }
        if let analyzed, let logPath = eventsPath {
            let destination = logPath == "-" ? "standard output" : logPath
            print("analyzed \(Plural.count(analyzed.framesAnalyzed, "frame")) while recording → \(destination) "
                  + "(\(Plural.count(analyzed.eventCount, "event")); the analysis was at most \(Plural.count(analyzed.largestLag, "frame")) behind)")
            if analyzed.framesReadBack > 0 {
                warn("note: the analysis fell behind by up to \(Plural.count(analyzed.largestLag, "frame")) and read \(Plural.count(analyzed.framesReadBack, "frame")) "
                     + "back from the recording (--queue-frames \(queueFrames)); no frame was dropped")
            }
            if let failure = analyzed.failure {
                warn("warning: analyzer \(failure.analyzer) failed at frame \(failure.frame): \(failure.message); the analysis stopped there "
                     + "(the log ends with the failure), the recording went on to the end")
            }
            if analyzed.stoppedEarly {
                throw LiveAnalysisError.stoppedByInterrupt(framesAnalyzed: analyzed.framesAnalyzed, framesRecorded: summary.frameCount,
                                                           log: logPath, recording: recording.output)
            }
        }
    }

    /// "a, b and c".
    static func list(_ items: [String]) -> String {
        items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + items.last!
    }
}

/// Turns SIGINT and SIGTERM into a stop request, so recording ends cleanly with an index; ready
/// when `init` returns (``SignalSources``).
final class SignalTrap: @unchecked Sendable {
    private let sources: SignalSources

    /// `again` runs on the second signal (once the stop is already asked for).
    init(stop: StopFlag, again: (@Sendable () -> Void)? = nil) {
        sources = SignalSources { _ in
            if stop.isSet { again?() }
            stop.set()
        }
    }

    func restore() { sources.restore() }
}

extension Y4MSource.Clock: ExpressibleByArgument {}
